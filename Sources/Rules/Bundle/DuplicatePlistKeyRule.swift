import Foundation
import Artifacts
import Formats

public struct DuplicatePlistKeyRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "duplicate_plist_key",
        name: "Duplicate Info.plist key",
        summary: "An Info.plist dictionary sets the same key twice; only the last value is used.",
        rationale: """
        CoreFoundation keeps the last occurrence of a repeated key, so the first value — often \
        the one a reviewer reads — is silently ignored. Remove one of them. Nested dictionaries \
        (App Transport Security exception domains, URL types) are checked too; the finding \
        names the key path.
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
            RuleExample(["App/Info.plist": Self.exceptionDomains(["legacy.example.com": """
                         <key>NSExceptionAllowsInsecureHTTPLoads</key><true/>
                         <key>NSIncludesSubdomains</key><true/>
                         ↓<key>NSExceptionAllowsInsecureHTTPLoads</key><false/>
                         """])],
                        note: "A nested dictionary: the exception domain ends up not allowing HTTP after all."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts.</string>")]),
            RuleExample(["App/Info.plist": Self.exceptionDomains([
                "cdn.example.com": "<key>NSExceptionAllowsInsecureHTTPLoads</key><true/>",
                "legacy.example.com": "<key>NSExceptionAllowsInsecureHTTPLoads</key><true/>",
            ])],
                        note: "The same key in two different dictionaries is not a duplicate."),
        ])

    /// An Info.plist whose App Transport Security exception domains are `domains`: domain →
    /// the XML of its dictionary's entries, one per line.
    static func exceptionDomains(_ domains: [String: String]) -> String {
        let entries = domains.sorted { $0.key < $1.key }.map { domain, body in
            "\t\t<key>\(domain)</key>\n\t\t<dict>\n" + body.split(separator: "\n").map { "\t\t\t\($0)\n" }.joined() + "\t\t</dict>"
        }
        return plistXML("<key>NSAppTransportSecurity</key>\n<dict>\n\t<key>NSExceptionDomains</key>\n\t<dict>\n"
                        + entries.joined(separator: "\n") + "\n\t</dict>\n</dict>")
    }

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        for b in context.product.bundles {
            guard let info = b.infoPlist, let root = info.root, root.dictionary != nil else { continue }
            for (keyPath, last) in Self.duplicates(in: root) {
                out.append(finding("Info.plist of \(b.name) sets \(keyPath) more than once; only the last value is used",
                                   bundle: b.name, at: FileLocation(path: info.path, position: last?.keyPosition), key: keyPath))
            }
        }
        return out
    }

    /// The key path and last entry (the one kept) of every key written more than once in a
    /// dictionary of `root`, nested ones and those in arrays included
    /// (`NSAppTransportSecurity.NSExceptionDomains.example.com.NSIncludesSubdomains`,
    /// `CFBundleURLTypes[0].CFBundleURLName`); the root's own keys first, then depth first.
    /// Walked with a stack of its own: a hostile plist nests as deep as the reader allows, more
    /// than a rule's thread stack holds in recursion.
    static func duplicates(in root: PlistNode) -> [(keyPath: String, last: PlistEntry?)] {
        var out: [(String, PlistEntry?)] = []
        var pending: [(node: PlistNode, path: String)] = [(root, "")]
        while let (node, path) = pending.popLast() {
            switch node.value {
            case .dictionary(let d):
                func join(_ key: String) -> String { path.isEmpty ? key : path + "." + key }
                for key in d.duplicateKeys { out.append((join(key), d.entries.last { $0.key == key })) }
                pending += d.entries.reversed().map { ($0.value, join($0.key)) }
            case .array(let items):
                pending += items.enumerated().reversed().map { ($1, "\(path)[\($0)]") }
            default:
                break
            }
        }
        return out
    }
}
