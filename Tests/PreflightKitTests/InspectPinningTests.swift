import XCTest
import Foundation

/// `preflight inspect` shows certificate pinning the code implements, as a positive fact
/// (text and JSON), never as a finding.
final class InspectPinningTests: XCTestCase {
    func write(_ files: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("preflight-pinning-\(UUID().uuidString)")
        for (path, text) in files {
            let url = dir.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return dir
    }

    static let info = "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>CFBundleIdentifier</key><string>com.acme.app</string></dict></plist>"

    func testDelegatePinningAndAlamofireAreShown() throws {
        let dir = try write(["App/Info.plist": Self.info,
                             "App/Pinning.swift": """
                             import Foundation
                             final class Pinner: NSObject, URLSessionDelegate {
                                 func urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge,
                                                 completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
                                     guard let trust = challenge.protectionSpace.serverTrust,
                                           let key = SecTrustCopyKey(trust), key == pinnedKey else { return completionHandler(.cancelAuthenticationChallenge, nil) }
                                     completionHandler(.useCredential, URLCredential(trust: trust))
                                 }
                             }
                             """,
                             "App/API.swift": "import Alamofire\nlet manager = ServerTrustManager(evaluators: [\"api.acme.com\": PublicKeysTrustEvaluator()])\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = try CLITests.run(["inspect", dir.path])
        XCTAssertTrue(text.stdout.contains("certificate pinning: URLSession challenge handling (App/Pinning.swift)"), text.stdout)
        XCTAssertTrue(text.stdout.contains("certificate pinning: Alamofire ServerTrustManager (App/API.swift)"), text.stdout)
        let json = try CLITests.run(["inspect", dir.path, "--format", "json"])
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let pins = try XCTUnwrap((doc["bundles"] as? [[String: Any]])?.first?["certificatePinning"] as? [[String: String]])
        XCTAssertEqual(Set(pins.map { $0["kind"] ?? "" }), ["URLSession challenge handling", "Alamofire ServerTrustManager"])
        let scan = try CLITests.run(["scan", dir.path, "--format", "json"])
        XCTAssertFalse(scan.stdout.contains("certificatePinning") || scan.stdout.contains("certificate pinning"), "a positive fact, not a finding")
    }

    /// Accepting any certificate is the opposite of pinning; a pinning library's own sources
    /// name its modes whether or not the app uses them.
    func testAcceptingEveryCertificateIsNotPinning() throws {
        let dir = try write(["App/Info.plist": Self.info,
                             "App/Trust.swift": """
                             import Foundation
                             final class AcceptAll: NSObject, URLSessionDelegate {
                                 func urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge,
                                                 completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
                                     completionHandler(.useCredential, URLCredential(trust: challenge.protectionSpace.serverTrust!))
                                 }
                             }
                             """,
                             "App/Pods/AFNetworking/AFNetworking/AFHTTPSessionManager.m": "// AFSSLPinningModeCertificate, AFSSLPinningModePublicKey\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = try CLITests.run(["inspect", dir.path])
        XCTAssertFalse(text.stdout.contains("certificate pinning"), text.stdout)
    }
}
