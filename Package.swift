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
        .trait(name: "Server", description: "`preflight serve`: the HTTP server (docs/server.md), through Hummingbird."),
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
        // The server's HTTP layer (only with the Server trait).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
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
            "PreflightKit", "Formats", "Fleet", "PreflightServer",
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
        // The server: API, tokens, uploads and scan queue on the fleet store, independent of the
        // HTTP library (tested in the default build); the Hummingbird adapter only with the trait.
        .target(name: "PreflightServer", dependencies: [
            "Fleet", "PreflightKit", "Formats",
            .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
        ], path: "Sources/Server"),
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
        // No pkgConfig: zlib's .pc names the system's library folder first on the link line,
        // which would turn the release binary's static libz.a into libz.so.
        .systemLibrary(name: "CPreflightZlib", path: "Sources/CZlib",
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
        .testTarget(name: "ServerTests", dependencies: ["PreflightServer", "Fleet", "PreflightKit", "TestSupport", "Yams"],
                    path: "Tests/ServerTests", exclude: ["Browser"]),
        .testTarget(name: "PreflightKitTests", dependencies: ["PreflightKit", "PreflightCLI", "Fleet", "ZIPFoundation", "TestSupport", "Yams"],
                    path: "Tests/PreflightKitTests", exclude: ["CORPUS.md"]),
    ]
)
