import Foundation
import XCTest
@testable import Formats

/// Real binaries built by Tests/Fixtures/MachO/make-fixtures.sh (clang + ld64.lld against .tbd
/// stubs). Fixed expectations always run; llvm-nm / llvm-objdump oracles run when on PATH.
final class MachOFixtureTests: XCTestCase {
    static let appImports = [
        "_AVMediaTypeVideo", "_NSLog", "_OBJC_CLASS_$_AVCaptureDevice", "_OBJC_CLASS_$_CLLocationManager",
        "_OBJC_CLASS_$_NSObject", "_OBJC_CLASS_$_PHPhotoLibrary", "_OBJC_CLASS_$_UIDevice",
        "_OBJC_METACLASS_$_NSObject", "__NSConcreteGlobalBlock", "__objc_empty_cache", "_getenv",
        "_mykit_answer", "_objc_alloc_init", "_objc_autoreleasePoolPop", "_objc_autoreleasePoolPush",
        "_objc_msgSend", "_objc_msgSendSuper2", "_printf", "_strlen", "dyld_stub_binder",
    ]
    static let appLibraries = [
        LinkedLibrary(path: "/usr/lib/libSystem.B.dylib", kind: .load, currentVersion: "1319.0.0", compatibilityVersion: "1.0.0"),
        LinkedLibrary(path: "/usr/lib/libobjc.A.dylib", kind: .load, currentVersion: "228.0.0", compatibilityVersion: "1.0.0"),
        LinkedLibrary(path: "/System/Library/Frameworks/Foundation.framework/Foundation", kind: .load,
                      currentVersion: "1953.255.0", compatibilityVersion: "300.0.0"),
        LinkedLibrary(path: "/System/Library/Frameworks/UIKit.framework/UIKit", kind: .load,
                      currentVersion: "6448.1.101", compatibilityVersion: "1.0.0"),
        LinkedLibrary(path: "/System/Library/Frameworks/CoreLocation.framework/CoreLocation", kind: .load,
                      currentVersion: "2780.0.17", compatibilityVersion: "1.0.0"),
        LinkedLibrary(path: "/System/Library/Frameworks/AVFoundation.framework/AVFoundation", kind: .load,
                      currentVersion: "2.0.0", compatibilityVersion: "1.0.0"),
        LinkedLibrary(path: "/System/Library/Frameworks/Photos.framework/Photos", kind: .weak,
                      currentVersion: "1.0.0", compatibilityVersion: "1.0.0"),
        LinkedLibrary(path: "@rpath/MyKit.framework/MyKit", kind: .load, currentVersion: "1.2.3", compatibilityVersion: "1.0.0"),
    ]
    static let appClasses = ["AVCaptureDevice", "CLLocationManager", "PHPhotoLibrary", "UIDevice"]
    static let appSelectors = [
        "authorizationStatus", "currentDevice", "init", "new", "requestAccessForMediaType:completionHandler:",
        "requestWhenInUseAuthorization", "startLocation", "startUpdatingLocation", "systemVersion",
    ]

