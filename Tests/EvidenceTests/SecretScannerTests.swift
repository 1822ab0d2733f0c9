import XCTest
@testable import Evidence

/// Format validation of `SecretScanner`: each kind found at its place, masked; near misses,
/// placeholders and high-entropy strings of no known format never.
final class SecretScannerTests: XCTestCase {
    func kinds(_ text: String, skipGoogle: Bool = false) -> [SecretKind] {
        SecretScanner.scan(text: text, skipGoogleAPIKeys: skipGoogle).map(\.kind)
    }

    func testEachFormatIsFoundAndMasked() {
        let cases: [(String, SecretKind)] = [
            ("AK" + "IAQ3EGRJ2XK7LDPZ5M", .awsAccessKeyID),
            ("AS" + "IAQ3EGRJ2XK7LDPZ5M", .awsAccessKeyID),
            ("AI" + "zayVmihA-2O76UMFxFkM-R5Kjp1vRt_1fjORS", .googleAPIKey),
            ("sk_" + "live_KLzdocJ2isAjIhKtJ0RlgLKO", .stripeLiveSecretKey),
            ("rk_" + "live_KLzdocJ2isAjIhKtJ0RlgLKO", .stripeLiveSecretKey),
            ("sk_" + "test_KLzdocJ2isAjIhKtJ0RlgLKO", .stripeTestSecretKey),
            ("xo" + "xb-97971147104-974650752917-dnXsiVpzz63FfkCzJr4i0B3J", .slackToken),
            ("https://hooks.slack.com/services/" + "T0123ABCD/B0456EFGH/q8Xz3LmN7pR2sT5vW9yA1bC4", .slackWebhook),
            ("gh" + "p_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d", .githubToken),
            ("github_" + "pat_" + String(repeating: "a1B2c3D4e5", count: 8) + "Zz", .githubToken),
            ("SG." + "abcdEFGHijklMNOPqrstUV" + "." + "0123456789abcdefghijABCDEFGHIJklmnopqrstuvw", .sendGridKey),
        ]
        for (secret, kind) in cases {
            let found = SecretScanner.scan(text: "let value = \"\(secret)\"\n")
            XCTAssertEqual(found.map(\.kind), [kind], secret)
            XCTAssertEqual(found.first?.line, 1)
            XCTAssertEqual(found.first?.column, secret.hasPrefix("https://") ? 22 : 14, secret)
            let masked = found.first?.masked ?? ""
            XCTAssertFalse(masked.contains(secret), masked)
            XCTAssertTrue(masked.contains("characters"), masked)
            let shown = masked.replacingOccurrences(of: "hooks.slack.com/services/", with: "")
            XCTAssertLessThan(shown.filter { $0.isLetter || $0.isNumber }.count, 40, masked)
        }
    }

    func testMaskShowsFourAndTwoAndTheLength() {
        XCTAssertEqual(SecretMask.mask("AKIAQ3EGRJ2XK7LDPZ5M"), "AKIA…5M (20 characters)")
        XCTAssertEqual(SecretMask.mask("short"), "•••• (5 characters)")
    }

    func testNearMissesAreNotSecrets() {
        XCTAssertEqual(kinds("AKIAIOSFODNN7EXAMPLE"), [], "AWS's documented example")
        XCTAssertEqual(kinds("AKIAQ3EGRJ2XK7LDPZ5MX"), [], "21 characters")
        XCTAssertEqual(kinds("XAKIAQ3EGRJ2XK7LDPZ5M"), [], "inside a longer token")
        XCTAssertEqual(kinds("AKIAq3egrj2xk7ldpz5m"), [], "lower case is not base32 as AWS writes it")
        XCTAssertEqual(kinds("sk_live_XXXXXXXXXXXXXXXXXXXXXXXX"), [], "placeholder")
        XCTAssertEqual(kinds("sk_live_short"), [])
        XCTAssertEqual(kinds("pk_live_KLzdocJ2isAjIhKtJ0RlgLKO"), [], "publishable keys are public")
        XCTAssertEqual(kinds("ghp_tooShort123"), [])
        XCTAssertEqual(kinds("xoxb-not-a-token"), [])
        XCTAssertEqual(kinds("Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5MTIzNDU2Nzg5MA=="), [], "entropy alone")
        XCTAssertEqual(kinds("AIzayVmihA-2O76UMFxFkM-R5Kjp1vRt_1fjORS", skipGoogle: true), [])
    }

