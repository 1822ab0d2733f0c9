import Foundation
import PreflightKit
import Rules
import TestSupport
import XCTest
import ZIPFoundation

/// The fixtures issue 11 names, scanned end to end: an app and its share extension with
/// different ATS dictionaries, whose code names plain-HTTP URLs to hosts one allows and the
/// other blocks — as a built `.ipa` (real Mach-O binaries from `Tests/Fixtures/MachO/src/
/// transit*.c`) and as a project (`Tests/Fixtures/Projects/Transit`, Swift and Objective-C).
/// Every ATS and local-network finding is asserted: rule, severity, bundle, file and line.
final class ATSFixtureTests: XCTestCase {
    static let root = CLITests.packageRoot

    /// One finding as the assertions compare it.
    struct Row: Equatable, CustomStringConvertible {
        var rule: String, severity: Severity, bundle: String, file: String, line: Int?
        var description: String { "\(rule) \(severity.rawValue) \(bundle) \(file):\(line.map(String.init) ?? "-")" }
    }

    static func rows(_ findings: [Finding]) -> [Row] {
        findings.filter { $0.rule.hasPrefix("ats_") || $0.rule == "bonjour_services" || $0.rule == "associated_domains_format" }
            .map { Row(rule: $0.rule, severity: $0.severity, bundle: $0.bundle ?? "", file: $0.file ?? "", line: $0.line) }
            .sorted { $0.description < $1.description }
    }

    static func plist(_ body: String) -> Data {
        Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\(body)\n</dict>\n</plist>\n".utf8)
    }

    /// Transit.app: exceptions for legacy.transit-data.com (plain HTTP) and
    /// secure.transit-data.com (TLS 1.1). TransitShare.appex: NSAllowsArbitraryLoads, silenced
    /// on iOS 10+ by NSAllowsLocalNetworking, and an exception for uploads.transit-data.com.
    static func makeIPA() throws -> URL {
        let url = try Scratch.folder("ats-ipa").appendingPathComponent("Transit.ipa")
        let archive = try Archive(url: url, accessMode: .create)
        func add(_ path: String, _ data: Data) throws {
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { pos, size in
                data.subdata(in: Int(pos)..<Int(pos) + size)
            }
        }
        let macho = root.appendingPathComponent("Tests/Fixtures/MachO")
        try add("Payload/Transit.app/Info.plist", plist("""
          <key>CFBundleIdentifier</key><string>com.example.transit</string>
          <key>CFBundleExecutable</key><string>Transit</string>
          <key>CFBundleShortVersionString</key><string>2.1</string>
          <key>CFBundleVersion</key><string>4</string>
          <key>MinimumOSVersion</key><string>15.0</string>
          <key>NSAppTransportSecurity</key>
          <dict>
            <key>NSExceptionDomains</key>
            <dict>
              <key>legacy.transit-data.com</key>
              <dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict>
              <key>secure.transit-data.com</key>
              <dict><key>NSExceptionMinimumTLSVersion</key><string>TLSv1.1</string></dict>
            </dict>
          </dict>
        """))
        try add("Payload/Transit.app/Transit", try Data(contentsOf: macho.appendingPathComponent("Transit")))
        try add("Payload/Transit.app/PlugIns/TransitShare.appex/Info.plist", plist("""
          <key>CFBundleIdentifier</key><string>com.example.transit.share</string>
          <key>CFBundleExecutable</key><string>TransitShare</string>
          <key>CFBundleShortVersionString</key><string>2.1</string>
          <key>CFBundleVersion</key><string>4</string>
          <key>MinimumOSVersion</key><string>15.0</string>
          <key>NSAppTransportSecurity</key>
          <dict>
            <key>NSAllowsArbitraryLoads</key><true/>
            <key>NSAllowsLocalNetworking</key><true/>
            <key>NSExceptionDomains</key>
            <dict>
              <key>uploads.transit-data.com</key>
              <dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict>
            </dict>
          </dict>
          <key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.share-services</string></dict>
        """))
        try add("Payload/Transit.app/PlugIns/TransitShare.appex/TransitShare", try Data(contentsOf: macho.appendingPathComponent("TransitShare")))
        return url
    }