    private func assertApp(_ s: MachOSlice, uuid: String, chained: Bool) {
        XCTAssertEqual(s.arch, "arm64")
        XCTAssertEqual(s.cpuType, 0x0100_000c)
        XCTAssertEqual(s.cpuSubtype, 0)
        XCTAssertTrue(s.is64Bit)
        XCTAssertEqual(s.fileType, 2)
        XCTAssertEqual(s.fileTypeName, "executable")
        XCTAssertTrue(s.isPIE)
        XCTAssertFalse(s.allowsStackExecution)
        XCTAssertFalse(s.hasRestrictSegment)
        XCTAssertEqual(s.platform, "iOS")
        XCTAssertEqual(s.minOS, "15.0")
        XCTAssertEqual(s.sdk, "17.0")
        XCTAssertEqual(s.uuid, uuid)
        XCTAssertEqual(s.linkedLibraries, Self.appLibraries)
        XCTAssertEqual(s.linkedLibraryNames, ["libSystem.B.dylib", "libobjc.A.dylib", "Foundation", "UIKit",
                                              "CoreLocation", "AVFoundation", "Photos", "MyKit"])
        XCTAssertEqual(s.rpaths, ["@executable_path/Frameworks"])
        // lld reserves LC_ENCRYPTION_INFO_64 for iOS executables, unencrypted (cryptid 0).
        XCTAssertEqual(s.encryption, EncryptionInfo(cryptID: 0, offset: 0x4000, size: 0x4000))
        XCTAssertFalse(s.isEncrypted)
        XCTAssertEqual(s.importedSymbols, Self.appImports)
        XCTAssertEqual(s.hasChainedFixups, chained)
        XCTAssertEqual(s.hasDyldInfo, !chained)
        // Chained fixups have no dyld_stub_binder import: it only remains in the symbol table.
        XCTAssertEqual(s.boundSymbols, chained ? Self.appImports.filter { $0 != "dyld_stub_binder" } : Self.appImports)
        XCTAssertEqual(s.objcClassRefs, Self.appClasses)
        XCTAssertEqual(s.objcSelectorRefs, Self.appSelectors)
        XCTAssertEqual(s.importedObjCClasses, ["AVCaptureDevice", "CLLocationManager", "NSObject", "PHPhotoLibrary", "UIDevice"])
        XCTAssertEqual(s.segments.map(\.name), ["__PAGEZERO", "__TEXT", "__DATA_CONST", "__DATA", "__LINKEDIT"])
        let text = s.segments[1]
        XCTAssertEqual(text.vmAddress, 0x1_0000_0000)
        XCTAssertEqual(text.fileOffset, 0)
        XCTAssertTrue(text.isExecutable && !text.isWritable)
        XCTAssertEqual(text.sections.first?.name, "__text")
        XCTAssertEqual(text.sections.first?.segment, "__TEXT")
        let strings = s.cStrings(maxCount: 1000)
        XCTAssertTrue(strings.contains("preflight fixture %lu %d\n"), "\(strings)")
        XCTAssertTrue(strings.contains("HOME"))
        XCTAssertEqual(s.cStrings(maxCount: 2).count, 2)
        XCTAssertEqual(s.cStrings(maxCount: 0), [])
        let undefined = s.symbols.filter(\.isUndefined)
        XCTAssertEqual(undefined.count, Self.appImports.count)
        XCTAssertTrue(s.symbols.contains { $0.name == "_main" && $0.isExternal && !$0.isUndefined })
        XCTAssertTrue(s.symbols.first { $0.name == "_OBJC_CLASS_$_PHPhotoLibrary" }?.isWeakReference ?? false)
        // lld signs ad hoc: a CodeDirectory with the output name, no team, no entitlements.
        let sig = s.codeSignature
        XCTAssertNotNil(sig)
        XCTAssertEqual(sig?.isAdHoc, true)
        XCTAssertNil(sig?.teamID)
        XCTAssertNil(sig?.entitlementsXML)
        XCTAssertEqual(sig?.hasCMSSignature, false)
    }

    func testClassicDyldInfoExecutable() throws {
        let file = try MachOFixtures.read("App")
        XCTAssertFalse(file.isFat)
        XCTAssertEqual(file.slices.count, 1)
        let s = file.slices[0]
        assertApp(s, uuid: "4C4C449C-5555-3144-A17D-E4B64A4B6EA2", chained: false)
        XCTAssertEqual(s.codeSignature?.identifier, "App")
        XCTAssertEqual(s.loadCommandCount, 25)
        MachOOracle.assertAgrees(s, at: MachOFixtures.url("App"))
        MachOOracle.assertBindsAgree(s, at: MachOFixtures.url("App"))
        if MachOOracle.which("llvm-objdump") != nil {  // the selector oracle itself works here
            let names = MachOOracle.selectorRefs(MachOFixtures.url("App"), arch: "arm64", segment: "__DATA")
            XCTAssertEqual(names.map { Set($0).sorted() }, Self.appSelectors)
        }
    }

    func testChainedFixupsExecutable() throws {
        let file = try MachOFixtures.read("AppChained")
        let s = try XCTUnwrap(file.slices.first)
        assertApp(s, uuid: "4C4C447C-5555-3144-A18A-72706E5C4E73", chained: true)
        MachOOracle.assertAgrees(s, at: MachOFixtures.url("AppChained"))
        MachOOracle.assertBindsAgree(s, at: MachOFixtures.url("AppChained"))
    }

