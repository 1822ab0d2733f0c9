// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Preflight",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "preflight", targets: ["preflight"]),
        .library(name: "PreflightKit", targets: ["PreflightKit"]),
        .plugin(name: "PreflightPlugin", targets: ["PreflightPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.19"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.0"),
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "600.0.1"),
    ],
    targets: [
        .executableTarget(name: "preflight", dependencies: ["PreflightCLI"]),
        // `swift package preflight`: scans the package it runs in with the executable above.
        .plugin(name: "PreflightPlugin",
                capability: .command(intent: .custom(verb: "preflight", description: "Scan this package's app for what App Review rejects")),
                dependencies: ["preflight"]),
        .target(name: "PreflightCLI", dependencies: [
            "PreflightKit", "Formats",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .target(name: "PreflightKit", dependencies: ["Rules", "Reports", "SwiftSourceScan", "Yams"]),
        // Reporters read findings only: the finding module depends on Foundation alone.
        .target(name: "Reports", dependencies: ["Findings"]),
        .target(name: "Findings"),
        .target(name: "Rules", dependencies: ["Evidence", "Findings"]),
        .target(name: "Evidence", dependencies: ["Artifacts"]),
        // The only target that links swift-syntax; nothing else imports it.
        .target(name: "SwiftSourceScan", dependencies: [
            "Evidence", "Artifacts", "Formats",
            .product(name: "SwiftSyntax", package: "swift-syntax"),
            .product(name: "SwiftParser", package: "swift-syntax"),
        ]),
        // zlib's inflate, driven directly: ZIPFoundation's Linux inflater lets zlib read past
        // a short input chunk (docs/robustness.md, "Hostile-input suite").
        .systemLibrary(name: "CPreflightZlib", path: "Sources/CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .target(name: "Artifacts", dependencies: ["Formats", "CPreflightZlib", "Yams"]),
        .target(name: "Formats"),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .target(name: "FuzzHarness", dependencies: ["Formats", "Artifacts"], path: "Fuzz/Harness"),
        .testTarget(name: "FormatsTests", dependencies: ["Formats", "TestSupport", "FuzzHarness"], path: "Tests/FormatsTests"),
        .testTarget(name: "ArtifactsTests", dependencies: ["Artifacts", "ZIPFoundation", "TestSupport", "FuzzHarness"], path: "Tests/ArtifactsTests"),
        .testTarget(name: "RulesTests", dependencies: ["Rules", "SwiftSourceScan"], path: "Tests/RulesTests"),
        .testTarget(name: "EvidenceTests", dependencies: ["Evidence"], path: "Tests/EvidenceTests"),
        .testTarget(name: "SwiftSourceScanTests", dependencies: ["SwiftSourceScan", "Evidence", "Formats"],
                    path: "Tests/SwiftSourceScanTests"),
        .testTarget(name: "PreflightKitTests", dependencies: ["PreflightKit", "PreflightCLI", "ZIPFoundation", "TestSupport", "Yams"],
                    path: "Tests/PreflightKitTests", exclude: ["CORPUS.md"]),
    ]
)