    func testIPAAppAndShareExtensionGetTheirOwnVerdicts() throws {
        let result = try PreflightScanner.scan(try Self.makeIPA().path)
        let app = "Payload/Transit.app/Info.plist", share = "Payload/Transit.app/PlugIns/TransitShare.appex/Info.plist"
        XCTAssertEqual(Self.rows(result.findings), [
            // The share extension's NSAllowsArbitraryLoads is silenced by NSAllowsLocalNetworking on iOS 10+.
            Row(rule: "ats_arbitrary_loads", severity: .warning, bundle: "TransitShare.appex", file: share, line: 11),
            // The app's binary: api.transit-data.com is blocked (a C string shows no loading call: a note) …
            Row(rule: "ats_cleartext_url", severity: .note, bundle: "Transit.app", file: "Payload/Transit.app/Transit", line: nil),
            // … legacy.transit-data.com loads only through the app's exception: a note on that entry.
            Row(rule: "ats_cleartext_url", severity: .note, bundle: "Transit.app", file: app, line: 13),
            // The share binary: legacy.transit-data.com is blocked here, the app's exception does not reach it …
            Row(rule: "ats_cleartext_url", severity: .note, bundle: "TransitShare.appex",
                file: "Payload/Transit.app/PlugIns/TransitShare.appex/TransitShare", line: nil),
            // … and uploads.transit-data.com loads through the extension's own exception.
            Row(rule: "ats_cleartext_url", severity: .note, bundle: "TransitShare.appex", file: share, line: 15),
            // Plain HTTP allowed (legacy, uploads), TLS 1.1 (secure): at the values.
            Row(rule: "ats_exception_domain", severity: .warning, bundle: "Transit.app", file: app, line: 14),
            Row(rule: "ats_exception_domain", severity: .warning, bundle: "Transit.app", file: app, line: 16),
            Row(rule: "ats_exception_domain", severity: .warning, bundle: "TransitShare.appex", file: share, line: 16),
        ].sorted { $0.description < $1.description }, result.findings.filter { $0.rule.hasPrefix("ats_") }.map(\.message).joined(separator: "\n"))
        let blocked = result.findings.filter { $0.rule == "ats_cleartext_url" && $0.file?.hasSuffix("Info.plist") == false }
        XCTAssertEqual(blocked.map(\.fingerprintParts).sorted { $0.joined() < $1.joined() },
                       [["http://api.transit-data.com/v2/routes"], ["http://legacy.transit-data.com/upload"]])
        XCTAssertEqual(blocked.compactMap(\.bundle).sorted(), ["Transit.app", "TransitShare.appex"])
        XCTAssertFalse(result.findings.contains { $0.message.contains("w3.org") || $0.message.contains("printer.local") },
                       "a namespace URI and a local host are not traffic ATS governs")
        XCTAssertFalse(result.findings.contains { $0.rule == "ats_stale_exception_domain" }, "every exception domain is named in a binary")
    }