    func testReadingOnlySomeParts() throws {
        let data = try MachOFixtures.data("Fat")
        let full = try MachOReader.read(data)
        let light = try MachOReader.read(data, parts: .loadCommands)
        XCTAssertEqual(light.slices.map(\.arch), ["x86_64", "arm64"])
        XCTAssertEqual(light.slices.map(\.linkedLibraries), full.slices.map(\.linkedLibraries))
        XCTAssertEqual(light.slices.map(\.uuid), full.slices.map(\.uuid))
        XCTAssertEqual(light.slices.map(\.minOS), full.slices.map(\.minOS))
        XCTAssertEqual(light.slices.map(\.segments), full.slices.map(\.segments))
        XCTAssertEqual(light.slices[1].cStrings(maxCount: 100), full.slices[1].cStrings(maxCount: 100))
        XCTAssertTrue(light.slices.allSatisfy { $0.symbols.isEmpty && $0.importedSymbols.isEmpty && $0.boundSymbols.isEmpty })
        XCTAssertTrue(light.slices.allSatisfy { $0.objcClassRefs.isEmpty && $0.codeSignature == nil })
        let signatureOnly = try MachOReader.read(try MachOFixtures.data("App"), parts: .codeSignature)
        XCTAssertEqual(signatureOnly.slices.first?.codeSignature?.identifier, "App")
        XCTAssertEqual(signatureOnly.slices.first?.importedSymbols, [])
        let objc = try MachOReader.read(try MachOFixtures.data("AppChained"), parts: .objc)
        XCTAssertEqual(objc.slices.first?.objcClassRefs, Self.appClasses)
        XCTAssertEqual(objc.slices.first?.objcSelectorRefs, Self.appSelectors)
    }

    func testRelocatableObject() throws {
        let s = try XCTUnwrap(try MachOFixtures.read("app.o").slices.first)
        XCTAssertEqual(s.fileTypeName, "object")
        XCTAssertEqual(s.platform, "iOS")
        XCTAssertEqual(s.minOS, "15.0")
        XCTAssertEqual(s.linkedLibraries, [])
        XCTAssertEqual(s.importedSymbols, Self.appImports.filter { $0 != "dyld_stub_binder" })
        XCTAssertEqual(s.boundSymbols, [])  // an object has relocations, not binds
        // Without binds, references come from the relocations of the ObjC sections.
        XCTAssertEqual(s.objcClassRefs, Self.appClasses)
        XCTAssertEqual(s.objcSelectorRefs, Self.appSelectors)
        MachOOracle.assertAgrees(s, at: MachOFixtures.url("app.o"))
    }

    func testFrameworkDylib() throws {
        let s = try XCTUnwrap(try MachOFixtures.read("MyKit.framework/MyKit").slices.first)
        XCTAssertEqual(s.fileTypeName, "dylib")
        XCTAssertEqual(s.installName, "@rpath/MyKit.framework/MyKit")
        XCTAssertFalse(s.isPIE)
        XCTAssertEqual(s.uuid, "4C4C4499-5555-3144-A1B6-4EFD84A1396D")
        XCTAssertEqual(s.linkedLibraries.map(\.path), ["/usr/lib/libSystem.B.dylib"])
        XCTAssertEqual(s.importedSymbols, ["_puts", "dyld_stub_binder"])
        XCTAssertEqual(s.boundSymbols, ["_puts", "dyld_stub_binder"])
        XCTAssertEqual(s.objcClassRefs, [])
        XCTAssertEqual(s.objcSelectorRefs, [])
        XCTAssertEqual(s.cStrings(maxCount: 10), ["MyKit says hello"])
        XCTAssertTrue(s.symbols.contains { $0.name == "_mykit_answer" && $0.isExternal })
        XCTAssertNil(s.codeSignature)
        MachOOracle.assertAgrees(s, at: MachOFixtures.url("MyKit.framework/MyKit"))
        MachOOracle.assertBindsAgree(s, at: MachOFixtures.url("MyKit.framework/MyKit"))
    }

