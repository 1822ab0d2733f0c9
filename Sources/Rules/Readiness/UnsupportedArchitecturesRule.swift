import Foundation
import Artifacts
import Formats

public struct UnsupportedArchitecturesRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "unsupported_architectures",
        name: "Simulator or Mac slices in an iOS upload",
        summary: "A binary of a built iOS app contains slices for the Simulator (x86_64, i386, or arm64 built for the iOS Simulator) or for macOS.",
        rationale: """
        App Store Connect rejects an upload whose executables contain architectures devices \
        cannot run (ITMS-90087 "Unsupported Architectures. Your executable contains unsupported \
        architectures '[x86_64, i386]'"). The slices come from "fat" vendored frameworks built \
        for the device and the Simulator at once, or from a framework copied out of a Simulator \
        build. Since Apple silicon, an arm64 slice may be a Simulator slice too: Preflight reads \
        the platform of each slice's `LC_BUILD_VERSION`. Replace the framework by its \
        `.xcframework` (Xcode picks the right slice), or strip the slices before archiving \
        (`lipo -remove x86_64`).

        A product whose main executable is itself a Simulator build is reported once: it \
        cannot be uploaded at all.
        """,
        area: .binary, severity: .error, tags: ["app-store", "architectures"],
        references: ["https://developer.apple.com/documentation/xcode/creating-a-multi-platform-binary-framework-bundle"],
        itms: ["ITMS-90087"],
        triggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>"),
                         "Frameworks/Tool.framework/Info.plist": plistXML("<key>CFBundleExecutable</key><string>Tool</string>")],
                        binaryFixtures: ["Example": "App", "Frameworks/Tool.framework/Tool↓": "Fat"],
                        kind: .app, note: "A fat framework with an x86_64 Simulator slice next to arm64."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>"),
                         "Frameworks/SimKit.framework/Info.plist": plistXML("<key>CFBundleExecutable</key><string>SimKit</string>")],
                        binaryFixtures: ["Example": "App", "Frameworks/SimKit.framework/SimKit↓": "SimKit.framework/SimKit"],
                        kind: .app, note: "An arm64 slice built for the iOS Simulator: same architecture, wrong platform."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>"),
                         "Frameworks/MyKit.framework/Info.plist": plistXML("<key>CFBundleExecutable</key><string>MyKit</string>")],
                        binaryFixtures: ["Example": "App", "Frameworks/MyKit.framework/MyKit": "MyKit.framework/MyKit"], kind: .app),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleExecutable</key><string>App</string>")],
                        binaryFixtures: ["Vendor/Tool.framework/Tool": "Fat"],
                        note: "In a source folder, a fat framework is fine: Xcode strips it when it embeds it (or the .xcframework picks a slice)."),
        ])

    static let simulatorOrMac: Set<String> = ["iOS Simulator", "macOS", "Mac Catalyst", "tvOS Simulator", "watchOS Simulator", "visionOS Simulator"]

    /// Slices no iOS device runs.
    static func unsupported(_ macho: MachOFile) -> [MachOSlice] {
        macho.slices.filter { s in s.arch == "x86_64" || s.arch == "i386" || s.platform.map(simulatorOrMac.contains) == true }
    }

    static func describe(_ s: MachOSlice) -> String { "\(s.arch)\(s.platform.map { " (\($0))" } ?? "")" }

    public func check(_ context: RuleContext) -> [Finding] {
        guard Readiness.builtKinds.contains(context.product.kind) else { return [] }
        let main = context.product.bundles.first { $0.kind == .app }
        // A Simulator build as a whole: one finding on its executable.
        if let main, let exe = main.binaries.first(where: { $0.path == main.executablePath }), let macho = exe.macho,
           !macho.slices.isEmpty, Self.unsupported(macho).count == macho.slices.count {
            let slices = macho.slices.map(Self.describe).joined(separator: ", ")
            return [finding("\(exe.path) contains only \(slices): this is a Simulator or Mac build, which App Store Connect cannot accept (ITMS-90087)",
                            bundle: main.name, at: FileLocation(path: exe.path),
                            fix: "Archive for \"Any iOS Device (arm64)\" and upload the archive's .ipa.", fingerprint: ["simulator-build"])]
        }
        var out: [Finding] = []
        for b in context.product.bundles {
            for bin in b.binaries {
                guard let macho = bin.macho else { continue }
                let bad = Self.unsupported(macho)
                guard !bad.isEmpty else { continue }
                let list = bad.map(Self.describe).joined(separator: ", ")
                out.append(finding("\(bin.path) contains \(bad.count == 1 ? "a slice" : "slices") for \(list), which no iOS device runs (ITMS-90087)",
                                   bundle: b.name, at: FileLocation(path: bin.path),
                                   fix: "Embed the vendor's .xcframework instead, or remove the slices (lipo -remove \(bad[0].arch)) before archiving.",
                                   fingerprint: bad.map(\.arch)))
            }
        }
        return out
    }
}
