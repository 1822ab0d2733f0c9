import Foundation
import XCTest
@testable import Artifacts
import Formats

/// A target's code closure: linked targets (transitively), pods and package checkouts.
final class CodeClosureTests: XCTestCase {
    func load(_ pbxproj: String, files: [String: String]) throws -> ProjectLoadResult {
        var all = files
        all["App.xcodeproj/project.pbxproj"] = pbxproj
        let source = MemorySource(name: "P", files: all.mapValues { Data($0.utf8) })
        return try XcodeProjectLoader.load(project: "App.xcodeproj", source: source, index: FileIndex(source.entries))
    }

    func project(targets: String, objects: String) -> String {
        """
        // !$*UTF8*$!
        { archiveVersion = 1; objectVersion = 56; objects = {
        P1 = {isa = PBXProject; buildConfigurationList = PL; mainGroup = G1; targets = (\(targets)); };
        G1 = {isa = PBXGroup; children = (); sourceTree = "<group>"; };
        PL = {isa = XCConfigurationList; buildConfigurations = (PC); };
        PC = {isa = XCBuildConfiguration; buildSettings = {}; name = Release; };
        \(objects)
        }; rootObject = P1; }
        """
    }

    func testPodsLinkedThroughTheirXcconfigFlags() throws {
        let pbx = project(targets: "T1", objects: """
        T1 = {isa = PBXNativeTarget; buildConfigurationList = TL; buildPhases = (); name = App; productType = "com.apple.product-type.application"; };
        TL = {isa = XCConfigurationList; buildConfigurations = (TC); };
        TC = {isa = XCBuildConfiguration; buildSettings = {PODS_ROOT = "${SRCROOT}/Pods"; OTHER_LDFLAGS = "$(inherited) -ObjC -l\\"sqlite3\\" -framework \\"Alamofire\\" -framework \\"UIKit\\""; }; name = Release; };
        """)
        let r = try load(pbx, files: ["Pods/Alamofire/Source/Session.swift": "", "Pods/Alamofire/README.md": "",
                                      "Pods/Unlinked/Source/U.swift": ""])
        XCTAssertEqual(r.targets[0].linkedCode, [CodeLink(kind: .pod, name: "Alamofire", files: ["Pods/Alamofire/Source/Session.swift"])],
                       "system frameworks and libraries have no Pods folder; pods the target does not link are not its code")
    }

    func testRemotePackageCheckout() throws {
        let pbx = project(targets: "T1", objects: """
        T1 = {isa = PBXNativeTarget; buildConfigurationList = TL; buildPhases = (); name = App; packageProductDependencies = (D1); productType = "com.apple.product-type.application"; };
        TL = {isa = XCConfigurationList; buildConfigurations = (TC); };
        TC = {isa = XCBuildConfiguration; buildSettings = {}; name = Release; };
        D1 = {isa = XCSwiftPackageProductDependency; package = R1; productName = Kingfisher; };
        R1 = {isa = XCRemoteSwiftPackageReference; repositoryURL = "https://github.com/onevcat/Kingfisher.git"; };
        """)
        let r = try load(pbx, files: ["SourcePackages/checkouts/Kingfisher/Sources/Image.swift": ""])
        XCTAssertEqual(r.targets[0].linkedCode, [CodeLink(kind: .package, name: "Kingfisher", files: ["SourcePackages/checkouts/Kingfisher/Sources/Image.swift"])])
    }

    func testStaticLibraryOfAnEmbeddedFrameworkIsEmbeddedToo() throws {
        let pbx = project(targets: "T1, T2, T3", objects: """
        T1 = {isa = PBXNativeTarget; buildConfigurationList = TL; buildPhases = (E1); name = App; productType = "com.apple.product-type.application"; };
        E1 = {isa = PBXCopyFilesBuildPhase; dstSubfolderSpec = 10; files = (BF1); };
        BF1 = {isa = PBXBuildFile; fileRef = R2; };
        T2 = {isa = PBXNativeTarget; buildConfigurationList = TL; buildPhases = (K2, S2); name = Kit; productReference = R2; productType = "com.apple.product-type.framework"; };
        R2 = {isa = PBXFileReference; path = Kit.framework; sourceTree = BUILT_PRODUCTS_DIR; };
        K2 = {isa = PBXFrameworksBuildPhase; files = (BF3); };
        BF3 = {isa = PBXBuildFile; fileRef = R3; };
        S2 = {isa = PBXSourcesBuildPhase; files = (BS2); };
        BS2 = {isa = PBXBuildFile; fileRef = FS2; };
        FS2 = {isa = PBXFileReference; path = Kit/Kit.swift; sourceTree = SOURCE_ROOT; };
        T3 = {isa = PBXNativeTarget; buildConfigurationList = TL; buildPhases = (); name = Util; productReference = R3; productType = "com.apple.product-type.library.static"; };
        R3 = {isa = PBXFileReference; path = libUtil.a; sourceTree = BUILT_PRODUCTS_DIR; };
        TL = {isa = XCConfigurationList; buildConfigurations = (TC); };
        TC = {isa = XCBuildConfiguration; buildSettings = {}; name = Release; };
        """)
        let r = try load(pbx, files: ["Kit/Kit.swift": ""])
        XCTAssertEqual(r.targets[0].linkedCode, [CodeLink(kind: .target, name: "Kit", embedded: true, files: ["Kit/Kit.swift"]),
                                                 CodeLink(kind: .target, name: "Util", embedded: true)])
        XCTAssertEqual(r.targets[1].linkedCode, [CodeLink(kind: .target, name: "Util")])
        XCTAssertEqual(r.bundles.first { $0.name == "Kit" }.flatMap(r.bundles.parentName), "App")
    }
}