    func testFatFileWithTwoSlices() throws {
        let data = try MachOFixtures.data("Fat")
        XCTAssertTrue(MachOReader.isMachO(data))
        let file = try MachOReader.read(data)
        XCTAssertTrue(file.isFat)
        XCTAssertEqual(file.slices.map(\.arch), ["x86_64", "arm64"])
        let sim = try XCTUnwrap(file.slice(arch: "x86_64"))
        XCTAssertEqual(sim.platform, "iOS Simulator")
        XCTAssertEqual(sim.minOS, "15.0")
        XCTAssertEqual(sim.fileOffset, 0x4000)
        XCTAssertEqual(sim.importedSymbols, ["_atoi", "_printf", "dyld_stub_binder"])
        XCTAssertEqual(sim.uuid, "4C4C4426-5555-3144-A14D-65A5759E6149")
        XCTAssertEqual(sim.cStrings(maxCount: 5), ["x86_64 slice %d\n"])
        let arm = try XCTUnwrap(file.slice(arch: "arm64"))
        assertApp(arm, uuid: "4C4C449C-5555-3144-A17D-E4B64A4B6EA2", chained: false)
        for s in file.slices {
            MachOOracle.assertAgrees(s, at: MachOFixtures.url("Fat"), context: "Fat")
            MachOOracle.assertBindsAgree(s, at: MachOFixtures.url("Fat"), context: "Fat")
        }
    }

    /// Rebuilds the fixtures into a temporary copy when the tools exist and checks the script
    /// still produces binaries the reader and the oracles agree on.
    func testFixtureScriptRebuildsWhenToolsExist() throws {
        guard MachOOracle.which("clang") != nil, MachOOracle.which("ld64.lld-14") != nil,
              MachOOracle.which("python3") != nil else {
            throw XCTSkip("clang, ld64.lld-14 or python3 not on PATH")
        }
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("preflight-macho-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: tmp) }
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        for item in ["make-fixtures.sh", "src", "stubs"] {
            try FileManager.default.copyItem(at: MachOFixtures.url(item), to: tmp.appendingPathComponent(item))
        }
        guard MachOOracle.run("sh", [tmp.appendingPathComponent("make-fixtures.sh").path]) != nil else {
            return XCTFail("make-fixtures.sh failed")
        }
        for name in ["App", "Fat", "MyKit.framework/MyKit", "app.o", "WebView", "SimKit.framework/SimKit", "BitKit.framework/BitKit", "Armv7"] {
            let url = tmp.appendingPathComponent(name)
            let file = try MachOReader.read(try Data(contentsOf: url))
            for s in file.slices { MachOOracle.assertAgrees(s, at: url, context: "rebuilt \(name)") }
            // Same program, same facts (bytes may differ with another clang version).
            let committed = try MachOFixtures.read(name)
            XCTAssertEqual(file.slices.map(\.importedSymbols), committed.slices.map(\.importedSymbols), name)
            XCTAssertEqual(file.slices.map(\.linkedLibraries), committed.slices.map(\.linkedLibraries), name)
            XCTAssertEqual(file.slices.map(\.objcClassRefs), committed.slices.map(\.objcClassRefs), name)
            XCTAssertEqual(file.slices.map(\.objcSelectorRefs), committed.slices.map(\.objcSelectorRefs), name)
        }
    }

    /// The fixtures of the App Store readiness rules: each carries the one fact its rule reads.
    func testReadinessFixtures() throws {
        let web = try XCTUnwrap(try MachOFixtures.read("WebView").slices.first)
        XCTAssertEqual(web.platform, "iOS")
        XCTAssertTrue(web.importedObjCClasses.contains("UIWebView"))
        XCTAssertTrue(web.objcClassRefs.contains("UIWebView"))
        MachOOracle.assertAgrees(web, at: MachOFixtures.url("WebView"))

        let sim = try XCTUnwrap(try MachOFixtures.read("SimKit.framework/SimKit").slices.first)
        XCTAssertEqual(sim.arch, "arm64")
        XCTAssertEqual(sim.platform, "iOS Simulator")
        XCTAssertEqual(sim.minOS, "15.0")

        let bit = try XCTUnwrap(try MachOFixtures.read("BitKit.framework/BitKit").slices.first)
        XCTAssertEqual(bit.segments.map(\.name).filter { $0 == "__LLVM" }, ["__LLVM"])
        XCTAssertEqual(bit.section(segment: "__LLVM", "__bundle")?.size, 8)

        let old = try MachOFixtures.read("Armv7")
        XCTAssertEqual(old.slices.map(\.arch), ["armv7"])
        XCTAssertEqual(old.slices.first?.platform, "iOS")
        XCTAssertEqual(old.slices.first?.minOS, "9.0")
    }
}
