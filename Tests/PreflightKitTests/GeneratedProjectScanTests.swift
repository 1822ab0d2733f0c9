import Foundation
import PreflightKit
import Rules
import XCTest

/// XcodeGen and Tuist fixtures scanned end to end: the framework calls
/// `LAContext.evaluatePolicy`, the share extension links it without declaring
/// NSFaceIDUsageDescription, the app embeds it and declares the key.
final class GeneratedProjectScanTests: XCTestCase {
    static let projects = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Projects")

    func faceIDFindings(_ fixture: String) throws -> [Finding] {
        let result = try PreflightScanner.scan(Self.projects.appendingPathComponent(fixture).path)
        return result.findings.filter { $0.rule == "missing_purpose_string" && $0.message.contains("NSFaceIDUsageDescription") }
    }

    /// The extension's own code calls `Biometrics.unlock`, whose body evaluates the policy: it
    /// reaches the framework's use, an error like its own code.
    func assertExtensionWarned(_ fixture: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let findings = try faceIDFindings(fixture)
        XCTAssertEqual(findings.map(\.bundle), ["Share"], "\(findings.map(\.message))", file: file, line: line)
        XCTAssertEqual(findings.first?.severity, .error, file: file, line: line)
        XCTAssertTrue(findings.first?.message.contains("Core") ?? false, findings.first?.message ?? "", file: file, line: line)
    }

    func testXcodeGenExtensionLinkingTheFramework() throws {
        try assertExtensionWarned("XcodeGen")
    }

    func testTuistExtensionLinkingTheFramework() throws {
        try assertExtensionWarned("Tuist")
    }

    /// Without the key the app embedding the framework is an error: its code is the app's own.
    func testAppEmbeddingTheFrameworkWithoutTheKeyIsAnError() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("preflight-xcodegen-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: Self.projects.appendingPathComponent("XcodeGen"), to: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = folder.appendingPathComponent("project.yml")
        let text = try String(contentsOf: spec, encoding: .utf8)
            .replacingOccurrences(of: "        NSFaceIDUsageDescription: Unlock your notes with Face ID.\n", with: "")
        try text.write(to: spec, atomically: true, encoding: .utf8)
        let findings = try PreflightScanner.scan(folder.path).findings
            .filter { $0.rule == "missing_purpose_string" && $0.message.contains("NSFaceIDUsageDescription") }
        let app = try XCTUnwrap(findings.first { $0.bundle == "Demo" }, "\(findings.map { ($0.bundle, $0.message) })")
        XCTAssertEqual(app.severity, .error)
        XCTAssertEqual(app.file, "project.yml")
    }
}

/// What a Tuist manifest computes with helpers is a note per manifest, never an error.
final class TuistHelperNoteTests: XCTestCase {
    func testHelperCallsAreOneNotePerManifest() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("preflight-tuist-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("""
        import ProjectDescription
        import ProjectDescriptionHelpers

        let project = Project.makeModule(name: "Feature", dependencies: [.core])
        """.utf8).write(to: folder.appendingPathComponent("Project.swift"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("App"), withIntermediateDirectories: true)
        try Data("<plist version=\"1.0\"><dict><key>CFBundleIdentifier</key><string>a</string></dict></plist>".utf8)
            .write(to: folder.appendingPathComponent("App/Info.plist"))
        let findings = try PreflightScanner.scan(folder.path).findings.filter { $0.rule == "unreadable_file" }
        XCTAssertEqual(findings.map(\.severity), [.note], findings.map(\.message).joined(separator: "\n"))
        XCTAssertEqual(findings.first?.line, 4)
    }
}

/// What a `ProjectDescriptionHelpers` function computes is a note located in the helper,
/// once however many manifests call it.
final class TuistHelperFileNoteTests: XCTestCase {
    func testAnUnreadableHelperValueIsOneNoteInTheHelper() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("preflight-tuist-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        func write(_ path: String, _ text: String) throws {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try write("Tuist/ProjectDescriptionHelpers/Project+Module.swift", """
        import ProjectDescription

        extension Project {
            public static func module(name: String) -> Project {
                Project(name: name, targets: [
                    .target(name: name, destinations: .iOS, product: .framework, bundleId: "com.example.\\(name)",
                            deploymentTargets: .iOS(Versions.current.string), sources: ["Sources/**"]),
                ])
            }
        }
        """)
        for module in ["A", "B"] {
            try write("Modules/\(module)/Project.swift", """
            import ProjectDescription
            import ProjectDescriptionHelpers
            let project = Project.module(name: "\(module)")
            """)
            try write("Modules/\(module)/Sources/\(module).swift", "import Foundation\n")
        }
        let result = try PreflightScanner.scan(folder.path)
        XCTAssertEqual(result.product.bundles.map(\.name).sorted(), ["A", "B"])
        let notes = result.findings.filter { $0.rule == "unreadable_file" }
        XCTAssertEqual(notes.map(\.severity), [.note], notes.map(\.message).joined(separator: "\n"))
        XCTAssertEqual(notes.first?.file, "Tuist/ProjectDescriptionHelpers/Project+Module.swift")
        XCTAssertEqual(notes.first?.line, 7)
        XCTAssertFalse(notes.first?.message.contains("more expression") ?? true, notes.first?.message ?? "")
    }
}

/// `.relativeToRoot(…)` paths start at the Tuist root, not at the manifest's folder.
final class TuistRootPathTests: XCTestCase {
    func testRelativeToRootFindsTheFileAtTheRoot() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("preflight-tuist-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        func write(_ path: String, _ text: String) throws {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try write("Tuist/Config.swift", "import ProjectDescription\nlet config = Config()\n")
        try write("Configurations/App.xcconfig", "SWIFT_VERSION = 5.0\n")
        try write("Projects/App/Sources/App.swift", "import UIKit\n")
        try write("Projects/App/Project.swift", """
        import ProjectDescription

        let project = Project(
            name: "App",
            settings: .settings(configurations: [
                .release(name: "Release", xcconfig: .relativeToRoot("Configurations/App.xcconfig")),
            ]),
            targets: [
                .target(name: "App", destinations: .iOS, product: .app, bundleId: "com.example.app",
                        infoPlist: .default, sources: ["Sources/**"]),
            ]
        )
        """)
        let findings = try PreflightScanner.scan(folder.path).findings
        XCTAssertEqual(findings.filter { $0.rule == "missing_project_reference" }.map(\.message), [])
    }
}
