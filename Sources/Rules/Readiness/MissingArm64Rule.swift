import Foundation
import Artifacts
import Formats

public struct MissingArm64Rule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "missing_arm64",
        name: "iOS binary without an arm64 slice",
        summary: "A binary of a built iOS app has device slices, but none for arm64: it contains only 32-bit code (armv7, armv7s).",
        rationale: """
        Every iOS app and framework must contain 64-bit code: App Store Connect has refused \
        32-bit-only binaries since 2015, and iOS 11 and later do not run them at all. A binary \
        with only `armv7`/`armv7s` slices is a framework built long ago; rebuild it (or ask its \
        vendor for a build) with `ARCHS = arm64`.

        Simulator and Mac slices are left to `unsupported_architectures`; watchOS binaries \
        (`arm64_32`, `armv7k`) are not checked.
        """,
        area: .binary, severity: .error, tags: ["app-store", "architectures"],
        references: ["https://developer.apple.com/documentation/xcode/build-settings-reference#Architectures"],
        triggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>"),
                         "Frameworks/Old.framework/Info.plist": plistXML("<key>CFBundleExecutable</key><string>Old</string>")],
                        binaryFixtures: ["Example": "App", "Frameworks/Old.framework/Old↓": "Armv7"],
                        kind: .app, note: "A framework with only an armv7 slice."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>")],
                        binaryFixtures: ["Example↓": "Armv7"], kind: .app, note: "The app itself."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>")],
                        binaryFixtures: ["Example": "App"], kind: .app),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>"),
                         "Frameworks/Tool.framework/Info.plist": plistXML("<key>CFBundleExecutable</key><string>Tool</string>")],
                        binaryFixtures: ["Example": "App", "Frameworks/Tool.framework/Tool": "Fat"],
                        kind: .app, note: "x86_64 beside arm64 is unsupported_architectures' business; arm64 is there."),
        ])

    static let thirtyTwoBit: Set<String> = ["armv7", "armv7s", "armv6", "arm"]

    public func check(_ context: RuleContext) -> [Finding] {
        guard Readiness.builtKinds.contains(context.product.kind) else { return [] }
        var out: [Finding] = []
        for b in context.product.bundles where b.kind != .watchApp {
            for bin in b.binaries {
                guard let macho = bin.macho else { continue }
                let device = macho.slices.filter { Self.thirtyTwoBit.contains($0.arch) || $0.arch.hasPrefix("arm64") && $0.arch != "arm64_32" }
                guard !device.isEmpty, !device.contains(where: { $0.arch.hasPrefix("arm64") }) else { continue }
                out.append(finding("\(bin.path) contains only 32-bit code (\(device.map(\.arch).joined(separator: ", "))) and no arm64 slice; App Store Connect requires 64-bit binaries",
                                   bundle: b.name, at: FileLocation(path: bin.path),
                                   fix: "Rebuild \(PathUtil.lastComponent(bin.path)) with ARCHS = arm64, or replace it by a current build.",
                                   fingerprint: device.map(\.arch)))
            }
        }
        return out
    }
}
