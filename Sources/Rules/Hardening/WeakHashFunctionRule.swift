import Foundation
import Artifacts
import Evidence
import Formats

public struct WeakHashFunctionRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "weak_hash_function",
        name: "MD5 or SHA-1 imported",
        summary: "An app or extension executable imports MD5 or SHA-1 functions (CommonCrypto `CC_MD5`, `CC_SHA1`, OpenSSL `MD5`, `SHA1`).",
        rationale: """
        MD5 and SHA-1 are broken for collision resistance: they must not protect passwords, \
        signatures, certificates or integrity against an attacker (OWASP MASVS-CRYPTO-1). They \
        remain fine for cache keys, ETags and checksums against accidents — the most common use \
        in apps — and the binary does not show which use it is. So this is a note that names \
        the imported functions and asks for a look at each call, never a warning on the name \
        alone. Frameworks are left out (they are listed per slice by `preflight inspect`, under \
        `hardening`); cipher choices (`kCCAlgorithmDES`, `kCCOptionECBMode`) are integer \
        arguments that leave no symbol, so they are not decidable from a binary at all.

        Fix: for security uses, switch to SHA-256 or better (`CC_SHA256`, CryptoKit \
        `SHA256`), and for passwords a key-derivation function (`CCKeyDerivationPBKDF`). \
        Suppress the note once the calls are known to be non-security uses.
        """,
        area: .binary, severity: .note, tags: ["security", "crypto", "masvs-crypto-1"],
        references: ["https://mas.owasp.org/MASVS/controls/MASVS-CRYPTO-1/",
                     "https://developer.apple.com/documentation/cryptokit/insecure"],
        triggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>")],
                        binaryFixtures: ["Example↓": "Hardened"], kind: .app, note: "The executable imports CC_MD5 and CC_SHA1."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>"),
                         "PlugIns/Share.appex/Info.plist": plistXML("<key>CFBundleExecutable</key><string>Share</string>")],
                        binaryFixtures: ["Example": "App", "PlugIns/Share.appex/Share↓": "Hardened"], kind: .app,
                        note: "An extension's executable."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>")],
                        binaryFixtures: ["Example": "App"], kind: .app),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>"),
                         "Frameworks/MyKit.framework/Info.plist": plistXML("<key>CFBundleExecutable</key><string>MyKit</string>")],
                        binaryFixtures: ["Example": "App", "Frameworks/MyKit.framework/MyKit": "Hardened"], kind: .app,
                        note: "A framework's imports are SDK code: inspect lists them."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        for b in context.product.bundles where b.kind != .framework && b.kind.ships {
            for bin in b.binaries where bin.path == b.executablePath {
                guard let m = bin.macho else { continue }
                let names = Array(Set(m.slices.flatMap { HardeningFacts($0).weakHashes })).sorted()
                guard !names.isEmpty else { continue }
                let shown = names.map { $0.hasPrefix("_") ? String($0.dropFirst()) : $0 }
                out.append(finding("\(bin.path) imports \(shown.joined(separator: ", ")): fine for cache keys and checksums, broken for passwords, signatures and integrity against an attacker; check what each call protects",
                                   bundle: b.name, at: FileLocation(path: bin.path),
                                   evidence: names.map { .symbol(binary: bin.path, symbol: $0) },
                                   fix: "Use SHA-256 (CC_SHA256, CryptoKit SHA256) for security uses and a key-derivation function for passwords.",
                                   fingerprint: names))
            }
        }
        return out
    }
}
