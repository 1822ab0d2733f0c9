import ProjectDescription
import ProjectDescriptionHelpers

let bundlePrefix = "com.example.tuist"
let deployment: DeploymentTargets = .iOS("16.0")

let project = Project(
    name: "Demo",
    settings: .settings(
        base: ["SWIFT_VERSION": "5.0", "MARKETING_VERSION": "1.2.0"],
        configurations: [
            .debug(name: .debug, settings: ["SWIFT_ACTIVE_COMPILATION_CONDITIONS": "DEBUG"]),
            .release(name: .release),
        ]
    ),
    targets: [
        .target(
            name: "Demo",
            destinations: .iOS,
            product: .app,
            bundleId: "\(bundlePrefix).app",
            deploymentTargets: deployment,
            infoPlist: .extendingDefault(with: [
                "CFBundleDisplayName": "Demo",
                "NSFaceIDUsageDescription": "Unlock your notes with Face ID.",
            ]),
            sources: ["App/**"],
            entitlements: "App/Demo.entitlements",
            dependencies: [.target(name: "Share"), .target(name: "Core"), .sdk(name: "LocalAuthentication", type: .framework)]
        ),
        .target(
            name: "Share",
            destinations: .iOS,
            product: .appExtension,
            bundleId: "\(bundlePrefix).app.share",
            deploymentTargets: deployment,
            infoPlist: .file(path: "Share/Info.plist"),
            sources: ["Share/**"],
            dependencies: [.target(name: "Core")]
        ),
        .target(
            name: "Core",
            destinations: .iOS,
            product: .framework,
            bundleId: "\(bundlePrefix).core",
            sources: .paths([.glob("Core/**", excluding: ["Core/Experimental/**"])])
        ),
        .makeWidget(name: "Widget"),
    ]
)
