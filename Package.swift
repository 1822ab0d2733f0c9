// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Preflight",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "preflight", targets: ["preflight"]),
        .library(name: "PreflightKit", targets: ["PreflightKit"]),
        .plugin(name: "PreflightPlugin", targets: ["PreflightPlugin"]),
        .plugin(name: "PreflightBuildPlugin", targets: ["PreflightBuildPlugin"]),
    ],
    // The scanner builds without what only batch mode's shared PostgreSQL store needs
    // (postgres-nio brings swift-nio, swift-nio-ssl and swift-crypto, two BoringSSL builds):
    // `swift build --traits PostgreSQL` (release binaries and the container image) adds it.
    traits: [
        .trait(name: "PostgreSQL", description: "Batch mode's PostgreSQL store (--store postgres://…), through postgres-nio."),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.19"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.0"),
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "600.0.1"),
        // Batch mode's stores (docs/fleet.md): SQLite through GRDB, PostgreSQL through
        // postgres-nio (only with the PostgreSQL trait).
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.3"),
    ],
    targets: [
        .executableTarget(name: "preflight", dependencies: ["PreflightCLI"]),
        // `swift package preflight`: scans the package it runs in with the executable above.
        .plugin(name: "PreflightPlugin",
                capability: .command(intent: .custom(verb: "preflight", description: "Scan this package's app for what App Review rejects")),
                dependencies: ["preflight"]),
        // Build-tool form: findings as build diagnostics on every build (inline in Xcode).
        .plugin(name: "PreflightBuildPlugin", capability: .buildTool(), dependencies: ["preflight"]),
        .target(name: "PreflightCLI", dependencies: [
            "PreflightKit", "Formats", "Fleet",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .target(name: "PreflightKit", dependencies: ["Rules", "Reports", "SwiftSourceScan", "Yams"]),
        // Batch mode: stores, worker processes, sharding. The only module that writes a
        // database, opens a connection or starts a process (ProcessSafetyTests).
        .target(name: "Fleet", dependencies: [
            "PreflightKit", "Findings", "Formats",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
            .product(name: "Logging", package: "swift-log", condition: .when(traits: ["PostgreSQL"])),
        ]),
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
        .testTarget(name: "PreflightKitTests", dependencies: ["PreflightKit", "PreflightCLI", "Fleet", "ZIPFoundation", "TestSupport", "Yams"],
                    path: "Tests/PreflightKitTests", exclude: ["CORPUS.md"]),
    ]
)
