import XCTest
import TestSupport
import Foundation
import PreflightKit

/// A project's shipping targets are read for secrets, key files and user databases in the files
/// they copy (Resources phase, folder references, synchronized folders); files no shipping
/// target copies are never read.
final class ProjectResourceSecretsTests: XCTestCase {
    static let stores = SecretMaskingTests.machO.appendingPathComponent("stores")
    static let stripe = SecretMaskingTests.resourceSecrets["stripe"]!
    static let google = SecretMaskingTests.resourceSecrets["google"]!

    func fixture() throws -> URL {
        let dir = try Scratch.folder("project-secrets")
        let project = exampleProject(targets: [
            ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"], sources: ["App/App.swift"],
                          embeds: ["Widget"],
                          resources: ["App/config.json", "App/Seed", "App/GoogleService-Info.plist", "App/Assets.xcassets"]),
            ExampleTarget("Widget", type: "app-extension", settings: ["INFOPLIST_FILE": "Widget/Info.plist"],
                          synchronizedFolders: ["Widget"]),
            ExampleTarget("AppTests", type: "bundle.unit-test", settings: ["INFOPLIST_FILE": "AppTests/Info.plist"],
                          resources: ["AppTests/fixture.json"]),
        ])
        let secret = "{ \"stripe\": \"\(Self.stripe)\" }\n"
        let files: [String: Data] = [
            "App.xcodeproj/project.pbxproj": Data(project.utf8),
            "App/Info.plist": Data(plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>").utf8),
            "App/App.swift": Data("import UIKit\n".utf8),
            "App/config.json": Data("{\n  \"name\": \"demo\",\n  \"stripe\": \"\(Self.stripe)\"\n}\n".utf8),
            "App/Seed/keys.json": Data(secret.utf8),
            "App/Seed/users.sqlite": try Data(contentsOf: Self.stores.appendingPathComponent("seed-users.sqlite")),
            "App/GoogleService-Info.plist": Data(plistXML("<key>API_KEY</key><string>\(Self.google)</string>").utf8),
            "App/Assets.xcassets/Config.dataset/config.json": Data(secret.utf8),
            "App/Unused.json": Data(secret.utf8),
            "Widget/Info.plist": Data(plistXML("<key>CFBundleIdentifier</key><string>com.example.app.widget</string>\n<key>NSExtension</key><dict/>").utf8),
            "Widget/client.p12": try Data(contentsOf: Self.stores.appendingPathComponent("client.p12")),
            "AppTests/Info.plist": Data(plistXML("<key>CFBundleIdentifier</key><string>com.example.tests</string>").utf8),
            "AppTests/fixture.json": Data(secret.utf8),
            "scripts/deploy.json": Data(secret.utf8),
            "docs/server.p12": try Data(contentsOf: Self.stores.appendingPathComponent("client.p12")),
        ]
        for (path, data) in files {
            let url = dir.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        return dir
    }

    func testCopiedFilesAreReadAndOthersAreNot() throws {
        var config = Configuration()
        config.includeTests = true
        let findings = try PreflightScanner.scan(try fixture().path, configuration: config).findings
        let secrets = findings.filter { $0.rule == "shipped_secret" }
        XCTAssertEqual(secrets.compactMap(\.file).sorted(), ["App/Seed/keys.json", "App/config.json"], "\(secrets.map(\.message))")
        XCTAssertEqual(secrets.first { $0.file == "App/config.json" }?.line, 3)
        XCTAssertEqual(Set(secrets.map(\.bundle)), ["App"])
        XCTAssertTrue(secrets.allSatisfy { $0.severity == .error && !$0.message.contains(Self.stripe) })

        let keys = findings.filter { $0.rule == "shipped_private_key_file" }
        XCTAssertEqual(keys.map(\.file), ["Widget/client.p12"])
        XCTAssertEqual(keys.map(\.bundle), ["Widget"])

        let databases = findings.filter { $0.rule == "shipped_user_database" }
        XCTAssertEqual(databases.map(\.file), ["App/Seed/users.sqlite"])
    }

    /// A Swift package: what a target's `resources:` names ships with every app that links it.
    func testPackageResources() throws {
        let dir = try Scratch.folder("package-secrets")
        let manifest = """
        // swift-tools-version:5.9
        import PackageDescription

        let package = Package(
            name: "Kit",
            targets: [
                .target(name: "Kit", resources: [.process("Resources"), .copy("seed.json")]),
                .testTarget(name: "KitTests", dependencies: ["Kit"], resources: [.copy("Fixtures")]),
            ]
        )
        """
        let secret = "{ \"stripe\": \"\(Self.stripe)\" }\n"
        let files = [
            "Package.swift": manifest,
            "Sources/Kit/Kit.swift": "public struct Kit {}\n",
            "Sources/Kit/Resources/config.json": secret,
            "Sources/Kit/seed.json": secret,
            "Sources/Kit/notes.json": secret,
            "Tests/KitTests/KitTests.swift": "import Kit\n",
            "Tests/KitTests/Fixtures/stub.json": secret,
        ]
        for (path, text) in files {
            let url = dir.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        var config = Configuration()
        config.includeTests = true
        let secrets = try PreflightScanner.scan(dir.path, configuration: config).findings.filter { $0.rule == "shipped_secret" }
        XCTAssertEqual(secrets.compactMap(\.file).sorted(), ["Sources/Kit/Resources/config.json", "Sources/Kit/seed.json"],
                       "\(secrets.map(\.message))")
    }
}
