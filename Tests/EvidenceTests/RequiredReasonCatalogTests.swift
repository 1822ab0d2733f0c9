import Foundation
import XCTest

@testable import Evidence

/// The required-reason triggers against the reference facts, and their Objective-C and binary
/// readings.
final class RequiredReasonCatalogTests: XCTestCase {
    typealias API = ProtectedResourceCatalog.RequiredReasonAPI

    static var factsURL: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("../shared/reference/facts/required-reason-apis.json").standardizedFileURL
    }

    /// Every Mach-O symbol the reference lists for a category (symbols, not the prose entries)
    /// is a trigger of that category, and the categories are the manifest catalog's.
    func testTriggersCoverTheReferenceSymbols() throws {
        guard let data = FileManager.default.contents(atPath: Self.factsURL.path) else {
            throw XCTSkip("reference facts not found at \(Self.factsURL.path)")
        }
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let categories = try XCTUnwrap(json["categories"] as? [[String: Any]])
        XCTAssertEqual(Set(categories.compactMap { $0["category"] as? String }),
                       Set(ProtectedResourceCatalog.requiredReasonResources.map(\.key)))
        XCTAssertEqual(Set(PrivacyManifestCatalog.categories.map(\.name)), Set(ProtectedResourceCatalog.requiredReasonResources.map(\.key)))
        for category in categories {
            let name = try XCTUnwrap(category["category"] as? String)
            let resource = try XCTUnwrap(ProtectedResourceCatalog.requiredReason.resource(forKey: name))
            let apis = try XCTUnwrap(category["apis"] as? [String: Any])
            let triggers = Set(resource.triggers.all.map { $0.kind == .objcClass ? "_OBJC_CLASS_$_" + $0.trigger.name : $0.trigger.name })
            for symbol in (apis["macho_symbols"] as? [String] ?? []) where symbol.hasPrefix("_") {
                XCTAssertTrue(triggers.contains(symbol), "\(name): \(symbol) is not a trigger")
            }
            for selector in (apis["objc_selectors"] as? [String] ?? []) {
                let bare = String(selector.split(separator: " ")[0])
                XCTAssertTrue(triggers.contains(bare), "\(name): selector \(bare) is not a trigger")
            }
        }
    }

    func testRequiredReasonResourcesAreKeptApartFromPurposeStrings() {
        XCTAssertTrue(ProtectedResourceCatalog.standard.resources.allSatisfy { !API.isRequiredReason($0.capability) })
        XCTAssertTrue(ProtectedResourceCatalog.requiredReasonResources.allSatisfy { API.isRequiredReason($0.capability) })
        XCTAssertFalse(ProtectedResourceCatalog.requiredReasonResources.contains { $0.platforms.contains(.macOS) },
                       "Apple does not ask macOS apps for required-reason declarations")
    }

    func testBinaryReferencesNameTheirCategories() {
        let matcher = BinaryReferenceMatcher()
        func categories(classes: Set<String> = [], selectors: Set<String> = [], symbols: [String] = []) -> Set<String> {
            Set(matcher.match(BinaryReferences(objcClasses: classes, selectors: selectors, importedSymbols: symbols))
                .filter { API.isRequiredReason($0.capability) }.map(\.capability))
        }
        XCTAssertEqual(categories(symbols: ["_getattrlist"]), [API.fileTimestamp, API.diskSpace], "getattrlist is in both lists")
        XCTAssertEqual(categories(symbols: ["_NSFileSystemFreeSize", "_OBJC_CLASS_$_NSUserDefaults"]), [API.diskSpace, API.userDefaults])
        XCTAssertEqual(categories(selectors: ["systemUptime"]), [], "a selector of that name on another class is not the API")
        XCTAssertEqual(categories(selectors: ["systemUptime"], symbols: ["_OBJC_CLASS_$_NSProcessInfo"]), [API.systemBootTime])
        XCTAssertEqual(categories(symbols: ["_clock_gettime", "_CACurrentMediaTime", "_CFPreferencesCopyAppValue"]), [],
                       "not on Apple's list")
        XCTAssertEqual(categories(symbols: ["_$s7SwiftUI10AppStorageV12wrappedValuexvg"]), [API.userDefaults])
    }

    func testObjectiveCSources() {
        func categories(_ source: String) -> [String] {
            ObjCSourceScanner.scan(source: source, path: "T.m")
                .filter { API.isRequiredReason($0.capability) }
                .map { "\($0.capability) \($0.api)" }.sorted()
        }
        XCTAssertEqual(Set(categories("""
            #import <Foundation/Foundation.h>
            void f(NSString *path) {
                struct stat info;
                if (stat(path.fileSystemRepresentation, &info) == 0) {}
                NSDictionary *a = [[NSFileManager defaultManager] attributesOfItemAtPath:path error:nil];
                NSDate *d = a[NSFileModificationDate];
                BOOL b = [[NSUserDefaults standardUserDefaults] boolForKey:@"k"];
                NSTimeInterval up = [[NSProcessInfo processInfo] systemUptime];
            }
            """).map { String($0.split(separator: " ")[0]) }), [API.fileTimestamp, API.userDefaults, API.systemBootTime])
        let found = Set(categories("""
            #import <UIKit/UIKit.h>
            void g(void) {
                NSArray *modes = [UITextInputMode activeInputModes];
                uint64_t t = mach_absolute_time();
                NSDictionary *fs = [[NSFileManager defaultManager] attributesOfFileSystemForPath:@"/" error:nil];
                NSNumber *free = fs[NSFileSystemFreeSize];
            }
            """).map { String($0.split(separator: " ")[0]) })
        XCTAssertEqual(found, [API.activeKeyboards, API.systemBootTime, API.diskSpace])
        XCTAssertEqual(categories("// [NSUserDefaults standardUserDefaults]\n#if 0\nuint64_t t = mach_absolute_time();\n#endif\n"), [])
    }
}
