import Foundation
import XCTest
import Formats
@testable import Artifacts

/// The SDK inventory: frameworks and resource bundles of built apps; pods, packages, Carthage
/// dependencies and .xcframeworks of projects; hostile lock files.
final class SDKInventoryTests: XCTestCase {
    static func plist(_ body: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\(body)\n</dict>\n</plist>\n"
    }

    func load(_ files: [String: String], kind: ProductKind) throws -> Product {
        let source = MemorySource(name: kind == .app ? "Example.app" : "Example", files: files.mapValues { Data($0.utf8) })
        return try ProductLoader.load(source: source, kind: kind).product
    }

    func sdk(_ product: Product, _ name: String) throws -> SDKComponent {
        try XCTUnwrap(product.sdks.first { $0.name == name }, "\(name) not in \(product.sdks.map(\.name))")
    }

    static let appFiles = ["Info.plist": plist("<key>CFBundleExecutable</key><string>Example</string>")]

    func testBuiltAppFrameworksAndResourceBundles() throws {
        var files = Self.appFiles
        files["Frameworks/Charts.framework/Info.plist"] = Self.plist(
            "<key>CFBundleIdentifier</key><string>org.cocoapods.Charts</string><key>CFBundleShortVersionString</key><string>3.6.0</string>")
        files["Frameworks/Kingfisher.framework/Info.plist"] = Self.plist("<key>CFBundleShortVersionString</key><string>7.10.0</string>")
        files["Frameworks/Kingfisher.framework/PrivacyInfo.xcprivacy"] = Self.plist("")
        files["GoogleUtilities_Privacy.bundle/PrivacyInfo.xcprivacy"] = Self.plist("")
        files["Settings.bundle/Root.plist"] = Self.plist("")
        let product = try load(files, kind: .app)
        let charts = try sdk(product, "Charts")
        XCTAssertEqual(charts.kind, .framework)
        XCTAssertEqual(charts.version, "3.6.0")
        XCTAssertEqual(charts.identifier, "org.cocoapods.Charts")
        XCTAssertEqual(charts.filesPath, "Frameworks/Charts.framework")
        XCTAssertEqual(charts.privacyManifests, [])
        XCTAssertEqual(charts.signature, .notApplicable)
        XCTAssertEqual(try sdk(product, "Kingfisher").privacyManifests, ["Frameworks/Kingfisher.framework/PrivacyInfo.xcprivacy"])
        let bundle = try sdk(product, "GoogleUtilities_Privacy")
        XCTAssertEqual(bundle.kind, .resourceBundle)
        XCTAssertEqual(bundle.privacyManifests, ["GoogleUtilities_Privacy.bundle/PrivacyInfo.xcprivacy"])
        XCTAssertFalse(product.sdks.contains { $0.name == "Settings" }, "a resource bundle without a manifest is not an SDK")
    }

    static let podfileLock = """
        PODS:
          - Alamofire (5.9.1)
          - FirebaseCore (10.22.0):
            - FirebaseCoreInternal (~> 10.0)
            - GoogleUtilities/Environment (~> 7.12)
          - GoogleUtilities/Environment (7.13.0)
          - GoogleUtilities/Logger (7.13.0)
          - LocalKit (0.1.0)
          - SDWebImage (5.12.0)

        DEPENDENCIES:
          - Alamofire
          - LocalKit (from `../LocalKit`)

        EXTERNAL SOURCES:
          LocalKit:
            :path: "../LocalKit"

        COCOAPODS: 1.15.2

        """

    static let resolvedV2 = """
        {
          "pins" : [
            {
              "identity" : "kingfisher",
              "kind" : "remoteSourceControl",
              "location" : "https://github.com/onevcat/Kingfisher.git",
              "state" : {
                "revision" : "3ec0ab0bca4feb56e8b33e289c9496e89059dd08",
                "version" : "7.10.2"
              }
            },
            {
              "identity" : "snapkit",
              "kind" : "remoteSourceControl",
              "location" : "https://github.com/SnapKit/SnapKit",
              "state" : {
                "branch" : "develop",
                "revision" : "e74fe2a978d1216c3602b129447c7301573cc2d8"
              }
            }
          ],
          "version" : 2
        }
        """

