import XCTest
import Foundation
import TestSupport
import PreflightKit

/// One `.ipa` per code-signing upload error the signing rules cover, built from the re-signed
/// fixtures and profiles of `Tests/Fixtures/MachO/signing` (make-fixtures.py) and scanned end
/// to end: each must produce the rule's finding naming the code, and a clean build none.
final class SigningIPATests: XCTestCase {
    static let signing = CLITests.packageRoot.appendingPathComponent("Tests/Fixtures/MachO/signing")
    static let signingRules: Set<String> = ["entitlements_not_in_profile", "invalid_code_signature", "signing_certificate_not_in_profile",
                                            "provisioning_profile_expired", "entitlement_without_purpose_string"]

    /// `Demo.app` with `binary` as its executable and `profile` as its embedded profile.
    func ipa(binary: String, profile: String?, extraInfo: String = "") throws -> URL {
        var z = ZipWriter()
        let prefix = "Payload/Demo.app/"
        z.add(prefix + "Info.plist", ReadinessIPATests.info("Demo", id: "com.example.demo", extra: extraInfo))
        z.add(prefix + "Demo", data: try Data(contentsOf: Self.signing.appendingPathComponent(binary)))
        if let profile { z.add(prefix + "embedded.mobileprovision", data: try Data(contentsOf: Self.signing.appendingPathComponent(profile))) }
        return try z.write(name: "Signing.ipa")
    }

    func findings(_ url: URL) throws -> [Finding] {
        try PreflightScanner.scan(url.path).findings.filter { Self.signingRules.contains($0.rule) }
    }

    func assertFinds(_ rule: String, _ code: String, in url: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let found = try findings(url).filter { $0.rule == rule }
        XCTAssertTrue(found.contains { $0.message.contains(code) }, "\(rule): no message names \(code): \(found.map(\.message))", file: file, line: line)
        XCTAssertTrue(RuleRegistryLookup.itms(of: rule).contains(code), "\(rule) does not list \(code)", file: file, line: line)
    }

    func testReleaseBuildWithItsAppStoreProfileIsClean() throws {
        XCTAssertEqual(try findings(try ipa(binary: "Release", profile: "appstore.mobileprovision")).map(\.message), [])
    }

    func testDevelopmentBuildWithDevelopmentProfileIsClean() throws {
        XCTAssertEqual(try findings(try ipa(binary: "Debug", profile: "development.mobileprovision")).map(\.message), [])
    }

    func testITMS90164DebugEntitlementsWithDistributionProfile() throws {
        let url = try ipa(binary: "Debug", profile: "appstore.mobileprovision")
        try assertFinds("entitlements_not_in_profile", "ITMS-90164", in: url)
        let keys = Set(try findings(url).filter { $0.rule == "entitlements_not_in_profile" }.compactMap(\.key))
        XCTAssertEqual(keys, ["get-task-allow", "aps-environment"])
    }

    func testITMS90164CapabilityMissingFromProfile() throws {
        let url = try ipa(binary: "HealthKit", profile: "appstore.mobileprovision")
        try assertFinds("entitlements_not_in_profile", "ITMS-90164", in: url)
        let found = try findings(url)
        XCTAssertEqual(Set(found.filter { $0.rule == "entitlements_not_in_profile" }.compactMap(\.key)), ["com.apple.developer.healthkit"],
                       "an empty healthkit.access list claims nothing")
        XCTAssertEqual(found.filter { $0.rule == "entitlement_without_purpose_string" }.count, 1)
        let withKey = try ipa(binary: "HealthKit", profile: "appstore.mobileprovision",
                              extraInfo: "<key>NSHealthShareUsageDescription</key><string>Steps on the activity screen.</string>")
        XCTAssertEqual(try findings(withKey).filter { $0.rule == "entitlement_without_purpose_string" }.map(\.message), [])
    }

