import Foundation
import Artifacts
import Formats

public struct InvalidCodeSignatureRule: Rule {
    public init() {}

    static func info(_ executable: String, _ id: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>CFBundleIdentifier</key><string>\(id)</string>
        \t<key>CFBundleExecutable</key><string>\(executable)</string>
        </dict>
        </plist>
        """
    }

    public static let description = RuleDescription(
        identifier: "invalid_code_signature",
        name: "Missing or invalid code signature",
        summary: "A binary of a built app has a code signature that cannot be read, or an .ipa ships a binary with no signature or without a certificate.",
        rationale: """
        Every Mach-O file of an uploaded app — the app, its extensions, frameworks and dylibs — \
        must carry a code signature made with the distribution certificate of the embedded \
        provisioning profile. Preflight reads the signature's structure without Apple's \
        certificates, so it reports what can be decided from the bytes:

        - **ITMS-90035 (invalid signature)**: `LC_CODE_SIGNATURE` points at data that is not a \
        well-formed SuperBlob, CodeDirectory or CMS SignedData — usually a binary patched or \
        stripped after signing (`strip`, `install_name_tool`, a build phase that edits the \
        binary), or a truncated copy;
        - **ITMS-90034 (missing signature)**, in an `.ipa` only: a binary with no \
        `LC_CODE_SIGNATURE` at all (a build made with `CODE_SIGNING_ALLOWED=NO` and zipped by \
        hand), or one signed ad hoc, with no certificate, in an app that carries a \
        provisioning profile (a framework copied in after signing).

        An unsigned `.app` or `.xcarchive` is not reported: simulator and CI builds are signed at \
        export. Whether the certificate is Apple's and still valid needs Apple's trust store and \
        is not checked; which certificate signed is compared with the profile by \
        `signing_certificate_not_in_profile`.

        Fix: sign after every step that edits a binary (Xcode's "Code Sign On Copy" for embedded \
        frameworks), and export the archive with Xcode or `xcodebuild -exportArchive` rather than \
        zipping the Products folder.
        """,
        area: .entitlements, severity: .error, tags: ["signing", "app-review"],
        references: [
            "https://developer.apple.com/documentation/technotes/tn3126-inside-code-signing-hashes",
            "https://developer.apple.com/documentation/xcode/distributing-your-app-for-beta-testing-and-releases",
        ],
        itms: ["ITMS-90034", "ITMS-90035"],
        triggering: [
            RuleExample(["Info.plist": info("Demo", "com.example.demo")], binaryFixtures: ["Demo↓": "signing/BadSignature"], kind: .app,
                        note: "The SuperBlob's magic was overwritten after signing."),
            RuleExample(["Info.plist": info("Demo", "com.example.demo"), "PlugIns/Share.appex/Info.plist": info("Share", "com.example.demo.share")],
                        binaryFixtures: ["Demo": "signing/Release", "PlugIns/Share.appex/Share↓": "signing/BadSignature"], kind: .app,
                        note: "An extension edited after it was signed."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": info("Demo", "com.example.demo")],
                        binaryFixtures: ["Demo": "signing/Release", "embedded.mobileprovision": "signing/appstore.mobileprovision"], kind: .app),
            RuleExample(["Info.plist": info("Demo", "com.example.demo")], binaryFixtures: ["Demo": "signing/Unsigned"], kind: .app,
                        note: "An unsigned .app (a simulator or CI build) is signed when it is exported; only an .ipa must be signed already."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        guard Readiness.builtKinds.contains(context.product.kind) else { return [] }
        let isIPA = context.product.kind == .ipa
        let hasProfile = context.product.bundles.contains { $0.provisioningProfile != nil }
        var out: [Finding] = []
        for b in context.product.bundles where b.kind.ships {
            for binary in b.binaries {
                guard let macho = binary.macho else { continue }
                let place = FileLocation(path: binary.path)
                for slice in macho.slices {
                    let fix = "Sign \(binary.path) again after the step that changed it (export the archive with Xcode or xcodebuild -exportArchive)."
                    if let error = slice.codeSignatureError ?? slice.codeSignature?.cmsError {
                        out.append(finding("\(b.name): the code signature of \(binary.path) (\(slice.arch)) is invalid: \(error.reason) at offset \(error.offset.map { "0x" + String($0, radix: 16) } ?? "?"); App Store Connect rejects it (ITMS-90035)",
                                           bundle: b.name, at: place, fix: fix, fingerprint: [binary.path, slice.arch, "invalid"]))
                    } else if UnsupportedArchitecturesRule.unsupported(macho).contains(where: { $0.arch == slice.arch && $0.platform == slice.platform }) {
                        // A Simulator or Mac slice is unsupported_architectures' (one error, with the fix that applies).
                        continue
                    } else if isIPA, slice.codeSignature == nil {
                        out.append(finding("\(b.name): \(binary.path) (\(slice.arch)) has no code signature (no LC_CODE_SIGNATURE): App Store Connect rejects an .ipa with unsigned code (ITMS-90034)",
                                           bundle: b.name, at: place, fix: fix, fingerprint: [binary.path, slice.arch, "missing"]))
                    } else if isIPA, hasProfile, let sig = slice.codeSignature, sig.isAdHoc, !sig.hasCMSSignature {
                        out.append(finding("\(b.name): \(binary.path) (\(slice.arch)) is signed ad hoc, with no certificate, although the app carries a provisioning profile: App Store Connect rejects it (ITMS-90034)",
                                           bundle: b.name, at: place, fix: fix, fingerprint: [binary.path, slice.arch, "adhoc"]))
                    }
                }
            }
        }
        return out
    }
}
