// swift-tools-version:5.9
import PackageDescription

let package = Package(
    name: "Core",
    platforms: [.iOS(.v15)],
    products: [.library(name: "Core", targets: ["Core"])],
    targets: [
        .target(name: "CoreObjC"),
        .target(name: "Core", dependencies: ["CoreObjC"], resources: [.process("Resources")]),
        .testTarget(name: "CoreTests", dependencies: ["Core"]),
    ]
)
