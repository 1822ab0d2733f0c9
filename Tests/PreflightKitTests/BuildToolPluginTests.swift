import XCTest
import TestSupport
import Foundation

/// The build-tool plugin (`Plugins/PreflightBuildPlugin`) in a real `swift build` of a sample
/// package: the plugin's source as committed, and the `preflight` executable of this build
/// handed to it as an artifact bundle (what a release's binary target would be), so the sample
/// builds in seconds instead of compiling Preflight again.
final class BuildToolPluginTests: XCTestCase {
    /// A package whose app target applies the plugin; `extra` files are copied into its folder.
    func samplePackage(withApp: Bool) throws -> URL {
        let root = try Scratch.folder("plugin-sample")
        let fm = FileManager.default
        let plugin = root.appendingPathComponent("Plugins/PreflightBuildPlugin")
        try fm.createDirectory(at: plugin, withIntermediateDirectories: true)
        try fm.copyItem(at: CLITests.packageRoot.appendingPathComponent("Plugins/PreflightBuildPlugin/PreflightBuildPlugin.swift"),
                        to: plugin.appendingPathComponent("PreflightBuildPlugin.swift"))
        let bundle = root.appendingPathComponent("preflight.artifactbundle")
        try fm.createDirectory(at: bundle.appendingPathComponent("bin"), withIntermediateDirectories: true)
        try fm.copyItem(at: CLITests.executable, to: bundle.appendingPathComponent("bin/preflight"))
        try Data("""
        {"schemaVersion": "1.0", "artifacts": {"preflight": {"type": "executable", "version": "0.0.0",
          "variants": [{"path": "bin/preflight", "supportedTriples": ["\(try Self.hostTriple())"]}]}}}
        """.utf8).write(to: bundle.appendingPathComponent("info.json"))
        let sources = root.appendingPathComponent("Sources/Sample")
        try fm.createDirectory(at: sources, withIntermediateDirectories: true)
        try Data("print(\"sample\")\n".utf8).write(to: sources.appendingPathComponent("main.swift"))
        try Data("""
        // swift-tools-version:6.1
        import PackageDescription
        let package = Package(name: "Sample", targets: [
            .binaryTarget(name: "preflight", path: "preflight.artifactbundle"),
            .plugin(name: "PreflightBuildPlugin", capability: .buildTool(), dependencies: ["preflight"]),
            .executableTarget(name: "Sample", plugins: ["PreflightBuildPlugin"]),
        ])
        """.utf8).write(to: root.appendingPathComponent("Package.swift"))
        if withApp {
            // The app's Xcode project beside Package.swift, broken on purpose (Examples/DemoApp).
            for item in try fm.contentsOfDirectory(atPath: CLITests.demo) where item != "README.md" {
                try fm.copyItem(at: URL(fileURLWithPath: CLITests.demo).appendingPathComponent(item), to: root.appendingPathComponent(item))
            }
        }
        return root
    }

    static func hostTriple() throws -> String {
        let info = try swift(["-print-target-info"], in: FileManager.default.temporaryDirectory)
        let doc = try JSONSerialization.jsonObject(with: Data(info.output.utf8)) as? [String: Any]
        let target = doc?["target"] as? [String: Any]
        return try XCTUnwrap(target?["unversionedTriple"] as? String ?? target?["triple"] as? String)
    }

    static func swift(_ args: [String], in folder: URL) throws -> (status: Int32, output: String) {
        try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["swift"] + args, in: folder, environment: ["NO_COLOR": "1"])
    }

    /// Errors in the app fail the build and are printed as `file:line:col: error:` diagnostics;
    /// fixing nothing and building again runs the scan again (it is never skipped as up to date
    /// while the build is failing).
    func testFindingsOfTheAppBesideThePackageFailTheBuildAsDiagnostics() throws {
        let root = try samplePackage(withApp: true)
        let build = try Self.swift(["build"], in: root)
        XCTAssertNotEqual(build.status, 0, build.output)
        XCTAssertTrue(build.output.contains("Info.plist:"), build.output)
        XCTAssertNotNil(build.output.range(of: #"\.(plist|strings|xcprivacy):\d+:\d+: error: .*\[missing_purpose_string\]"#,
                                           options: .regularExpression), build.output)
        XCTAssertTrue(build.output.contains("Preflight"), "the command's name in the build log:\n\(build.output)")
        let again = try Self.swift(["build"], in: root)
        XCTAssertNotEqual(again.status, 0, again.output)
        XCTAssertTrue(again.output.contains("[missing_purpose_string]"), again.output)
    }

    /// A package with nothing to report builds, and the command's output file exists.
    func testACleanPackageBuilds() throws {
        let root = try samplePackage(withApp: false)
        let build = try Self.swift(["build"], in: root)
        XCTAssertEqual(build.status, 0, build.output)
        XCTAssertFalse(build.output.contains(" error: "), build.output)
        let stamps = FileManager.default.enumerator(atPath: root.appendingPathComponent(".build").path)?
            .compactMap { $0 as? String }.filter { $0.hasSuffix("Sample+Preflight.swift") } ?? []
        XCTAssertFalse(stamps.isEmpty, "the build command ran and left its output")
    }
}
