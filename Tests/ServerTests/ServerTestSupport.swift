import Fleet
import Foundation
import PreflightServer
import TestSupport
import XCTest

/// A server core on a fresh SQLite store and upload folder, with one token per role.
final class TestServer {
    let folder: URL
    let storePath: String
    let store: any FleetStore
    let api: ServerAPI
    var queue: ScanQueue?
    var secrets: [ServerRole: String] = [:]
    static let versions = ServerQueries.ScanVersions(preflight: "test", ruleset: "r", config: "c")

    /// `postgres`: a database URL the test may empty (the fleet tables are dropped first).
    init(maxUploadBytes: Int = 1 << 20, requestsPerMinute: Int = 10_000, scanning: Bool = false, postgres: String? = nil,
         workerExecutable: String? = nil) throws {
        folder = try Scratch.folder("server")
        if let postgres {
            let admin = try FleetStores.open(postgres)
            _ = try admin.rows("""
                DROP TABLE IF EXISTS server_audit, server_uploads, server_sessions, server_tokens, ats_policies, domains, frameworks,
                entitlements, permissions, finding_evidence, findings, bundles, scans, fleet_migrations CASCADE
                """)
            admin.close()
            storePath = postgres
            store = try FleetStores.open(postgres)
        } else {
            storePath = folder.appendingPathComponent("fleet.sqlite").path
            store = try SQLiteStore(path: storePath)
        }
        var settings = ServerAPI.Settings()
        settings.maxUploadBytes = maxUploadBytes
        settings.requestsPerMinute = requestsPerMinute
        settings.secureCookies = false
        let uploads = try UploadStore(root: folder.appendingPathComponent("uploads").path, maxBytes: maxUploadBytes)
        var queue: ScanQueue?
        if scanning {
            let path = storePath
            let options = BatchOptions(executable: workerExecutable ?? Self.executable.path, workerArguments: ["batch", "worker"], jobs: 1, timeout: 60,
                                       policy: ClaimPolicy(maxAttempts: 2, leaseSeconds: 30, retryFailed: false),
                                       preflightVersion: Self.versions.preflight, rulesetVersion: Self.versions.ruleset,
                                       configHash: Self.versions.config)
            queue = ScanQueue(openStore: { try FleetStores.open(path) }, options: options, versions: Self.versions, log: { _ in })
        }
        self.queue = queue
        api = ServerAPI(store: store, uploads: uploads, versions: Self.versions, settings: settings,
                        onUpload: { [queue] in queue?.wake() }, log: { _ in })
        let tokens = TokenStore(store: store)
        for role in ServerRole.allCases { secrets[role] = try tokens.create(name: "test \(role.rawValue)", role: role).secret }
        queue?.start()
    }

    deinit {
        queue?.stop()
        store.close()
    }

    /// The `preflight` executable of this build (the workers run it).
    static var executable: URL {
        BuiltProducts.preflight(fallback: URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("preflight"))
    }

    func request(_ method: String, _ target: String, role: ServerRole?, headers: [String: String] = [:],
                 body: [UInt8] = []) async -> ServerResponse {
        let (path, query) = ServerRequest.splitTarget(target)
        var h = headers
        if let role, let s = secrets[role] { h["Authorization"] = "Bearer \(s)" }
        return await api.handle(ServerRequest(method: method, path: path, query: query, headers: h, body: ServerBody(bytes: body)))
    }

    func json(_ r: ServerResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(r.bodyText.utf8))) as? [String: Any] ?? [:]
    }

    /// Waits until an upload's scan is done or failed.
    func waitForScan(_ id: Int64, timeout: Double = 90) async throws -> [String: Any] {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            let doc = json(await request("GET", "/api/v1/uploads/\(id)", role: .reader))
            if let s = doc["status"] as? String, s == "done" || s == "failed" { return doc }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        throw XCTSkip("upload \(id) was not scanned within \(timeout) s")
    }
}

enum ServerFixtures {
    /// A small valid `.ipa`: an app with an Info.plist and a real iOS executable.
    static func ipa(identifier: String = "com.example.served", version: String = "1.0", extraPlist: String = "") throws -> [UInt8] {
        var zip = ZipWriter()
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>CFBundleIdentifier</key><string>\(identifier)</string>
            <key>CFBundleExecutable</key><string>Served</string>
            <key>CFBundleName</key><string>Served</string>
            <key>CFBundlePackageType</key><string>APPL</string>
            <key>CFBundleShortVersionString</key><string>\(version)</string><key>CFBundleVersion</key><string>1</string>
            \(extraPlist)
            </dict></plist>
            """
        zip.add("Payload/Served.app/Info.plist", plist)
        let binary = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/MachO/App")
        zip.add("Payload/Served.app/Served", data: try Data(contentsOf: binary))
        return Array(zip.build())
    }

    static func multipart(_ file: [UInt8], name: String = "App.ipa", boundary: String = "XyZ-boundary-123",
                          field: String = "file") -> (contentType: String, body: [UInt8]) {
        var body = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n".utf8)
        body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field)\"; filename=\"\(name)\"\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)
        body += file
        body += Array("\r\n--\(boundary)--\r\n".utf8)
        return ("multipart/form-data; boundary=\(boundary)", body)
    }
}
