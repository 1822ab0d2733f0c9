import Foundation
import Artifacts
import Evidence
import Formats
import Rules

/// The privacy manifest each bundle needs for the required-reason APIs its code uses: the
/// bundle's manifest with an `NSPrivacyAccessedAPITypes` entry added for every category
/// `required_reason_api_undeclared` reports, the most likely reason chosen from the evidence,
/// and what a person must decide. What the team wrote is kept byte for byte: entries are
/// inserted into the XML text, never re-serialized.
public struct PrivacyManifestDraft: Sendable, Equatable {
    public struct Choice: Sendable, Equatable {
        public var category: String
        public var reasons: [String]
        /// Why these reasons, from the evidence.
        public var why: String
        /// What the evidence cannot tell (another reason may fit better).
        public var decide: String?
        /// Where the category's APIs are used (up to three).
        public var seenAt: [String]
    }

    public var bundle: String
    /// The manifest's path in the input (existing, or where a new one goes).
    public var path: String
    public var exists: Bool
    public var choices: [Choice]
    /// The whole manifest after the change; nil when it cannot be changed as text.
    public var text: String?
    /// Why `text` is nil, or what else the person must do (add a new file to its target).
    public var remark: String?
}

public enum PrivacyManifestDrafting {
    /// Drafts for the bundles (all, or the one named) whose code needs declarations.
    public static func drafts(_ loaded: LoadedInput, configuration: Configuration = Configuration(), bundle only: String? = nil) -> [PrivacyManifestDraft] {
        let evidence = EvidenceIndex.build(loaded, scanners: PreflightScanner.sourceScanners(limits: configuration.limits), limits: configuration.limits)
        let findings = RequiredReasonAPIUndeclaredRule().check(RuleContext(product: loaded.product, evidence: evidence))
        var out: [PrivacyManifestDraft] = []
        for b in loaded.product.bundles where only == nil || b.name == only {
            let categories = Set(findings.filter { $0.bundle == b.name }.compactMap(\.key)).sorted()
            guard !categories.isEmpty else { continue }
            let uses = evidence.requiredReasonUsages.filter { $0.bundle == b.name && $0.ships }
            let choices = categories.map { category in choice(category, uses: uses.filter { $0.key == category }, bundle: b) }
            out.append(draft(b, choices: choices, loaded: loaded))
        }
        return out
    }

    static func choice(_ category: String, uses: [Usage], bundle: AppBundle) -> PrivacyManifestDraft.Choice {
        let seen = Array(Set(uses.map(UsageText.short)).sorted().prefix(3))
        switch category {
        case "NSPrivacyAccessedAPICategoryUserDefaults":
            let suites = uses.contains { $0.api.contains("suiteName") }
            let plain = uses.contains { !$0.api.contains("suiteName") }
            var reasons: [String] = []
            if plain || !suites { reasons.append("CA92.1") }
            if suites { reasons.append("1C8F.1") }
            return .init(category: category, reasons: reasons,
                         why: suites ? "UserDefaults(suiteName:) reads an App Group suite (1C8F.1)" + (plain ? "; other uses read the app's own defaults (CA92.1)" : "")
                                     : "the code reads and writes the app's own defaults (CA92.1)",
                         decide: "AC6B.1 if the code reads com.apple.configuration.managed (managed app configuration).", seenAt: seen)
        case "NSPrivacyAccessedAPICategoryFileTimestamp":
            return .init(category: category, reasons: ["C617.1"], why: "the usual case: timestamps of files in the app's own or App Group container",
                         decide: "DDA9.1 if the timestamps are shown to the person; 3B52.1 for files the person picked (document picker).", seenAt: seen)
        case "NSPrivacyAccessedAPICategorySystemBootTime":
            return .init(category: category, reasons: ["35F9.1"], why: "elapsed time between events and timers is the common use",
                         decide: "8FFB.1 if absolute event timestamps are computed from it and leave the device.", seenAt: seen)
        case "NSPrivacyAccessedAPICategoryDiskSpace":
            return .init(category: category, reasons: ["E174.1"], why: "checking for space before writing or cleaning up on low space is the common use",
                         decide: "85F4.1 if the free space is shown to the person.", seenAt: seen)
        case "NSPrivacyAccessedAPICategoryActiveKeyboards":
            let keyboard = bundle.infoValue("NSExtension")?.node.dictionary?["NSExtensionPointIdentifier"]?.string == "com.apple.keyboard-service"
            return .init(category: category, reasons: [keyboard ? "3EC4.1" : "54BD.1"],
                         why: keyboard ? "the bundle is a custom keyboard extension (3EC4.1)" : "the app adapts its UI to the active keyboards (54BD.1)",
                         decide: nil, seenAt: seen)
        default:
            return .init(category: category, reasons: [], why: "no reason is known for this category", decide: "Choose a reason from Apple's list.", seenAt: seen)
        }
    }

