import Fleet
import Foundation
import PreflightServer
import TestSupport
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The real `preflight serve` over loopback HTTP (built with the Server trait: `.ci/run` runs
/// these with `swift test --traits PostgreSQL,Server`): an upload scanned by worker processes,
/// the report, hostile requests, and a stop with SIGTERM and a restart that scans what was
/// accepted but not scanned.
final class ServerHTTPTests: XCTestCase {
    final class Server: @unchecked Sendable {
        let process = Process()
        let log = Pipe()
        let lock = NSLock()
        var collected = ""
        var port = 0
        /// Everything the server logged so far. The pipe is drained all along: a server whose
        /// log pipe fills up blocks on its next log line.
        var output: String {
            lock.lock()
            defer { lock.unlock() }
            return collected
        }

        init(store: String, uploads: String, jobs: Int = 1) throws {
            process.executableURL = TestServer.executable
            process.arguments = ["serve", "--listen", "127.0.0.1:0", "--store", store, "--uploads", uploads, "--jobs", "\(jobs)",
                                 "--timeout", "60", "--insecure-cookies"]
            process.standardError = log
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let end = Date().addingTimeInterval(60)
            while port == 0 && Date() < end {
                let chunk = log.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                collected += String(decoding: chunk, as: UTF8.self)
                if let r = collected.range(of: #"listening on http://127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                    port = Int(collected[r].split(separator: ":").last ?? "") ?? 0
                }
            }
            guard port > 0 else { throw XCTSkip("the server did not start: \(collected)") }
            log.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let chunk = handle.availableData
                guard let self, !chunk.isEmpty else { handle.readabilityHandler = nil; return }
                self.lock.lock()
                self.collected += String(decoding: chunk, as: UTF8.self)
                self.lock.unlock()
            }
        }

        func stop() -> Int32 {
            process.interrupt() // SIGINT; SIGTERM below if it lingers
            let end = Date().addingTimeInterval(30)
            while process.isRunning && Date() < end { usleep(50_000) }
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            return process.terminationStatus
        }

        func request(_ method: String, _ path: String, token: String?, body: Data? = nil,
                     contentType: String? = nil) throws -> (status: Int, body: Data, headers: [String: String]) {
            var r = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
            r.httpMethod = method
            r.httpBody = body
            if let token { r.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
            if let contentType { r.setValue(contentType, forHTTPHeaderField: "Content-Type") }
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var result: (Int, Data, [String: String])?
            nonisolated(unsafe) var failure: Error?
            URLSession.shared.dataTask(with: r) { data, response, error in
                if let http = response as? HTTPURLResponse {
                    var h: [String: String] = [:]
                    for (k, v) in http.allHeaderFields { h["\(k)".lowercased()] = "\(v)" }
                    result = (http.statusCode, data ?? Data(), h)
                } else {
                    failure = error
                }
                done.signal()
            }.resume()
            done.wait()
            if let result { return result }
            throw failure ?? URLError(.unknown)
        }
    }

    func testUploadScanReportStopAndRestart() throws {
        #if !Server
        throw XCTSkip("built without the Server trait: `swift test --traits Server` runs the HTTP tests (.ci/run does)")
        #else
        let folder = try Scratch.folder("http")
        let store = folder.appendingPathComponent("server.sqlite").path, uploads = folder.appendingPathComponent("uploads").path
        let admin = try TokenStore(store: SQLiteStore(path: store)).create(name: "test", role: .admin).secret
        var server = try Server(store: store, uploads: uploads)

        XCTAssertEqual(try server.request("GET", "/healthz", token: nil).status, 200)
        XCTAssertEqual(try server.request("GET", "/api/v1/apps", token: nil).status, 401)
        XCTAssertEqual(try server.request("GET", "/api/v1/apps", token: "pfs_nope").status, 401)
        let (type, body) = ServerFixtures.multipart(try ServerFixtures.ipa(), name: "../../Served.ipa")
        let created = try server.request("POST", "/api/v1/uploads", token: admin, body: Data(body), contentType: type)
        XCTAssertEqual(created.status, 202, String(decoding: created.body, as: UTF8.self))
        let id = try XCTUnwrap((try JSONSerialization.jsonObject(with: created.body) as? [String: Any])?["id"] as? Int)
        func status(_ id: Int) throws -> String {
            let r = try server.request("GET", "/api/v1/uploads/\(id)", token: admin)
            return (try JSONSerialization.jsonObject(with: r.body) as? [String: Any])?["status"] as? String ?? "?"
        }
        let end = Date().addingTimeInterval(90)
        while try status(id) != "done" && Date() < end { usleep(200_000) }
        XCTAssertEqual(try status(id), "done")
        let report = try server.request("GET", "/api/v1/uploads/\(id)/report?format=sarif", token: admin)
        XCTAssertEqual(report.status, 200)
        XCTAssertEqual(report.headers["content-type"], "application/sarif+json")
        XCTAssertEqual(report.headers["x-content-type-options"], "nosniff")
        let notZip = try server.request("POST", "/api/v1/uploads", token: admin, body: Data(repeating: 0, count: 10),
                                        contentType: "application/octet-stream")
        XCTAssertEqual(notZip.status, 400)

        // Stopped, then a second upload accepted by a server whose queue cannot run (no
        // scan yet), then a restart: the queued upload is scanned exactly once.
        XCTAssertEqual(server.stop(), 0, server.output)
        let v2 = try ServerFixtures.ipa(version: "2.0")
        let u = try UploadStore(root: uploads, maxBytes: 1 << 30)
        let w = try u.writer()
        try w.write(v2[...])
        let stored = try w.commit()
        let db = try SQLiteStore(path: store)
        try db.write([FleetStatement("INSERT INTO server_uploads (sha256, size, file_name, stored_path, uploaded_at) VALUES (?, ?, 'v2.ipa', ?, '2026-01-01')",
                                     [.text(stored.sha256), .int(Int64(stored.size)), .text(stored.path)])])
        server = try Server(store: store, uploads: uploads)
        let end2 = Date().addingTimeInterval(90)
        while try status(2) != "done" && Date() < end2 { usleep(200_000) }
        XCTAssertEqual(try status(2), "done")
        XCTAssertEqual(try db.rows("SELECT COUNT(*) FROM scans WHERE status = 'done'", []).first?.first ?? nil, "2")
        XCTAssertEqual(server.stop(), 0)
        #endif
    }


    /// PostgreSQL unavailable for a while under a running server (every connection dropped and
    /// new ones refused by a proxy in front of the real database): requests fail at once with
    /// 503 and say why, liveness stays up, nothing crashes; once the database answers again the
    /// server reconnects by itself, accepts uploads, and its queue scans them.
    func testTheStoreUnavailableForAWhileFailsRequestsCleanlyAndWorkResumes() throws {
        #if !Server || !PostgreSQL
        throw XCTSkip("needs the Server and PostgreSQL traits (.ci/run: swift test --traits PostgreSQL,Server)")
        #else
        guard let url = ProcessInfo.processInfo.environment["PREFLIGHT_TEST_POSTGRES_URL"], var parts = URLComponents(string: url),
              let host = parts.host, let port = parts.port else {
            throw XCTSkip("PREFLIGHT_TEST_POSTGRES_URL is not set (.ci/run starts a PostgreSQL server on loopback)")
        }
        let proxy = try TCPProxy(forwardingTo: host == "localhost" ? "127.0.0.1" : host, port: UInt16(port))
        defer { proxy.stop() }
        parts.port = Int(proxy.port)
        let proxied = try XCTUnwrap(parts.string)
        let setup = try FleetStores.open(url)
        _ = try setup.rows("""
            DROP TABLE IF EXISTS server_audit, server_uploads, server_sessions, server_tokens, ats_policies, domains, frameworks,
            entitlements, permissions, finding_evidence, findings, bundles, scans, fleet_migrations CASCADE
            """)
        setup.close()
        let tokenStore = try FleetStores.open(url)
        let admin = try TokenStore(store: tokenStore).create(name: "outage", role: .admin).secret
        tokenStore.close()
        let uploads = try Scratch.folder("outage").appendingPathComponent("uploads").path
        let server = try Server(store: proxied, uploads: uploads)
        defer { _ = server.stop() }

        func upload(_ version: String) throws -> (status: Int, id: Int?, body: String) {
            let (type, body) = ServerFixtures.multipart(try ServerFixtures.ipa(version: version), name: "Outage-\(version).ipa")
            let r = try server.request("POST", "/api/v1/uploads", token: admin, body: Data(body), contentType: type)
            let id = (try? JSONSerialization.jsonObject(with: r.body) as? [String: Any])?["id"] as? Int
            return (r.status, id, String(decoding: r.body, as: UTF8.self))
        }
        func waitUntilScanned(_ id: Int) throws -> String {
            let end = Date().addingTimeInterval(90)
            var status = "?"
            while Date() < end {
                let r = try server.request("GET", "/api/v1/uploads/\(id)", token: admin)
                status = (try? JSONSerialization.jsonObject(with: r.body) as? [String: Any])?["status"] as? String ?? "?"
                if status == "done" || status == "failed" { break }
                usleep(200_000)
            }
            return status
        }

        let first = try upload("1.0")
        XCTAssertEqual(first.status, 202, first.body)
        XCTAssertEqual(try waitUntilScanned(try XCTUnwrap(first.id)), "done")

        proxy.cut()
        let started = Date()
        let list = try server.request("GET", "/api/v1/uploads", token: admin)
        XCTAssertEqual(list.status, 503, String(decoding: list.body, as: UTF8.self))
        XCTAssertTrue(String(decoding: list.body, as: UTF8.self).contains("store is unavailable"), String(decoding: list.body, as: UTF8.self))
        XCTAssertEqual(try upload("2.0").status, 503)
        XCTAssertEqual(try server.request("GET", "/readyz", token: nil).status, 503)
        XCTAssertEqual(try server.request("GET", "/healthz", token: nil).status, 200)
        XCTAssertLessThan(Date().timeIntervalSince(started), 20, "requests during the outage must fail, not hang")
        sleep(2)
        XCTAssertTrue(server.process.isRunning, server.output)

        proxy.restore()
        let end = Date().addingTimeInterval(30)
        var back = 0
        while Date() < end {
            back = try server.request("GET", "/api/v1/uploads", token: admin).status
            if back == 200 { break }
            usleep(250_000)
        }
        XCTAssertEqual(back, 200, "the server did not reconnect: \(server.output)")
        XCTAssertEqual(try server.request("GET", "/readyz", token: nil).status, 200)
        let second = try upload("2.0")
        XCTAssertEqual(second.status, 202, second.body)
        XCTAssertEqual(try waitUntilScanned(try XCTUnwrap(second.id)), "done", server.output)
        #endif
    }

    /// The web interface in headless Chromium, driven over the DevTools protocol by
    /// `Browser/drive.py`: sign in, upload two versions through the form, wait for the scans,
    /// open the report, the apps page and the diff, sign out, sign in as a reader and be
    /// refused an upload. Screenshots go to a scratch folder (printed) for a person to look at.
    func testBrowserSignInUploadReportDiffSignOutAndForbiddenAction() throws {
        #if !Server
        throw XCTSkip("built without the Server trait: `swift test --traits Server` runs the browser test (.ci/run does)")
        #else
        guard let browser = BuiltProducts.chromium() else {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("CI installs chromium (.ci/run)") }
            throw XCTSkip("chromium is not installed (Debian: apt-get install chromium)")
        }
        let folder = try Scratch.folder("browser")
        let store = folder.appendingPathComponent("server.sqlite").path, uploads = folder.appendingPathComponent("uploads").path
        let tokens = try TokenStore(store: SQLiteStore(path: store))
        let admin = try tokens.create(name: "browser admin", role: .admin).secret
        let reader = try tokens.create(name: "browser reader", role: .reader).secret
        let v1 = folder.appendingPathComponent("Served-1.0.ipa"), v2 = folder.appendingPathComponent("Served-2.0.ipa")
        try Data(try ServerFixtures.ipa(extraPlist: "<key>NSAppTransportSecurity</key><dict><key>NSAllowsArbitraryLoads</key><true/></dict>")).write(to: v1)
        try Data(try ServerFixtures.ipa(version: "2.0", extraPlist: "<key>NSCameraUsageDescription</key><string>Scan the code on your ticket.</string>")).write(to: v2)
        let shots = try Scratch.folder("screenshots")
        let server = try Server(store: store, uploads: uploads)
        defer { _ = server.stop() }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Browser/drive.py")
        let (status, output) = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"),
                                                  ["python3", script.path, browser, "http://127.0.0.1:\(server.port)", admin, reader,
                                                   v1.path, v2.path, shots.path])
        print("screenshots: \(shots.path)")
        let json = output.firstIndex(of: "{").map { String(output[$0...]) } ?? ""
        let checks = ((try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any])?["checks"] as? [[Any]] ?? []
        XCTAssertGreaterThanOrEqual(checks.count, 12, output)
        for c in checks where (c[1] as? Bool) != true { XCTFail("browser: \(c[0]) — \(c[2])") }
        XCTAssertEqual(status, 0, output)
        #endif
    }
}
