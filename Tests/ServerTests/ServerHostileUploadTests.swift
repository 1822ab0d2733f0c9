import Fleet
import Foundation
import PreflightServer
import TestSupport
import XCTest

/// Hostile archives over the API, scanned by the real worker processes: each upload gets a
/// verdict (a report naming the problem, or a failed scan with its reason), the workers stay
/// within the scan's memory limits, nothing is written outside the upload folder, and the
/// server keeps answering. The byte-level cases mirror the command-line hostile-input suite
/// (`HostileInputTests`), built with the same lying ZIP writer.
final class ServerHostileUploadTests: XCTestCase {
    static let app = "Payload/Demo.app/"

    static var executable: Data {
        (try? Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/MachO/App"))) ?? Data()
    }

    static func infoPlist(_ identifier: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>CFBundleIdentifier</key><string>\(identifier)</string><key>CFBundleExecutable</key><string>Demo</string>
        <key>CFBundleShortVersionString</key><string>1.0</string><key>CFBundleVersion</key><string>1</string>
        </dict></plist>
        """
    }

    /// An app whose executable entry `change` makes hostile.
    static func app(_ identifier: String, executable change: (inout ZipWriter) throws -> Void) rethrows -> [UInt8] {
        var z = ZipWriter()
        z.add(app + "Info.plist", infoPlist(identifier))
        try change(&z)
        return Array(z.build())
    }

    static var cases: [(name: String, bytes: [UInt8])] {
        get throws {
            let laughs: String = {
                var doctype = "<!DOCTYPE plist [\n<!ENTITY l0 \"lol\">\n"
                for i in 1...9 { doctype += "<!ENTITY l\(i) \"" + String(repeating: "&l\(i - 1);", count: 10) + "\">\n" }
                return "<?xml version=\"1.0\"?>\n" + doctype + "]>\n<plist version=\"1.0\"><dict><key>CFBundleIdentifier</key><string>&l9;</string></dict></plist>"
            }()
            var laughsZip = ZipWriter()
            laughsZip.add(app + "Info.plist", laughs)
            laughsZip.add(app + "Demo", data: executable)
            var nested = ZipWriter()
            try nested.addZeroBomb("Payload/Inner.app/Inner", zeros: 50_000_000)
            let truncated = Array(try app("com.example.truncated") { z in
                z.add(app + "Demo", data: executable)
            }.dropLast(30))
            return [
                ("deflate bomb: 100 MB of zeros as the executable", try app("com.example.bomb") { try $0.addZeroBomb(app + "Demo", zeros: 100_000_000) }),
                ("ZIP64 extra field declaring 2^62 bytes", try app("com.example.zip64") { z in
                    try z.addDeflated(app + "Demo", data: executable)
                    z.modifyLast { $0.zip64Extra = true; $0.declaredUncompressed = 1 << 62 }
                }),
                ("stored entry declaring more bytes than it stores", app("com.example.lying") { z in
                    z.add(app + "Demo", data: executable)
                    z.modifyLast { $0.declaredUncompressed = 1_000_000 }
                }),
                ("corrupt deflate stream", try app("com.example.corrupt") { z in
                    try z.addDeflated(app + "Demo", data: executable)
                    z.modifyLast { $0.stored = Data(repeating: 0xFF, count: $0.stored.count) }
                }),
                ("unsupported compression method 99", app("com.example.method") { z in
                    z.add(app + "Demo", data: executable)
                    z.modifyLast { $0.method = 99 }
                }),
                ("entry names climbing out of the archive", app("com.example.traversal") { z in
                    z.add(app + "Demo", data: executable)
                    z.add("Payload/../../../../../tmp/preflight-escape.txt", "escaped")
                    z.add("/tmp/preflight-absolute.txt", "escaped")
                }),
                ("symbolic link to a file outside the bundle", app("com.example.symlink") { z in
                    z.add(app + "Demo", data: executable)
                    z.addSymlink(app + "secrets", target: "/etc/passwd")
                }),
                ("nested .ipa bomb inside the app", app("com.example.nested") { z in
                    z.add(app + "Demo", data: executable)
                    z.add(app + "Inner.ipa", data: nested.build())
                }),
                ("billion laughs Info.plist", Array(laughsZip.build())),
                ("archive cut short (no central directory end)", truncated),
            ]
        }
    }

    func testHostileArchivesUploadedOverTheAPIEachGetAVerdict() async throws {
        guard FileManager.default.isExecutableFile(atPath: TestServer.executable.path) else {
            throw XCTSkip("the preflight executable is not built beside the tests")
        }
        let server = try TestServer(maxUploadBytes: 64 << 20, scanning: true)
        var outcomes: [String] = []
        for (name, bytes) in try Self.cases {
            let (type, body) = ServerFixtures.multipart(bytes, name: "../../\(name).ipa")
            let created = await server.request("POST", "/api/v1/uploads", role: .uploader,
                                               headers: ["Content-Type": type, "Content-Length": "\(body.count)"], body: body)
            XCTAssertEqual(created.status, 202, "\(name): \(created.bodyText)")
            guard let id = server.json(created)["id"] as? Int else { continue }
            let doc = try await server.waitForScan(Int64(id), timeout: 120)
            let status = doc["status"] as? String ?? "?"
            let report = await server.request("GET", "/api/v1/uploads/\(id)/report", role: .reader)
            switch status {
            case "done":
                XCTAssertEqual(report.status, 200, name)
                let findings = (server.json(report)["findings"] as? [[String: Any]]) ?? []
                let rules = Set(findings.compactMap { $0["rule"] as? String })
                XCTAssertFalse(rules.isEmpty, "\(name): a report with no finding for a hostile archive")
                outcomes.append("\(name): done, \(rules.sorted().joined(separator: ", "))")
            case "failed":
                XCTAssertEqual(report.status, 422, name)
                XCTAssertFalse((doc["error"] as? String ?? "").isEmpty, "\(name): a failed scan says why")
                outcomes.append("\(name): failed, \(doc["error"] as? String ?? "")")
            default:
                XCTFail("\(name): no verdict (\(status))")
            }
        }
        print(outcomes.joined(separator: "\n"))
        for escaped in ["/tmp/preflight-escape.txt", "/tmp/preflight-absolute.txt"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: escaped), "\(escaped) was written")
        }
        let uploads = server.folder.appendingPathComponent("uploads")
        let tree = try FileManager.default.subpathsOfDirectory(atPath: uploads.path)
        let unexpected = tree.filter { !($0 == "objects" || $0 == "incoming" || $0.hasPrefix("objects/")) }
        XCTAssertEqual(unexpected, [], "only content-addressed objects in the upload folder")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: uploads.appendingPathComponent("incoming").path), [])
        let peak = try XCTUnwrap(server.queue?.snapshot.workerPeakKB)
        XCTAssertLessThan(peak, 1 << 20, "a scanning process's peak memory stays under 1 GiB (\(peak) KiB)")
        let health = await server.request("GET", "/healthz", role: nil).status
        XCTAssertEqual(health, 200)
    }

    /// `--retention-days`: uploads older than the cutoff go as a DELETE would (file, scan and
    /// report; the file stays while a newer upload has the same bytes), each in the audit log.
    func testRetentionDeletesOldUploadsAndKeepsFilesStillInUse() async throws {
        let server = try TestServer()
        func upload(_ bytes: [UInt8]) async throws -> Int64 {
            let (type, body) = ServerFixtures.multipart(bytes)
            let r = await server.request("POST", "/api/v1/uploads", role: .uploader, headers: ["Content-Type": type], body: body)
            XCTAssertEqual(r.status, 202, r.bodyText)
            return Int64(try XCTUnwrap(server.json(r)["id"] as? Int))
        }
        let v1 = try ServerFixtures.ipa(), v2 = try ServerFixtures.ipa(version: "2.0"), v3 = try ServerFixtures.ipa(version: "3.0")
        let old1 = try await upload(v1), old2 = try await upload(v2), recent2 = try await upload(v2), recent3 = try await upload(v3)
        try server.store.write([FleetStatement("UPDATE server_uploads SET uploaded_at = '2020-01-01T00:00:00.000Z' WHERE id IN (?, ?)",
                                               [.int(old1), .int(old2)])])
        let removed = try await server.api.sweepRetention(before: Date().addingTimeInterval(-30 * 86_400))
        XCTAssertEqual(removed, 2)
        for (id, expected) in [(old1, 404), (old2, 404), (recent2, 200), (recent3, 200)] {
            let status = await server.request("GET", "/api/v1/uploads/\(id)", role: .reader).status
            XCTAssertEqual(status, expected, "upload \(id)")
        }
        let objects = try FileManager.default.subpathsOfDirectory(atPath: server.folder.appendingPathComponent("uploads/objects").path)
            .filter { $0.hasSuffix(".ipa") }
        XCTAssertEqual(objects.count, 2, "version 1's file went; version 2's stays for the recent upload: \(objects)")
        let audit = try server.store.rows("SELECT COUNT(*) FROM server_audit WHERE action = 'retention: delete upload'", [])
        XCTAssertEqual(audit.first?.first ?? nil, "2")
        let again = try await server.api.sweepRetention(before: Date().addingTimeInterval(-30 * 86_400))
        XCTAssertEqual(again, 0)
    }
}