    static func draft(_ b: AppBundle, choices: [PrivacyManifestDraft.Choice], loaded: LoadedInput) -> PrivacyManifestDraft {
        let entries = choices.map(entryXML).joined()
        let own = b.privacyManifests.first { PathUtil.parent($0.path) == b.path } ?? b.privacyManifests.first
        if let own {
            var draft = PrivacyManifestDraft(bundle: b.name, path: own.path, exists: true, choices: choices, text: nil, remark: nil)
            guard let data = try? loaded.source.read(own.path), let text = String(data: data, encoding: .utf8), text.contains("<plist") else {
                draft.remark = "the manifest is not an XML property list: add the entries by hand"
                return draft
            }
            draft.text = insert(entries, into: text)
            if draft.text == nil { draft.remark = "the manifest's root dictionary could not be found in its text: add the entries by hand" }
            return draft
        }
        let folder = b.infoPlist.map { PathUtil.parent($0.path) } ?? b.path
        let path = folder.isEmpty ? "PrivacyInfo.xcprivacy" : folder + "/PrivacyInfo.xcprivacy"
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>NSPrivacyAccessedAPITypes</key>
            \t<array>
            \(entries)\t</array>
            </dict>
            </plist>

            """
        let remark = [ProductKind.project, .folder].contains(loaded.product.kind)
            ? "a new file: add it to the \(b.name) target's Copy Bundle Resources (a synchronized folder takes it by itself)" : nil
        return PrivacyManifestDraft(bundle: b.name, path: path, exists: false, choices: choices, text: text, remark: remark)
    }

    static func entryXML(_ c: PrivacyManifestDraft.Choice) -> String {
        "\t\t<dict>\n\t\t\t<key>NSPrivacyAccessedAPIType</key>\n\t\t\t<string>\(c.category)</string>\n"
            + "\t\t\t<key>NSPrivacyAccessedAPITypeReasons</key>\n\t\t\t<array>\n"
            + c.reasons.map { "\t\t\t\t<string>\($0)</string>\n" }.joined() + "\t\t\t</array>\n\t\t</dict>\n"
    }

    /// The text with the entries added: at the end of an existing `NSPrivacyAccessedAPITypes`
    /// array, else as a new key before the root dictionary closes. Nil when neither is found.
    static func insert(_ entries: String, into text: String) -> String? {
        if let key = text.range(of: "<key>NSPrivacyAccessedAPITypes</key>") {
            let after = text[key.upperBound...]
            let trimmed = after.drop { $0.isWhitespace }
            if trimmed.hasPrefix("<array/>") {
                let start = text.index(key.upperBound, offsetBy: after.count - trimmed.count)
                let end = text.index(start, offsetBy: "<array/>".count)
                return text.replacingCharacters(in: start..<end, with: "<array>\n" + entries + "\t</array>")
            }
            guard trimmed.hasPrefix("<array>"), let close = closingTag("array", in: text, from: text.index(key.upperBound, offsetBy: after.count - trimmed.count)) else {
                return nil
            }
            let lineStart = text[..<close].lastIndex(of: "\n").map { text.index(after: $0) } ?? close
            return String(text[..<lineStart]) + entries + String(text[lineStart...])
        }
        guard let plistOpen = text.range(of: "<plist"), let dictOpen = text.range(of: "<dict>", range: plistOpen.upperBound..<text.endIndex),
              let close = closingTag("dict", in: text, from: dictOpen.lowerBound) else { return nil }
        let lineStart = text[..<close].lastIndex(of: "\n").map { text.index(after: $0) } ?? close
        let addition = "\t<key>NSPrivacyAccessedAPITypes</key>\n\t<array>\n" + entries + "\t</array>\n"
        return String(text[..<lineStart]) + addition + String(text[lineStart...])
    }

    /// The `</tag>` that closes the `<tag>` at `start`, counting nested ones (comments and
    /// CDATA hold no such tags in a manifest Preflight already parsed).
    static func closingTag(_ tag: String, in text: String, from start: String.Index) -> String.Index? {
        var depth = 0
        var i = start
        let open = "<\(tag)>", selfClosing = "<\(tag)/>", closing = "</\(tag)>"
        while i < text.endIndex, let lt = text[i...].firstIndex(of: "<") {
            let rest = text[lt...]
            if rest.hasPrefix(open) {
                depth += 1
            } else if rest.hasPrefix(closing) {
                depth -= 1
                if depth == 0 { return lt }
            } else if rest.hasPrefix(selfClosing) {
                // an empty element: no depth change
            }
            i = text.index(after: lt)
        }
        return nil
    }

    /// Text for a terminal: each bundle, its file, each choice with why and what to decide.
    public static func text(_ drafts: [PrivacyManifestDraft], wrote: Set<String> = []) -> String {
        guard !drafts.isEmpty else { return "Every bundle declares the required-reason APIs its code uses.\n" }
        var out = ""
        for d in drafts {
            let state = wrote.contains(d.path) ? "written" : (d.exists ? "to update" : "to create")
            out += "\(d.bundle): \(d.path) (\(state))\n"
            for c in d.choices {
                out += "  \(c.category): \(c.reasons.joined(separator: ", ")) — \(c.why)\n"
                if !c.seenAt.isEmpty { out += "    seen at: \(c.seenAt.joined(separator: "; "))\n" }
                if let decide = c.decide { out += "    decide: \(decide)\n" }
            }
            if let remark = d.remark { out += "  note: \(remark)\n" }
            if let text = d.text, !wrote.contains(d.path) { out += "\n" + text.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n") + "\n" }
        }
        return out
    }
}

enum UsageText {
    static func short(_ u: Usage) -> String {
        switch u.location {
        case .source(let p, let l, _): return "\(u.api) at \(p):\(l)"
        case .binary(let p, _): return "\(u.api) in \(p)"
        }
    }
}
