import XCTest
import Foundation
import TestSupport
import PreflightKit

/// Secrets are masked in the finding itself, so no output format can print them: an `.ipa`
/// with one secret of every kind (resources and a binary's C strings) is rendered in every
/// registered format and each output is searched for every secret and for any run of eight
/// characters of one.
final class SecretMaskingTests: XCTestCase {
    static let machO = CLITests.packageRoot.appendingPathComponent("Tests/Fixtures/MachO")

    /// Made-up values of the right shape, assembled at run time.
    static let resourceSecrets: [String: String] = [
        "stripe": "sk_" + "live_" + "KLzdocJ2isAjIhKtJ0RlgLKO",
        "aws": "AK" + "IAQ3EGRJ2XK7LDPZ5M",
        "sendgrid": "SG." + "abcdEFGHijklMNOPqrstUV" + "." + "0123456789abcdefghijABCDEFGHIJklmnopqrstuvw",
        "google": "AI" + "zayVmihA-2O76UMFxFkM-R5Kjp1vRt_1fjORS",
        "webhook": "https://hooks.slack.com/services/" + "T0123ABCD/B0456EFGH/" + "q8Xz3LmN7pR2sT5vW9yA1bC4",
    ]
    /// In the `Secrets` fixture's C strings.
    static let binarySecrets = ["gh" + "p_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d", "xo" + "xb-97971147104-974650752917-dnXsiVpzz63FfkCzJr4i0B3J",
                                "Vb7Tn2Qw" + "9Lk4Xs8Rm3Jd6Hf1"]
    static let pemBody = "MIIBVQIBADANBgkqhkiG9w0BAQEFAASCAT8wggE7AgEAAkEA0Z3VS5JJcds3xfn" + "ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB4mtCGb8P0PzH3WH1zSdYCE4S3hk6S"

    func ipa() throws -> URL {
        var z = ZipWriter()
        let prefix = "Payload/Demo.app/"
        z.add(prefix + "Info.plist", ReadinessIPATests.info("Demo", id: "com.example.demo"))
        z.add(prefix + "Demo", data: try Data(contentsOf: Self.machO.appendingPathComponent("Secrets")))
        let json = Self.resourceSecrets.sorted { $0.key < $1.key }.map { "  \"\($0.key)\": \"\($0.value)\"" }.joined(separator: ",\n")
        z.add(prefix + "config.json", "{\n\(json)\n}\n")
        z.add(prefix + "keys/server.pem", "-----BEGIN RSA PRIVATE KEY-----\n\(Self.pemBody)\n-----END RSA PRIVATE KEY-----\n")
        z.add(prefix + "GoogleService-Info.plist", ReadinessIPATests.info("x", id: "x", extra: "<key>API_KEY</key><string>\(Self.resourceSecrets["google"]!)</string>"))
        return try z.write(name: "Secrets.ipa")
    }

    func testEveryKindIsFoundWithItsSeverity() throws {
        let findings = try PreflightScanner.scan(try ipa().path).findings.filter { $0.rule == "shipped_secret" }
        let bySeverity = Dictionary(grouping: findings, by: \.severity).mapValues { $0.map(\.message).sorted() }
        XCTAssertEqual(findings.count, 9, "\(findings.map(\.message))")
        XCTAssertEqual(bySeverity[.error]?.count, 6, "Stripe live, SendGrid, Slack webhook, PEM key, GitHub and Slack tokens: \(bySeverity)")
        XCTAssertEqual(bySeverity[.warning]?.count, 2, "the AWS access key ID and PAYMENT_API_KEY's value")
        XCTAssertEqual(bySeverity[.note]?.count, 1, "the Google API key in config.json, not the one of GoogleService-Info.plist")
        XCTAssertTrue(findings.contains { $0.file == "Payload/Demo.app/config.json" && $0.line == 3 })
        XCTAssertTrue(findings.contains { $0.file == "Payload/Demo.app/Demo" && $0.message.contains("ghp_…8d (40 characters)") })
        XCTAssertTrue(findings.contains { $0.message.contains("PAYMENT_API_KEY = Vb7T…f1 (24 characters)") }, "\(findings.map(\.message))")
    }

    func testNoOutputFormatPrintsASecret() throws {
        let url = try ipa()
        let result = try PreflightScanner.scan(url.path)
        XCTAssertFalse(result.findings.filter { $0.rule == "shipped_secret" }.isEmpty)
        let report = ScanReport(results: [result], failOn: .error)
        // The webhook's host and path prefix are public; its three ids are the secret.
        let secrets = Self.resourceSecrets.values.map { $0.replacingOccurrences(of: "https://hooks.slack.com/services/", with: "") }
            + Self.binarySecrets + [Self.pemBody]
        XCTAssertEqual(Set(Reporters.identifiers), ["xcode", "json", "sarif", "markdown", "html", "junit", "github"])
        for format in Reporters.identifiers {
            let out = try report.render(format: format)
            for secret in secrets {
                // Any eight consecutive characters after the first four (which masks show).
                let chars = Array(secret)
                for start in stride(from: 4, through: chars.count - 8, by: 1) {
                    let piece = String(chars[start..<(start + 8)])
                    XCTAssertFalse(out.contains(piece), "\(format) output shows \(piece) of a secret")
                }
            }
        }
    }
}
