import Foundation
import Artifacts

public struct PayloadNotAtRootRule: Rule {
    public init() {}

    static let info = plistXML("<key>CFBundleExecutable</key><string>Demo</string>\n<key>CFBundleIdentifier</key><string>com.example.demo</string>")

    public static let description = RuleDescription(
        identifier: "ipa_payload_not_at_root",
        name: "Payload folder not at the root of the .ipa",
        summary: "An `.ipa` holds its app in a `Payload` folder one level down (or spelled otherwise than `Payload`); Preflight read it, App Store Connect and installers do not.",
        rationale: """
        An `.ipa` is a ZIP archive with the app at `Payload/<Name>.app`. An archive made by \
        zipping the folder that contains `Payload` (`zip -r App.ipa build/` instead of running \
        `zip` inside `build/`), or with the folder named `payload`, has the app elsewhere: \
        Transporter and App Store Connect refuse it as an invalid IPA, and devices will not \
        install it. Preflight still reads the app it finds one folder down, and says so, so that \
        a clean scan of the app is not taken for a clean archive.

        Fix: zip from inside the folder that holds `Payload` (`cd build && zip -qr ../App.ipa Payload`), \
        or export the archive with Xcode or `xcodebuild -exportArchive`.
        """,
        area: .bundle, severity: .note, tags: ["app-store", "structure"],
        references: ["https://developer.apple.com/documentation/xcode/distributing-your-app-for-beta-testing-and-releases"],
        triggering: [
            RuleExample(["build/Payload↓/Demo.app/Info.plist": info], kind: .ipa, note: "The folder that holds Payload was zipped."),
            RuleExample(["payload↓/Demo.app/Info.plist": info], kind: .ipa, note: "Payload spelled in lower case."),
        ],
        nonTriggering: [
            RuleExample(["Payload/Demo.app/Info.plist": info], kind: .ipa),
            RuleExample(["Payload/Demo.app/Info.plist": info, "iTunesMetadata.plist": plistXML(""), "Symbols/ABC.symbols": "x"], kind: .ipa,
                        note: "What the App Store and Xcode add beside Payload is fine."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        context.product.problems.compactMap { p in
            guard case .payloadNotAtRoot = p.kind else { return nil }
            let nested = p.path.contains("/")
            return finding(nested ? "the app is in \(p.path), not in a Payload folder at the root of the archive: it was read from there, but App Store Connect and devices refuse such an .ipa"
                                  : "the app's folder is named \(p.path), not Payload: it was read, but App Store Connect and devices expect Payload/<Name>.app",
                           bundle: nil, at: FileLocation(path: p.path),
                           fix: nested ? "Zip from inside \(PathUtil.parent(p.path)) (cd \(PathUtil.parent(p.path)) && zip -qr ../App.ipa Payload), or export with xcodebuild -exportArchive."
                                       : "Rename the folder to Payload and zip again, or export with xcodebuild -exportArchive.",
                           fingerprint: [p.path])
        }
    }
}