    func testPEMPrivateKeys() {
        let body = "MIIBVQIBADANBgkqhkiG9w0BAQEFAASCAT8wggE7AgEAAkEA0Z3VS5JJcds3xfn\nygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB4mtCGb8P0PzH3WH1zSdYCE4S3hk6S\n"
        XCTAssertEqual(kinds("x\n-----BEGIN PRIVATE KEY-----\n\(body)-----END PRIVATE KEY-----\n"), [.privateKey])
        XCTAssertEqual(kinds("-----BEGIN RSA PRIVATE KEY-----\\n\(body.replacingOccurrences(of: "\n", with: "\\n"))-----END RSA PRIVATE KEY-----"),
                       [.privateKey], "JSON-escaped newlines")
        XCTAssertEqual(kinds("-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0011\n\n\(body)-----END RSA PRIVATE KEY-----"),
                       [.encryptedPrivateKey])
        XCTAssertEqual(kinds("-----BEGIN PRIVATE KEY-----"), [], "a header constant")
        XCTAssertEqual(kinds("-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----"), [], "elided body")
        XCTAssertEqual(kinds("-----BEGIN PRIVATE KEY-----\n\(String(repeating: "QUFB", count: 20))\n-----END PRIVATE KEY-----"), [],
                       "a body that is not DER")
        XCTAssertEqual(kinds("-----BEGIN CERTIFICATE-----\n\(body)-----END CERTIFICATE-----"), [], "certificates are public")
        let found = SecretScanner.scan(text: "-----BEGIN PRIVATE KEY-----\n\(body)-----END PRIVATE KEY-----")
        XCTAssertFalse(found[0].masked.contains("MIIB"), found[0].masked)
    }

    func testNamedPairsNeedASecretNameAndACredentialShapedValue() {
        XCTAssertEqual(NamedSecretPairs.secret(name: "APIGEE_API_KEY", value: "gJFT7bZynGztrRrB" + "HTu7m244AFBk8oNw")?.masked,
                       "APIGEE_API_KEY = gJFT…Nw (32 characters)")
        XCTAssertNotNil(NamedSecretPairs.secret(name: "SECRET_KEY", value: "idzRa8LPuAj5V7izpiojSqJq"))
        XCTAssertNil(NamedSecretPairs.secret(name: "KEY", value: "9582dda9-12c8-4f98-8428-e6624fca3699"), "KEY alone says nothing")
        XCTAssertNil(NamedSecretPairs.secret(name: "apiKey", value: "idzRa8LPuAj5V7izpiojSqJq"), "not an environment-style name")
        XCTAssertNil(NamedSecretPairs.secret(name: "API_KEY_NAME", value: "idzRa8LPuAj5V7izpiojSqJq"))
        XCTAssertNil(NamedSecretPairs.secret(name: "SECRET_KEY", value: "https://api.example.com/v1/keys"), "a URL")
        XCTAssertNil(NamedSecretPairs.secret(name: "SECRET_KEY", value: "NEW_RELIC_TOKEN_IOS"), "the next name")
        XCTAssertNil(NamedSecretPairs.secret(name: "SECRET_KEY", value: "your-secret-key-here-123"), "a placeholder")
        XCTAssertNil(NamedSecretPairs.secret(name: "SECRET_KEY", value: "short1"))
        XCTAssertNil(NamedSecretPairs.secret(name: "PASSWORD", value: "Enter your password"), "a sentence")
    }
}
