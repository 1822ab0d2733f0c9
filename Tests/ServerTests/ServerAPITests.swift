import Fleet
import Foundation
import PreflightServer
import TestSupport
import XCTest

/// The API end to end in-process, with the real scan queue and worker processes: upload,
/// status, every report format, inspect, apps, diff, fleet queries, delete; uploads refused
/// for size, type and form.
final class ServerAPITests: XCTestCase {
    func upload(_ server: TestServer, _ bytes: [UInt8], name: String = "App.ipa") async -> ServerResponse {
        let (type, body) = ServerFixtures.multipart(bytes, name: name)
        return await server.request("POST", "/api/v1/uploads", role: .uploader,
                                    headers: ["Content-Type": type, "Content-Length": "\(body.count)"], body: body)
    }

    func testUploadIsScannedAndReportedInEveryFormat() async throws {
        guard FileManager.default.isExecutableFile(atPath: TestServer.executable.path) else {
            throw XCTSkip("the preflight executable is not built beside the tests")
        }
        try await uploadFlow(try TestServer(scanning: true))
    }

    /// The same on PostgreSQL (the store replicas share): `.ci/run` runs it with the trait and
    /// a server on loopback.
    func testUploadIsScannedAndReportedOnPostgreSQL() async throws {
        #if !PostgreSQL
        throw XCTSkip("built without the PostgreSQL trait: `swift test --traits PostgreSQL` runs it (.ci/run does)")
        #else
        guard let url = ProcessInfo.processInfo.environment["PREFLIGHT_TEST_POSTGRES_URL"], !url.isEmpty else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("PREFLIGHT_TEST_POSTGRES_URL is not set (.ci/run starts a server)") }
            throw XCTSkip("PREFLIGHT_TEST_POSTGRES_URL is not set (a PostgreSQL database these tests may empty)")
        }
        try await uploadFlow(try TestServer(scanning: true, postgres: url))
        #endif
    }

    func uploadFlow(_ server: TestServer) async throws {
        let ipa = try ServerFixtures.ipa(extraPlist: "<key>NSAppTransportSecurity</key><dict><key>NSAllowsArbitraryLoads</key><true/></dict>")
        let created = await upload(server, ipa, name: "../Served.ipa")
        XCTAssertEqual(created.status, 202, created.bodyText)
        let id = try XCTUnwrap(server.json(created)["id"] as? Int)
        XCTAssertEqual(created.header("Location"), "/api/v1/uploads/\(id)")
        XCTAssertEqual(server.json(created)["fileName"] as? String, "Served.ipa")
        let done = try await server.waitForScan(Int64(id))
        XCTAssertEqual(done["status"] as? String, "done", "\(done)")
        XCTAssertEqual(done["appIdentifier"] as? String, "com.example.served")

        let json = await server.request("GET", "/api/v1/uploads/\(id)/report", role: .reader)
        XCTAssertEqual(json.status, 200)
        XCTAssertTrue(json.bodyText.contains("ats_arbitrary_loads"), json.bodyText)
        for (format, marker) in [("sarif", "\"$schema\""), ("html", "<html"), ("markdown", "ats_arbitrary_loads"), ("junit", "<testsuites")] {
            let r = await server.request("GET", "/api/v1/uploads/\(id)/report?format=\(format)", role: .reader)
            XCTAssertEqual(r.status, 200, format)
            XCTAssertTrue(r.bodyText.contains(marker), "\(format): \(r.bodyText.prefix(300))")
        }
        let status1 = await server.request("GET", "/api/v1/uploads/\(id)/report?format=pdf", role: .reader).status
        XCTAssertEqual(status1, 400)

        let inventory = server.json(await server.request("GET", "/api/v1/uploads/\(id)/inspect", role: .reader))
        XCTAssertEqual((inventory["bundles"] as? [[String: Any]])?.first?["identifier"] as? String, "com.example.served")

        // The same bytes again: a second upload, one stored file, one scan.
        let again = await upload(server, ipa)
        let id2 = try XCTUnwrap(server.json(again)["id"] as? Int)
        XCTAssertEqual(server.json(again)["status"] as? String, "done", "same bytes, same scan")
        XCTAssertEqual(try server.store.rows("SELECT COUNT(*) FROM scans", []).first?.first ?? nil, "1")

        // A new version asking for the camera: the diff says so.
        let v2 = try ServerFixtures.ipa(version: "2.0", extraPlist: "<key>NSCameraUsageDescription</key><string>Scan the code on your ticket.</string>")
        let uploaded3 = await upload(server, v2)
        let id3 = try XCTUnwrap(server.json(uploaded3)["id"] as? Int)
        _ = try await server.waitForScan(Int64(id3))
        let diff = server.json(await server.request("GET", "/api/v1/diff?from=\(id)&to=\(id3)", role: .reader))
        XCTAssertEqual((diff["permissions"] as? [String: [String]])?["added"], ["NSCameraUsageDescription"], "\(diff)")
        XCTAssertEqual(diff["appIdentifierChanged"] as? Bool, false)
        let fixed = (diff["findings"] as? [String: [[String: Any]]])?["fixed"] ?? []
        XCTAssertTrue(fixed.contains { $0["rule"] as? String == "ats_arbitrary_loads" }, "\(diff)")

        let apps = server.json(await server.request("GET", "/api/v1/apps", role: .reader))
        let versions = ((apps["apps"] as? [[String: Any]])?.first?["versions"] as? [[String: Any]]) ?? []
        XCTAssertEqual(Set(versions.compactMap { $0["version"] as? String }), ["1.0", "2.0"])
        let permissions = server.json(await server.request("GET", "/api/v1/fleet/permissions?key=NSCameraUsageDescription", role: .reader))
        XCTAssertEqual((permissions["rows"] as? [[String: Any]])?.first?["apps"] as? Int, 1, "latest scan per app: \(permissions)")
        let status2 = await server.request("GET", "/api/v1/fleet/permissions?evil=1", role: .reader).status
        XCTAssertEqual(status2, 400)

        // Delete: the first two uploads share the bytes; the file goes with the last of them.
        let status3 = await server.request("DELETE", "/api/v1/uploads/\(id)", role: .admin).status
        XCTAssertEqual(status3, 204)
        let stored = server.json(await server.request("GET", "/api/v1/uploads/\(id2)", role: .reader))
        XCTAssertEqual(stored["status"] as? String, "done")
        let status4 = await server.request("DELETE", "/api/v1/uploads/\(id2)", role: .admin).status
        XCTAssertEqual(status4, 204)
        let status5 = await server.request("GET", "/api/v1/uploads/\(id2)", role: .reader).status
        XCTAssertEqual(status5, 404)
        let files = try FileManager.default.subpathsOfDirectory(atPath: server.folder.appendingPathComponent("uploads/objects").path)
        XCTAssertEqual(files.filter { $0.hasSuffix(".ipa") }.count, 1, "only version 2's file is left: \(files)")
    }

    func testAHostileArchiveIsAcceptedAndItsScanFailsWithAReason() async throws {
        guard FileManager.default.isExecutableFile(atPath: TestServer.executable.path) else {
            throw XCTSkip("the preflight executable is not built beside the tests")
        }
        let server = try TestServer(scanning: true)
        // A ZIP whose end record is missing: it starts like an .ipa and is not one.
        let broken = Array("PK\u{3}\u{4}".utf8) + Array(repeating: 0, count: 200)
        let created = await upload(server, broken)
        XCTAssertEqual(created.status, 202)
        let id = try XCTUnwrap(server.json(created)["id"] as? Int)
        let done = try await server.waitForScan(Int64(id))
        XCTAssertEqual(done["status"] as? String, "failed")
        XCTAssertFalse((done["error"] as? String ?? "").isEmpty)
        let status6 = await server.request("GET", "/api/v1/uploads/\(id)/report", role: .reader).status
        XCTAssertEqual(status6, 422)
    }

    /// Fault: the first scanning process is killed with SIGKILL while the scan is claimed and
    /// sent to it; the attempt fails, a new process scans the upload, and it ends done.
    func testAWorkerKilledHoldingAScanIsRetriedAndTheScanFinishes() async throws {
        guard FileManager.default.isExecutableFile(atPath: TestServer.executable.path) else {
            throw XCTSkip("the preflight executable is not built beside the tests")
        }
        let dir = try Scratch.folder("killer")
        let marker = dir.appendingPathComponent("killed").path, wrapper = dir.appendingPathComponent("worker.sh")
        // The first worker is killed as it starts, with the scan claimed and sent to it.
        try Data("""
            #!/bin/sh
            if [ ! -e '\(marker)' ]; then touch '\(marker)'; kill -9 $$; fi
            exec '\(TestServer.executable.path)' "$@"
            """.utf8).write(to: wrapper)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)
        let server = try TestServer(scanning: true, workerExecutable: wrapper.path)
        let created = await upload(server, try ServerFixtures.ipa())
        let id = try XCTUnwrap(server.json(created)["id"] as? Int)
        let done = try await server.waitForScan(Int64(id))
        XCTAssertTrue(FileManager.default.fileExists(atPath: marker), "the first worker was started and killed")
        XCTAssertEqual(done["status"] as? String, "done", "\(done)")
        let attempts = try server.store.rows("SELECT attempts FROM scans", []).first?.first ?? nil
        XCTAssertEqual(attempts, "2", "one failed attempt, one that finished")
    }

    func testUploadsRefusedEarlyAndNothingWrittenOutsideTheUploadFolder() async throws {
        let server = try TestServer(maxUploadBytes: 4096)
        // Declared too large: refused from the header, before reading the body.
        let declared = await server.request("POST", "/api/v1/uploads", role: .uploader,
                                            headers: ["Content-Type": "application/octet-stream", "Content-Length": "999999999"])
        XCTAssertEqual(declared.status, 413)
        // Larger than it says: refused while streaming.
        let big = await server.request("POST", "/api/v1/uploads?name=big.ipa", role: .uploader,
                                       headers: ["Content-Type": "application/octet-stream"],
                                       body: Array("PK\u{3}\u{4}".utf8) + Array(repeating: 1, count: 10_000))
        XCTAssertEqual(big.status, 413)
        let notZip = await server.request("POST", "/api/v1/uploads", role: .uploader,
                                          headers: ["Content-Type": "application/octet-stream"], body: Array("hello".utf8))
        XCTAssertEqual(notZip.status, 400)
        XCTAssertTrue(notZip.bodyText.contains("not an .ipa"))
        let json = await server.request("POST", "/api/v1/uploads", role: .uploader, headers: ["Content-Type": "application/json"],
                                        body: Array("{}".utf8))
        XCTAssertEqual(json.status, 415)
        let malformed = await server.request("POST", "/api/v1/uploads", role: .uploader,
                                             headers: ["Content-Type": "multipart/form-data; boundary=B"], body: Array("--B\r\nnope".utf8))
        XCTAssertEqual(malformed.status, 400)
        let traversal = await upload(server, Array("PK\u{3}\u{4}abc".utf8), name: "../../../../tmp/evil.ipa")
        XCTAssertEqual(traversal.status, 202)
        XCTAssertEqual(server.json(traversal)["fileName"] as? String, "evil.ipa")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/tmp/evil.ipa"))
        let incoming = try FileManager.default.contentsOfDirectory(atPath: server.folder.appendingPathComponent("uploads/incoming").path)
        XCTAssertEqual(incoming, [], "refused uploads leave no partial file")
        XCTAssertEqual(try server.store.rows("SELECT COUNT(*) FROM server_uploads", []).first?.first ?? nil, "1")
    }

    func testReadinessAndMetrics() async throws {
        let server = try TestServer()
        let status7 = await server.request("GET", "/healthz", role: nil).status
        XCTAssertEqual(status7, 200)
        let status8 = await server.request("GET", "/readyz", role: nil).status
        XCTAssertEqual(status8, 200)
        _ = await server.request("GET", "/api/v1/apps", role: .reader)
        let metrics = await server.request("GET", "/metrics", role: .reader)
        XCTAssertEqual(metrics.status, 200)
        XCTAssertTrue(metrics.bodyText.contains("preflight_http_requests_total{operation=\"listApps\",status=\"200\"} 1"), metrics.bodyText)
        XCTAssertTrue(metrics.bodyText.contains("preflight_http_request_duration_seconds_count"))
    }
}
