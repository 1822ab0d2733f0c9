import Foundation
import Artifacts
import Formats

public struct CodeSignatureSealBrokenRule: Rule {
    public init() {}

    static let info = InvalidCodeSignatureRule.info("Demo", "com.example.demo")
    static let sealedInfo = ["Demo": "signing/Sealed", "_CodeSignature/CodeResources": "signing/Sealed-CodeResources",
                             "Info.plist": "signing/Sealed-Info.plist"]
    /// The seal and every file it lists, as signed.
    static let sealedApp = sealedInfo.merging(["greeting.txt": "signing/Sealed-greeting.txt"]) { a, _ in a }

    public static let description = RuleDescription(
        identifier: "code_signature_seal_broken",
        name: "Files changed after signing",
        summary: "A signed bundle's files no longer match its code signature: the Info.plist or `_CodeSignature/CodeResources` hash in the CodeDirectory, or a resource added, removed or changed since `CodeResources` sealed it.",
        rationale: """
        A code signature seals more than the executable: its CodeDirectory holds the hash of the \
        bundle's Info.plist and of `_CodeSignature/CodeResources`, and `CodeResources` lists the \
        SHA-256 (`files2`) and SHA-1 (`files`) hash of every other file of the bundle. A file \
        edited, added or deleted after signing — a build phase that runs after "Code Sign", a \
        script that patches the Info.plist or copies a settings file into the built app, an \
        `.ipa` unzipped, changed and zipped again — breaks the seal: App Store Connect rejects \
        the upload (ITMS-90035 "Invalid Signature … the signature was invalid, or it was not \
        signed with an Apple submission certificate"), and iOS refuses to install such a build.

        Preflight hashes the files of each signed app, extension and framework and compares them \
        with the seal, leaving out what `codesign` leaves out (its `omit` rules, nested code, \
        which has its own signature, and what the App Store adds, `SC_Info`). Nested code is \
        compared by presence only, and so are files over 2 MiB and the files past the first \
        32 MiB of a bundle (what is edited after signing is settings and scripts, not media; \
        hashing every byte of a large app would cost more than the rest of the scan).

        Fix: make every step that changes the bundle run before code signing (move the Run Script \
        phase above "Embed"/"Code Sign", or edit the source files instead of the product), then \
        sign again, or export the archive again with Xcode or `xcodebuild -exportArchive`.
        """,
        area: .entitlements, severity: .error, tags: ["signing", "app-store"],
        references: ["https://developer.apple.com/documentation/technotes/tn3126-inside-code-signing-hashes",
                     "https://developer.apple.com/documentation/security/updating-mac-software"],
        itms: ["ITMS-90035"],
        triggering: [
            RuleExample(["Info.plist↓": info],
                        binaryFixtures: ["Demo": "signing/Sealed", "_CodeSignature/CodeResources": "signing/Sealed-CodeResources",
                                         "greeting.txt": "signing/Sealed-greeting.txt"],
                        kind: .app, note: "The Info.plist was edited after signing: its hash no longer matches the CodeDirectory's."),
            RuleExample(["greeting.txt↓": "good bye\n"], binaryFixtures: sealedInfo,
                        kind: .app, note: "A sealed resource changed after signing."),
            RuleExample(["Settings.json↓": "{}"], binaryFixtures: sealedApp,
                        kind: .app, note: "A file copied into the app after signing."),
            RuleExample([:], binaryFixtures: ["Demo": "signing/Sealed", "Info.plist": "signing/Sealed-Info.plist",
                                              "_CodeSignature/CodeResources↓": "signing/Sealed-CodeResources"],
                        kind: .app, note: "A sealed file was deleted (greeting.txt)."),
        ],
        nonTriggering: [
            RuleExample([".DS_Store": "x"], binaryFixtures: sealedApp,
                        kind: .app, note: "Every sealed file as signed; .DS_Store is omitted by codesign's rules."),
            RuleExample(["Info.plist": info, "greeting.txt": "good bye\n"], binaryFixtures: ["Demo": "signing/Release"], kind: .app,
                        note: "A signature that binds no Info.plist and no CodeResources (its special slots are empty) has nothing to compare."),
            RuleExample(["Info.plist": info], binaryFixtures: ["Demo": "signing/Unsigned"], kind: .app,
                        note: "Unsigned code is invalid_code_signature's."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        guard Readiness.builtKinds.contains(context.product.kind), let resources = context.product.resources else { return [] }
        var out: [Finding] = []
        for b in context.product.bundles {
            guard let seal = CodeSignatureSeal(b, resources: resources) else { continue }
            let mismatches = seal.mismatches()
            let fix = "Make every step that edits \(b.name) run before code signing, then sign it again (or export the archive again with Xcode or xcodebuild -exportArchive)."
            for m in mismatches where [.infoPlist, .codeResources, .missingCodeResources].contains(m.kind) {
                let what: String
                switch m.kind {
                case .infoPlist: what = "\(m.path) changed after signing: its hash no longer matches the one in the code signature"
                case .codeResources: what = "\(m.path) changed after signing: its hash no longer matches the one in the code signature"
                default: what = "the code signature seals resources, but \(m.path) is missing"
                }
                out.append(finding("\(b.name): \(what); App Store Connect rejects the upload (ITMS-90035)",
                                   bundle: b.name, at: FileLocation(path: m.path), fix: fix, fingerprint: [m.kind.rawValue]))
            }
            for kind in [CodeSignatureSeal.Mismatch.Kind.changed, .added, .removed] {
                let paths = mismatches.filter { $0.kind == kind }.map(\.path)
                guard let first = paths.first else { continue }
                let shown = paths.prefix(5).map { PathUtil.lastComponent($0) }.joined(separator: ", ") + (paths.count > 5 ? " and \(paths.count - 5) more" : "")
                let what: String
                switch kind {
                case .changed: what = "\(paths.count == 1 ? "a file changed" : "\(paths.count) files changed") after signing (\(shown)): the hash in _CodeSignature/CodeResources no longer matches"
                case .added: what = "\(paths.count == 1 ? "a file" : "\(paths.count) files") added after signing (\(shown)): _CodeSignature/CodeResources does not seal \(paths.count == 1 ? "it" : "them")"
                default: what = "\(paths.count == 1 ? "a sealed file is" : "\(paths.count) sealed files are") missing (\(shown)): _CodeSignature/CodeResources lists \(paths.count == 1 ? "it" : "them")"
                }
                out.append(finding("\(b.name): \(what); App Store Connect rejects the upload (ITMS-90035)",
                                   bundle: b.name, at: FileLocation(path: kind == .removed ? seal.codeResourcesPath : first),
                                   fix: fix, fingerprint: [kind.rawValue]))
            }
        }
        return out
    }
}