    func testApplicationIdentifierOfAnotherApp() throws {
        let found = try findings(try ipa(binary: "OtherAppID", profile: "appstore.mobileprovision"))
        XCTAssertTrue(found.contains { $0.key == "application-identifier" && $0.message.contains("'ABCDE12345.com.example.demo'") },
                      "\(found.map(\.message))")
    }

    func testITMS90179DevelopmentCertificateWithAppStoreProfile() throws {
        let url = try ipa(binary: "DevCertRelease", profile: "appstore.mobileprovision")
        try assertFinds("signing_certificate_not_in_profile", "ITMS-90179", in: url)
        let message = try findings(url).first { $0.rule == "signing_certificate_not_in_profile" }?.message ?? ""
        XCTAssertTrue(message.contains("'Apple Development: Jane Appleseed (ABCDE12345)'"), message)
        XCTAssertTrue(message.contains("a development certificate cannot sign for App Store distribution"), message)
    }

    func testITMS90034UnsignedBinaryInIPA() throws {
        try assertFinds("invalid_code_signature", "ITMS-90034", in: try ipa(binary: "Unsigned", profile: "appstore.mobileprovision"))
    }

    /// A framework copied in after signing: unsigned (MyKit) or signed ad hoc (the linker's
    /// signature of the App fixture), in an app signed with a certificate and a profile.
    func testITMS90034FrameworksNotSignedWithTheApp() throws {
        var z = ZipWriter()
        let prefix = "Payload/Demo.app/"
        z.add(prefix + "Info.plist", ReadinessIPATests.info("Demo", id: "com.example.demo"))
        z.add(prefix + "Demo", data: try Data(contentsOf: Self.signing.appendingPathComponent("Release")))
        z.add(prefix + "embedded.mobileprovision", data: try Data(contentsOf: Self.signing.appendingPathComponent("appstore.mobileprovision")))
        z.add(prefix + "Frameworks/MyKit.framework/Info.plist", ReadinessIPATests.info("MyKit", id: "com.example.mykit"))
        z.add(prefix + "Frameworks/MyKit.framework/MyKit", data: try Data(contentsOf: ReadinessIPATests.machO.appendingPathComponent("MyKit.framework/MyKit")))
        z.add(prefix + "Frameworks/AdHoc.framework/Info.plist", ReadinessIPATests.info("AdHoc", id: "com.example.adhoc"))
        z.add(prefix + "Frameworks/AdHoc.framework/AdHoc", data: try Data(contentsOf: ReadinessIPATests.machO.appendingPathComponent("App")))
        let found = try findings(try z.write(name: "Frameworks.ipa")).filter { $0.rule == "invalid_code_signature" }
        XCTAssertEqual(found.map(\.message).sorted(), [
            "AdHoc.framework: Payload/Demo.app/Frameworks/AdHoc.framework/AdHoc (arm64) is signed ad hoc, with no certificate, although the app carries a provisioning profile: App Store Connect rejects it (ITMS-90034)",
            "MyKit.framework: Payload/Demo.app/Frameworks/MyKit.framework/MyKit (arm64) has no code signature (no LC_CODE_SIGNATURE): App Store Connect rejects an .ipa with unsigned code (ITMS-90034)",
        ])
    }

    func testITMS90035MalformedSignature() throws {
        try assertFinds("invalid_code_signature", "ITMS-90035", in: try ipa(binary: "BadSignature", profile: "appstore.mobileprovision"))
    }

    func testExpiredProfileIsStatedWithItsKind() throws {
        let found = try findings(try ipa(binary: "Release", profile: "adhoc-expired.mobileprovision"))
        let expired = found.filter { $0.rule == "provisioning_profile_expired" }
        XCTAssertEqual(expired.map(\.message), ["Demo.app: the ad hoc provisioning profile 'Demo Ad Hoc', team ABCDE12345 expired on 2025-01-14: iOS no longer launches a build signed with it, and it cannot be exported or uploaded"])
    }
}