    func projectFiles() -> [String: String] {
        [
            "App/App/Info.plist": Self.plist("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
            "App/Podfile.lock": Self.podfileLock,
            "App/Pods/Alamofire/Source/Alamofire.swift": "",
            "App/Pods/Alamofire/Source/PrivacyInfo.xcprivacy": Self.plist(""),
            "App/Pods/SDWebImage/SDWebImage/Core/SDWebImageManager.m": "",
            "App/Pods/GoogleUtilities/Frameworks/Vendor.xcframework/Info.plist": Self.plist(""),
            "LocalKit/LocalKit/Kit.swift": "",
            "App/App.xcworkspace/xcshareddata/swiftpm/Package.resolved": Self.resolvedV2,
            "App/SourcePackages/checkouts/Kingfisher/Sources/Kingfisher.swift": "",
            "App/SourcePackages/checkouts/Kingfisher/Sources/PrivacyInfo.xcprivacy": Self.plist(""),
            "App/Cartfile.resolved": "github \"ReactiveX/RxSwift\" \"6.5.0\"\nbinary \"https://example.com/FBLPromises.json\" \"2.1.0\"\n",
            "App/Carthage/Build/RxSwift.xcframework/Info.plist": Self.plist(""),
            "App/Carthage/Build/RxSwift.xcframework/_CodeSignature/CodeSignature": "",
            "App/Vendor/Acme.xcframework/Info.plist": Self.plist(""),
            "App/Vendor/Acme.xcframework/ios-arm64/Acme.framework/Info.plist": Self.plist("<key>CFBundleShortVersionString</key><string>2.0</string>"),
        ]
    }

    func testProjectPodsPackagesCarthageAndXCFrameworks() throws {
        let product = try load(projectFiles(), kind: .folder)
        XCTAssertEqual(product.problems, [])
        let alamofire = try sdk(product, "Alamofire")
        XCTAssertEqual(alamofire.kind, .pod)
        XCTAssertEqual(alamofire.version, "5.9.1")
        XCTAssertEqual(alamofire.location, FileLocation(path: "App/Podfile.lock", position: SourcePosition(line: 2, column: 5)))
        XCTAssertEqual(alamofire.filesPath, "App/Pods/Alamofire")
        XCTAssertEqual(alamofire.privacyManifests, ["App/Pods/Alamofire/Source/PrivacyInfo.xcprivacy"])
        let sdweb = try sdk(product, "SDWebImage")
        XCTAssertEqual(sdweb.filesPath, "App/Pods/SDWebImage")
        XCTAssertEqual(sdweb.privacyManifests, [])
        // Pinned but not installed: no files, so nothing can be said about them.
        XCTAssertNil(try sdk(product, "FirebaseCore").filesPath)
        // Subspecs fold into their pod, once, with the first version.
        XCTAssertEqual(product.sdks.filter { $0.name == "GoogleUtilities" }.map(\.version), ["7.13.0"])
        let local = try sdk(product, "LocalKit")
        XCTAssertEqual(local.filesPath, "LocalKit")
        XCTAssertEqual(local.origin, "path: ../LocalKit")

        let kingfisher = try sdk(product, "Kingfisher")
        XCTAssertEqual(kingfisher.kind, .swiftPackage)
        XCTAssertEqual(kingfisher.version, "7.10.2")
        XCTAssertEqual(kingfisher.origin, "https://github.com/onevcat/Kingfisher.git")
        XCTAssertEqual(kingfisher.filesPath, "App/SourcePackages/checkouts/Kingfisher")
        XCTAssertEqual(kingfisher.privacyManifests.count, 1)
        XCTAssertEqual(kingfisher.location.position?.line, 4)
        let snapkit = try sdk(product, "SnapKit")
        XCTAssertEqual(snapkit.version, "develop")
        XCTAssertNil(snapkit.filesPath)

        let rx = try XCTUnwrap(product.sdks.first { $0.name == "RxSwift" && $0.kind == .carthage })
        XCTAssertEqual(rx.version, "6.5.0")
        XCTAssertEqual(rx.filesPath, "App/Carthage/Build/RxSwift.xcframework")
        XCTAssertEqual(try sdk(product, "FBLPromises").origin, "binary https://example.com/FBLPromises.json")

        let xcframeworks = product.sdks.filter { $0.kind == .xcframework }
        XCTAssertEqual(Set(xcframeworks.map(\.name)), ["RxSwift", "Vendor", "Acme"])
        XCTAssertEqual(xcframeworks.first { $0.name == "RxSwift" }?.signature, .signed)
        XCTAssertEqual(xcframeworks.first { $0.name == "RxSwift" }?.signaturePath, "App/Carthage/Build/RxSwift.xcframework/_CodeSignature")
        XCTAssertEqual(xcframeworks.first { $0.name == "Acme" }?.signature, .unsigned)
        XCTAssertEqual(xcframeworks.first { $0.name == "Acme" }?.version, "2.0")
    }

    /// Packages a project references that no Package.resolved pins, with their requirement.
    func testRemotePackageReferencesOfTheProject() throws {
        let pbx = """
            // !$*UTF8*$!
            { archiveVersion = 1; objectVersion = 56; objects = {
            P1 = {isa = PBXProject; buildConfigurationList = PL; mainGroup = G1; targets = (T1); packageReferences = (R1, R2, R3); };
            G1 = {isa = PBXGroup; children = (); sourceTree = "<group>"; };
            PL = {isa = XCConfigurationList; buildConfigurations = (PC); };
            PC = {isa = XCBuildConfiguration; buildSettings = {}; name = Release; };
            T1 = {isa = PBXNativeTarget; buildConfigurationList = TL; buildPhases = (); name = App; productType = "com.apple.product-type.application"; };
            TL = {isa = XCConfigurationList; buildConfigurations = (TC); };
            TC = {isa = XCBuildConfiguration; buildSettings = {PRODUCT_BUNDLE_IDENTIFIER = com.example.app; GENERATE_INFOPLIST_FILE = YES;}; name = Release; };
            R1 = {isa = XCRemoteSwiftPackageReference; repositoryURL = "https://github.com/onevcat/Kingfisher.git"; requirement = {kind = upToNextMajorVersion; minimumVersion = 7.0.0; }; };
            R2 = {isa = XCRemoteSwiftPackageReference; repositoryURL = "https://github.com/SnapKit/SnapKit"; requirement = {kind = exactVersion; version = 5.7.1; }; };
            R3 = {isa = XCRemoteSwiftPackageReference; repositoryURL = "https://github.com/Alamofire/Alamofire"; requirement = {kind = branch; branch = main; }; };
            }; rootObject = P1; }
            """
        let files = ["App.xcodeproj/project.pbxproj": pbx,
                     "App.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved": Self.resolvedV2,
                     "SourcePackages/checkouts/Alamofire/Source/Session.swift": ""]
        let product = try load(files, kind: .project)
        let packages = product.sdks.filter { $0.kind == .swiftPackage }
        XCTAssertEqual(packages.map(\.name), ["Kingfisher", "SnapKit", "Alamofire"], "pinned ones once, from Package.resolved")
        XCTAssertEqual(packages.map(\.recognisedBy), ["Package.resolved pin", "Package.resolved pin", "XCRemoteSwiftPackageReference"])
        let alamofire = try sdk(product, "Alamofire")
        XCTAssertEqual(alamofire.version, "branch main")
        XCTAssertEqual(alamofire.location.path, "App.xcodeproj/project.pbxproj")
        XCTAssertEqual(alamofire.filesPath, "SourcePackages/checkouts/Alamofire")
        XCTAssertEqual(alamofire.privacyManifests, [])
    }

    /// An XcodeGen spec's remote packages, with their requirement, where no project is committed.
    func testXcodeGenPackages() throws {
        let spec = """
            name: App
            packages:
              Alamofire:
                url: https://github.com/Alamofire/Alamofire
                from: 5.8.0
              SnapKit:
                github: SnapKit/SnapKit
                exactVersion: 5.7.1
              Local:
                path: LocalKit
            targets:
              App:
                type: application
                platform: iOS
                sources: [App]
                dependencies:
                  - package: Alamofire
            """
        let product = try load(["project.yml": spec, "App/Info.plist": Self.plist(""), "App/A.swift": "", "LocalKit/Package.swift": ""],
                               kind: .folder)
        let packages = product.sdks.filter { $0.kind == .swiftPackage }
        XCTAssertEqual(packages.map(\.name), ["Alamofire", "SnapKit"])
        XCTAssertEqual(packages.map(\.version), ["from 5.8.0", "exactly 5.7.1"])
        XCTAssertEqual(packages.map(\.origin), ["https://github.com/Alamofire/Alamofire", "https://github.com/SnapKit/SnapKit"])
        XCTAssertEqual(packages.map(\.location.path), ["project.yml", "project.yml"])
        XCTAssertEqual(packages.first?.location.position?.line, 3)
    }

    func testPackageResolvedFormatOneAndThree() throws {
        let v1 = """
            {
              "object": {
                "pins": [
                  { "package": "Alamofire", "repositoryURL": "https://github.com/Alamofire/Alamofire.git",
                    "state": { "branch": null, "revision": "f47", "version": "5.6.4" } },
                  { "package": "swift-log", "repositoryURL": "https://github.com/apple/swift-log", "state": { "branch": "main", "revision": "abc", "version": null } }
                ]
              },
              "version": 1
            }
            """
        let pins = try PackageResolvedReader.read(Data(v1.utf8), path: "Package.resolved", limits: .default)
        XCTAssertEqual(pins.map(\.name), ["Alamofire", "swift-log"])
        XCTAssertEqual(pins.map(\.version), ["5.6.4", nil])
        XCTAssertEqual(pins.map(\.branch), [nil, "main"])
        XCTAssertEqual(pins[0].repositoryName, "Alamofire")
        let v3 = #"{"originHash":"x","pins":[{"identity":"lottie-spm","kind":"remoteSourceControl","location":"https://github.com/airbnb/lottie-spm.git","state":{"revision":"1","version":"4.4.0"}}],"version":3}"#
        let three = try PackageResolvedReader.read(Data(v3.utf8), path: "Package.resolved", limits: .default)
        XCTAssertEqual(three.map(\.identity), ["lottie-spm"])
        XCTAssertEqual(three.map(\.version), ["4.4.0"])
    }

    /// Malformed lock files are load problems with a position, never a crash or silence.
    func testHostileLockFilesAreProblems() throws {
        let cases: [(String, String)] = [
            ("Podfile.lock", "PODS: [unterminated"),
            ("Podfile.lock", "PODS: not a list\n"),
            ("Podfile.lock", "PODS:\n  - Alamofire (5.9.1\n"),
            ("Podfile.lock", "PODS:\n  - {a: 1, b: 2}\n"),
            ("Podfile.lock", "- just\n- a list\n"),
            ("Podfile.lock", String(repeating: "[", count: 10_000)),
            ("Package.resolved", "{\"pins\": 3, \"version\": 2}"),
            ("Package.resolved", "{\"pins\": [1], \"version\": 2}"),
            ("Package.resolved", "{\"pins\": [{}], \"version\": 2}"),
            ("Package.resolved", String(repeating: "[", count: 100_000)),
            ("Package.resolved", "[]"),
            ("Package.resolved", "{\"packages\": [], \"version\": 9}"),
            ("Cartfile.resolved", "github \"a/b\"\n"),
            ("Cartfile.resolved", "svn \"a/b\" \"1\"\n"),
            ("Cartfile.resolved", "github \"a/b \"1\"\n"),
        ]
        for (name, text) in cases {
            var files = ["App/Info.plist": Self.plist("<key>CFBundleIdentifier</key><string>a</string>")]
            files[name] = text
            let product = try load(files, kind: .folder)
            let problem = product.problems.first { $0.path == name }
            guard case .unreadable(let e)? = problem?.kind else {
                XCTFail("\(name) \(text.prefix(40)): no unreadable problem in \(product.problems)")
                continue
            }
            XCTAssertEqual(e.format, name == "Podfile.lock" ? "Podfile.lock" : name == "Package.resolved" ? "Package.resolved" : "Cartfile.resolved", "\(text.prefix(40))")
        }
        // An empty pin list and an empty Podfile.lock are fine and empty.
        let empty = try load(["App/Info.plist": Self.plist(""), "Podfile.lock": "", "Package.resolved": "{\"pins\": [], \"version\": 2}"], kind: .folder)
        XCTAssertEqual(empty.problems, [])
        XCTAssertEqual(empty.sdks, [])
    }

    func testPodfileLockAliasBombStopsAtTheLimit() throws {
        var text = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        for i in 1..<9 { text += "\(Character(UnicodeScalar(97 + i)!)): &\(Character(UnicodeScalar(97 + i)!)) [" + Array(repeating: "*\(Character(UnicodeScalar(96 + i)!))", count: 10).joined(separator: ", ") + "]\n" }
        text += "PODS: *i\n"
        var limits = ReaderLimits.default
        limits.maxPlistObjects = 100_000
        XCTAssertThrowsError(try PodfileLockReader.read(text, path: "Podfile.lock", limits: limits)) { error in
            guard let e = error as? FormatError, case .limitExceeded = e.kind else { return XCTFail("\(error)") }
        }
    }
}
