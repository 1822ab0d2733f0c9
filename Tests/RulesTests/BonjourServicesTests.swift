import XCTest
@testable import Artifacts
import Evidence
import Formats
@testable import Rules

/// `bonjour_services` on built apps: browses and service types seen in binaries.
final class BonjourServicesTests: XCTestCase {
    func app(_ services: [String]?) throws -> AppBundle {
        var b = AppBundle(name: "Demo.app", kind: .app, path: "Payload/Demo.app")
        let list = services.map { "<key>NSBonjourServices</key><array>" + $0.map { "<string>\($0)</string>" }.joined() + "</array>" } ?? ""
        let xml = "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>CFBundleIdentifier</key><string>com.acme.demo</string>\(list)</dict></plist>"
        b.infoPlistPath = "Payload/Demo.app/Info.plist"
        b.infoPlist = PlistFile(path: "Payload/Demo.app/Info.plist", root: try PropertyListReader.read(Data(xml.utf8)).root)
        return b
    }

    func browse(in bundle: String, binary: String) -> Usage {
        Usage(capability: "local_network", key: "NSLocalNetworkUsageDescription", api: "NSNetServiceBrowser",
              location: .binary(path: binary, symbol: "_OBJC_CLASS_$_NSNetServiceBrowser"), bundle: bundle, strength: .definite)
    }

    func type(_ t: String, in bundle: String, binary: String) -> BonjourServiceType {
        BonjourServiceType(type: t, location: .binary(path: binary, symbol: t + "."), bundle: bundle)
    }

    func check(_ bundles: [AppBundle], usages: [Usage], types: [BonjourServiceType]) -> [Finding] {
        let context = RuleContext(product: Product(kind: .app, input: "Demo.ipa", bundles: bundles),
                                  evidence: EvidenceIndex(usages: usages, bonjourServiceTypes: types))
        return BonjourServicesRule().check(context)
    }

    func testABinaryBrowseNeedsTheListAndEveryTypeItNames() throws {
        let exe = "Payload/Demo.app/Demo"
        let none = check([try app(nil)], usages: [browse(in: "Demo.app", binary: exe)], types: [])
        XCTAssertEqual(none.map(\.file), ["Payload/Demo.app/Info.plist"], "\(none.map(\.message))")
        let listed = check([try app(["_ipp._tcp"])], usages: [browse(in: "Demo.app", binary: exe)],
                           types: [type("_ipp._tcp", in: "Demo.app", binary: exe), type("_raop._tcp", in: "Demo.app", binary: exe)])
        XCTAssertEqual(listed.map(\.fingerprintParts), [["_raop._tcp"]])
        XCTAssertEqual(listed.first?.file, exe)
        XCTAssertNil(listed.first?.line)
    }

    func testAnEmbeddedFrameworkBrowsesForTheAppThatEmbedsIt() throws {
        let host = try app(nil)
        let kit = AppBundle(name: "CastKit.framework", kind: .framework, path: "Payload/Demo.app/Frameworks/CastKit.framework", parentID: host.id)
        let f = check([host, kit], usages: [browse(in: "CastKit.framework", binary: "Payload/Demo.app/Frameworks/CastKit.framework/CastKit")], types: [])
        XCTAssertEqual(f.map(\.bundle), ["Demo.app"])
    }

    func testNoBrowseNoFinding() throws {
        let f = check([try app(nil)], usages: [], types: [type("_ipp._tcp", in: "Demo.app", binary: "Payload/Demo.app/Demo")])
        XCTAssertEqual(f.count, 0, "a service type alone may be advertised, which the list does not limit")
    }
}
