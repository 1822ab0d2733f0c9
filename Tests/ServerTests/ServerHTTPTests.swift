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
    final class Server {
        let process = Process()
        let log = Pipe()
        var output = ""
        var port = 0

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
                output += String(decoding: chunk, as: UTF8.self)
                if let r = output.range(of: #"listening on http://127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                    port = Int(output[r].split(separator: ":").last ?? "") ?? 0
                }
            }
            guard port > 0 else { throw XCTSkip("the server did not start: \(output)") }
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