    func testProjectAppAndShareExtensionGetTheirOwnVerdicts() throws {
        let result = try PreflightScanner.scan(Self.root.appendingPathComponent("Tests/Fixtures/Projects/Transit").path)
        let app = "Transit/Info.plist", share = "TransitShare/Info.plist"
        XCTAssertEqual(Self.rows(result.findings), [
            // NSAllowsArbitraryLoadsInWebContent: the news web view (NewsView.swift:10) loads plain HTTP, nothing reported there.
            Row(rule: "ats_arbitrary_loads", severity: .warning, bundle: "Transit", file: app, line: 20),
            // URLSession to a host with no exception: this request will fail.
            Row(rule: "ats_cleartext_url", severity: .error, bundle: "Transit", file: "Transit/Feed.swift", line: 11),
            // AVFoundation is not web content: NSAllowsArbitraryLoadsInWebContent does not open it.
            Row(rule: "ats_cleartext_url", severity: .error, bundle: "Transit", file: "Transit/LivePlayer.m", line: 6),
            // legacy.transit-data.com (Feed.swift:7, LivePlayer.m:10) loads only through the app's exception.
            Row(rule: "ats_cleartext_url", severity: .note, bundle: "Transit", file: app, line: 23),
            // The same host from the share extension fails: its own ATS dictionary has no exception for it.
            Row(rule: "ats_cleartext_url", severity: .error, bundle: "TransitShare", file: "TransitShare/ShareUploader.m", line: 5),
            Row(rule: "ats_cleartext_url", severity: .error, bundle: "TransitShare", file: "TransitShare/ShareViewController.swift", line: 11),
            // A bare literal blocked for every kind of connection in the extension.
            Row(rule: "ats_cleartext_url", severity: .note, bundle: "TransitShare", file: "TransitShare/ShareUploader.m", line: 8),
            // uploads.transit-data.com (ShareViewController.swift:7) loads only through the extension's exception.
            Row(rule: "ats_cleartext_url", severity: .note, bundle: "TransitShare", file: share, line: 21),
            Row(rule: "ats_exception_domain", severity: .warning, bundle: "Transit", file: app, line: 26),
            Row(rule: "ats_exception_domain", severity: .warning, bundle: "TransitShare", file: share, line: 24),
        ].sorted { $0.description < $1.description }, result.findings.filter { $0.rule.hasPrefix("ats_") }.map { "\($0.file ?? ""):\($0.line ?? 0) \($0.message)" }.joined(separator: "\n"))
        let legacy = result.findings.filter { $0.rule == "ats_cleartext_url" && $0.message.contains("legacy.transit-data.com") }
        XCTAssertEqual(Set(legacy.map(\.bundle)), ["Transit", "TransitShare"])
        XCTAssertEqual(legacy.filter { $0.bundle == "Transit" }.map(\.severity), [.note], "allowed in the app through its exception")
        XCTAssertEqual(legacy.filter { $0.bundle == "TransitShare" }.map(\.severity), [.error, .error], "blocked in the extension")
    }
}

/// `inspect` lists the hosts each bundle's code contacts beside its ATS policy (issue 11 item 3).
final class InspectContactedDomainsTests: XCTestCase {
    func testProjectBundlesListTheirHostsWithSchemesAndPlaces() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/Projects/Transit").path
        let loaded = try PreflightScanner.load(root)
        let domains = InspectReport.contactedDomains(loaded)
        let app = try XCTUnwrap(domains["Transit"], "bundles: \(domains.keys.sorted())")
        let secure = try XCTUnwrap(app.first { $0.host == "secure.transit-data.com" })
        XCTAssertEqual(secure.schemes, ["https"])
        XCTAssertEqual(secure.seenAt, ["Transit/Feed.swift:15"])
        XCTAssertEqual(app.first { $0.host == "legacy.transit-data.com" }?.schemes, ["http"])
        let text = InspectReport.text(loaded.product, domains: domains)
        XCTAssertTrue(text.contains("  contacts:    secure.transit-data.com (https; Transit/Feed.swift:15)\n"), text)
        let json = try InspectReport.json(loaded.product, tool: ToolInfo(version: "test"), domains: domains)
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let bundles = try XCTUnwrap(doc["bundles"] as? [[String: Any]])
        let transit = try XCTUnwrap(bundles.first { $0["name"] as? String == "Transit" })
        let hosts = (transit["contactedDomains"] as? [[String: Any]] ?? []).compactMap { $0["host"] as? String }
        XCTAssertTrue(hosts.contains("secure.transit-data.com"), "\(hosts)")
    }
}
