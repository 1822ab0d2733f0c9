import Foundation
import Artifacts
import Formats

public struct EmbeddedBitcodeRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "embedded_bitcode",
        name: "Binary contains bitcode",
        summary: "A binary of a built app still carries embedded bitcode (an `__LLVM` segment).",
        rationale: """
        Xcode 14 deprecated bitcode and App Store Connect no longer accepts it: an upload whose \
        executables or frameworks contain bitcode is rejected with ITMS-90482 ("Invalid \
        Executable. The executable … contains bitcode"). It comes from vendored frameworks built \
        with an older Xcode and `ENABLE_BITCODE = YES`. Ask the vendor for a current build, or \
        strip it before archiving (`xcrun bitcode_strip -r Framework -o Framework`).
        """,
        area: .binary, severity: .error, tags: ["app-store", "architectures"],
        references: ["https://developer.apple.com/documentation/xcode-release-notes/xcode-14-release-notes"],
        itms: ["ITMS-90482"],
        triggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>"),
                         "Frameworks/BitKit.framework/Info.plist": plistXML("<key>CFBundleExecutable</key><string>BitKit</string>")],
                        binaryFixtures: ["Example": "App", "Frameworks/BitKit.framework/BitKit↓": "BitKit.framework/BitKit"],
                        kind: .app, note: "A vendored framework with an `__LLVM,__bundle` section."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>")],
                        binaryFixtures: ["Example": "App", "Frameworks/libbit.dylib↓": "BitKit.framework/BitKit"],
                        kind: .app, note: "A loose dylib is checked too."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>"),
                         "Frameworks/MyKit.framework/Info.plist": plistXML("<key>CFBundleExecutable</key><string>MyKit</string>")],
                        binaryFixtures: ["Example": "App", "Frameworks/MyKit.framework/MyKit": "MyKit.framework/MyKit"], kind: .app),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleExecutable</key><string>App</string>")],
                        binaryFixtures: ["Vendor/BitKit.framework/BitKit": "BitKit.framework/BitKit"],
                        note: "Source folders are not uploads: Xcode strips bitcode when it archives (STRIP_BITCODE_FROM_COPIED_FILES)."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        guard Readiness.builtKinds.contains(context.product.kind) else { return [] }
        var out: [Finding] = []
        for b in context.product.bundles {
            for bin in b.binaries {
                guard let macho = bin.macho else { continue }
                let withBitcode = macho.slices.filter { s in
                    s.segments.contains { $0.name == "__LLVM" || $0.sections.contains { $0.segment == "__LLVM" } }
                }
                guard !withBitcode.isEmpty else { continue }
                out.append(finding("\(bin.path) contains bitcode (an __LLVM segment in \(withBitcode.map(\.arch).joined(separator: ", "))); App Store Connect rejects it (ITMS-90482)",
                                   bundle: b.name, at: FileLocation(path: bin.path),
                                   fix: "Strip it with `xcrun bitcode_strip -r \(PathUtil.lastComponent(bin.path)) -o \(PathUtil.lastComponent(bin.path))`, or use a build made with Xcode 14 or later.",
                                   fingerprint: withBitcode.map(\.arch)))
            }
        }
        return out
    }
}
