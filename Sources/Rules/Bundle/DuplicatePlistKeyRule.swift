import Foundation
import Artifacts

public struct DuplicatePlistKeyRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "duplicate_plist_key",
        name: "Duplicate Info.plist key",
        summary: "An Info.plist dictionary sets the same key twice; only the last value is used.",
        rationale: """
        CoreFoundation keeps the last occurrence of a repeated key, so the first value — often \
        the one a reviewer reads — is silently ignored. Remove one of them.
        """,
        area: .bundle, severity: .warning,
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts.</string>\n↓<key>NSCameraUsageDescription</key><string></string>")]),
            RuleExample(["App/Info.plist": plistXML("""
                         <key>CFBundleShortVersionString</key>
                         <string>$(MARKETING_VERSION)</string>
                         <key>CFBundleIdentifier</key>
                         <string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>
                         ↓<key>CFBundleShortVersionString</key>
                         <string>1.0</string>
                         """)],
                        note: "The last value wins: the app says 1.0 whatever MARKETING_VERSION is."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts.</string>")]),
            RuleExample(["App/Info.plist": plistXML("""
                         <key>NSAppTransportSecurity</key>
                         <dict>
                         \t<key>NSExceptionDomains</key>
                         \t<dict>
                         \t\t<key>legacy.example.com</key>
                         \t\t<dict>
                         \t\t\t<key>NSExceptionAllowsInsecureHTTPLoads</key>
                         \t\t\t<true/>
                         \t\t</dict>
                         \t\t<key>cdn.example.com</key>
                         \t\t<dict>
                         \t\t\t<key>NSExceptionAllowsInsecureHTTPLoads</key>
                         \t\t\t<true/>
                         \t\t</dict>
                         \t</dict>
                         </dict>
                         """)],
                        note: "The same key in two different dictionaries is not a duplicate."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        for b in context.product.bundles {
            guard let info = b.infoPlist, let root = info.root?.dictionary else { continue }
            for key in root.duplicateKeys {
                let last = root.entries.last { $0.key == key }
                out.append(finding("Info.plist of \(b.name) sets \(key) more than once; only the last value is used",
                                   bundle: b.name, at: FileLocation(path: info.path, position: last?.keyPosition), key: key))
            }
        }
        return out
    }
}
