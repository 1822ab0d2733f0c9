import XCTest
import Formats
@testable import Artifacts

final class IPALoadingTests: XCTestCase {
    func load(_ zip: TestZip) throws -> LoadedInput {
        try ProductLoader.load(path: try zip.write().path)
    }

    func demoApp(prefix: String = "Payload/Demo.app/") -> TestZip {
        var z = TestZip()
        z.add(prefix + "Info.plist", minimalInfoPlist)
        z.add(prefix + "Demo", "not really a binary")
        z.add(prefix + "PlugIns/Share.appex/Info.plist", minimalInfoPlist.replacingOccurrences(of: "com.example.demo", with: "com.example.demo.share").replacingOccurrences(of: "<string>Demo</string>", with: "<string>Share</string>"))
        z.add(prefix + "PlugIns/Share.appex/Share", "x")
        z.add(prefix + "Frameworks/Kit.framework/Info.plist", minimalInfoPlist.replacingOccurrences(of: "<string>Demo</string>", with: "<string>Kit</string>"))
        z.add(prefix + "Frameworks/Kit.framework/Kit", "x")
        z.add(prefix + "Frameworks/Kit.framework/Kit.bundle/en.lproj/Localizable.strings", "\"a\" = \"b\";")
        z.add(prefix + "Watch/Demo Watch.app/Info.plist", minimalInfoPlist)
        z.add(prefix + "AppClips/Clip.app/Info.plist", minimalInfoPlist)
        z.add(prefix + "en.lproj/InfoPlist.strings", "\"CFBundleDisplayName\" = \"Demo\";")
        z.add(prefix + "de.lproj/InfoPlist.strings", "\"CFBundleDisplayName\" = \"Demo\";")
        z.add(prefix + "PrivacyInfo.xcprivacy", "<plist><dict><key>NSPrivacyTracking</key><false/></dict></plist>")
        return z
    }

    func testFindsEveryBundleWithKindsAndParents() throws {
        let p = try load(demoApp()).product
        XCTAssertEqual(p.kind, .ipa)
        let summary = p.bundles.map { "\($0.name)|\($0.kind.rawValue)|\(p.bundles.parentName(of: $0) ?? "-")" }.sorted()
        XCTAssertEqual(summary, [
            "Clip.app|app-clip|Demo.app", "Demo Watch.app|watch-app|Demo.app", "Demo.app|app|-",
            "Kit.bundle|bundle|Kit.framework", "Kit.framework|framework|Demo.app", "Share.appex|app-extension|Demo.app",
        ])
        let app = try XCTUnwrap(p.bundle(named: "Demo.app"))
        XCTAssertEqual(app.identifier, "com.example.demo")
        XCTAssertEqual(app.shortVersion, "1.2")
        XCTAssertEqual(app.buildVersion, "42")
        XCTAssertEqual(app.minimumOSVersion, "15.0")
        XCTAssertEqual(app.languages, ["de", "en"])
        XCTAssertEqual(app.privacyManifestPaths, ["Payload/Demo.app/PrivacyInfo.xcprivacy"])
        XCTAssertEqual(app.executablePath, "Payload/Demo.app/Demo")
        XCTAssertEqual(p.bundle(named: "Kit.bundle")?.localizations.map(\.path), ["Payload/Demo.app/Frameworks/Kit.framework/Kit.bundle/en.lproj/Localizable.strings"])
        // Watch and clip bundles name an executable they do not contain.
        XCTAssertEqual(p.problems.filter { if case .missingExecutable = $0.kind { return true } else { return false } }.compactMap(\.bundle).sorted(),
                       ["Clip.app", "Demo Watch.app"])
    }

    func testIgnoresMacOSJunkAndAcceptsNestedPayloadAnyCase() throws {
        var z = demoApp(prefix: "build/payload/Demo.app/")
        z.add("__MACOSX/build/payload/Demo.app/._Info.plist", "junk")
        z.add("build/payload/Demo.app/._Demo", "junk")
        let p = try load(z).product
        XCTAssertEqual(p.bundle(named: "Demo.app")?.path, "build/payload/Demo.app")
        XCTAssertFalse(p.bundles.flatMap(\.binaryPaths).contains { $0.contains("._") })
    }

    func testArchiveWithoutAppIsAnError() throws {
        var z = TestZip()
        z.add("Payload/readme.txt", "no app here")
        XCTAssertThrowsError(try load(z)) { error in
            XCTAssertTrue("\(error)".hasSuffix("no app bundle in the archive (expected Payload/<Name>.app)"), "\(error)")
        }
    }

    func testUnsafeAndDuplicateNamesAreReportedNotRead() throws {
        var z = demoApp()
        z.add("Payload/Demo.app/../../evil.txt", "x")
        z.add("/etc/passwd", "x")
        z.add("Payload\\Demo.app\\x", "x")
        z.add("Payload/Demo.app/Info.plist", "duplicate")
        z.addSymlink("Payload/Demo.app/Frameworks/libssl.dylib", target: "../../../../../usr/lib/libssl.dylib")
        let p = try load(z).product
        let described = p.problems.map { "\($0.path): \($0.kind)" }
        XCTAssertTrue(described.contains { $0.contains("evil.txt") && $0.contains("unsafe archive entry name") }, "\(described)")
        XCTAssertTrue(described.contains { $0.contains("/etc/passwd") && $0.contains("absolute path") }, "\(described)")
        XCTAssertTrue(described.contains { $0.contains("backslash") }, "\(described)")
        XCTAssertTrue(described.contains { $0.hasPrefix("Payload/Demo.app/Info.plist") && $0.contains("duplicate") }, "\(described)")
        XCTAssertTrue(described.contains { $0.contains("libssl.dylib") && $0.contains("symlinkOutsideTree") }, "\(described)")
        // The first Info.plist is the one read.
        XCTAssertEqual(p.bundle(named: "Demo.app")?.identifier, "com.example.demo")
    }

    func testLyingSizesAreErrorsNotCrashes() throws {
        var z = TestZip()
        z.add("Payload/Demo.app/Info.plist", minimalInfoPlist)
        z.entries[0].declaredUncompressed = 10
        let loaded = try load(z)
        XCTAssertEqual(loaded.product.bundles.first?.infoPlist?.error?.description,
                       "malformed ZIP archive at offset 0x1b1: stored entry Payload/Demo.app/Info.plist declares 376 bytes stored but 10 bytes of content")
    }

    func testCompressionRatioLimit() throws {
        var z = TestZip()
        z.add("Payload/Demo.app/Info.plist", minimalInfoPlist)
        z.entries[0].method = 8
        z.entries[0].declaredCompressed = 100
        z.entries[0].declaredUncompressed = 900_000_000
        let loaded = try load(z)
        XCTAssertEqual(loaded.product.bundles.first?.infoPlist?.error?.description,
                       "ZIP archive exceeds limit max-compression-ratio: entry Payload/Demo.app/Info.plist inflates 100 bytes to 900000000 (ratio above 1000)")
    }

    func testTruncatedArchive() throws {
        let data = demoApp().build()
        let url = try TestZip().write()
        try data.prefix(data.count - 30).write(to: url)
        XCTAssertThrowsError(try ProductLoader.load(path: url.path)) { error in
            XCTAssertEqual("\(error)", "malformed ZIP archive: no end of central directory record (not a ZIP archive, or truncated)")
        }
    }

    func testOverlappingEntries() throws {
        var z = demoApp()
        z.entries[1].sharesLocalHeaderOf = 0
        XCTAssertThrowsError(try load(z)) { error in
            XCTAssertTrue("\(error)".contains("overlaps entry"), "\(error)")
        }
    }
}
