import Foundation
import Artifacts
import Evidence
import Formats

public struct NonPIEExecutableRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "non_pie_executable",
        name: "Executable without PIE",
        summary: "An executable slice of a built app lacks the MH_PIE flag, so it loads at a fixed address.",
        rationale: """
        A position-independent executable (`MH_PIE` in the Mach-O header) is loaded at a random \
        address (ASLR), which makes code-reuse exploits much harder. Apple's linker sets it by \
        default for every iOS target and it cannot be turned off for arm64 in current Xcode, \
        so a slice without it comes from an old toolchain, a custom link step (`-no_pie`) or a \
        tampered binary. Only executables are checked: dylibs and bundles are always \
        position-independent. The flag is read per slice, as `llvm-objdump --macho \
        --private-header` prints it.

        Fix: relink without `-no_pie` (remove it from `OTHER_LDFLAGS`) with a current Xcode.
        """,
        area: .binary, severity: .warning, tags: ["security", "hardening", "masvs-resilience"],
        references: ["https://developer.apple.com/library/archive/qa/qa1788/_index.html"],
        triggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>")],
                        binaryFixtures: ["Example↓": "NoPIE"], kind: .app, note: "An arm64 executable linked with `-no_pie`."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>"),
                         "PlugIns/Share.appex/Info.plist": plistXML("<key>CFBundleExecutable</key><string>Share</string>")],
                        binaryFixtures: ["Example": "Hardened", "PlugIns/Share.appex/Share↓": "NoPIE"], kind: .app,
                        note: "Extensions' executables are checked too."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>")],
                        binaryFixtures: ["Example": "Hardened"], kind: .app),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>")],
                        binaryFixtures: ["Example": "App", "Frameworks/MyKit.framework/MyKit": "MyKit.framework/MyKit"], kind: .app,
                        note: "A dylib has no MH_PIE flag and needs none."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        for b in context.product.bundles {
            for bin in b.binaries {
                guard let m = bin.macho else { continue }
                // Simulator and Mac slices are unsupported_architectures' (they must go, PIE or not).
                let foreign = UnsupportedArchitecturesRule.unsupported(m)
                let bad = m.slices.filter { s in HardeningFacts(s).pie == false && !foreign.contains { $0.arch == s.arch && $0.platform == s.platform } }
                guard !bad.isEmpty else { continue }
                out.append(finding("\(bin.path) is an executable without MH_PIE in \(bad.map(\.arch).joined(separator: ", ")): it loads at a fixed address, without ASLR",
                                   bundle: b.name, at: FileLocation(path: bin.path),
                                   evidence: bad.map { .symbol(binary: bin.path, symbol: "\($0.arch) flags 0x\(String($0.flags, radix: 16))") },
                                   fix: "Relink without -no_pie (check OTHER_LDFLAGS) with a current Xcode.", fingerprint: bad.map(\.arch)))
            }
        }
        return out
    }
}
