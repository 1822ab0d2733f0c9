import Foundation
import Artifacts
import Evidence
import Findings
import Formats

/// What a release manager must know between two versions of an app (two `.ipa`s, an `.ipa`
/// and a project, two checkouts): bundles, permissions and their wording, background modes,
/// device capabilities, minimum OS, entitlements, App Transport Security, contacted domains, privacy-manifest
/// declarations, embedded frameworks and their versions, binary sizes, and findings new and
/// fixed. Bundles are matched by bundle identifier, else by name.
public struct ReleaseDiff: Sendable {
    public struct Change: Sendable, Equatable, Codable {
        /// `bundle`, `permission`, `background-mode`, `device-capability`, `minimum-os`, `version`,
        /// `entitlement`, `ats`, `domain`, `privacy-manifest`, `framework`, `sdk`, `binary-size`, `finding`.
        public var kind: String
        /// `added`, `removed` or `changed`.
        public var change: String
        public var bundle: String?
        /// What changed: a key, a mode, a framework's name, a binary's path, a finding's rule.
        public var item: String
        public var old: String?
        public var new: String?
    }

    public var old: String
    public var new: String
    public var changes: [Change]

    public static func compare(old: (input: LoadedInput, findings: [Finding]), new: (input: LoadedInput, findings: [Finding])) -> ReleaseDiff {
        var changes: [Change] = []
        let oldBundles = old.input.product.bundles, newBundles = new.input.product.bundles
        func key(_ b: AppBundle) -> String { b.identifier ?? "name:" + b.name }
        let oldByKey = Dictionary(oldBundles.map { (key($0), $0) }, uniquingKeysWith: { a, _ in a })
        let newByKey = Dictionary(newBundles.map { (key($0), $0) }, uniquingKeysWith: { a, _ in a })
        // Bundles whose identifier changed are paired by role (the main app with the main app,
        // an extension with the one of the same extension point), so that their permissions
        // are compared instead of all counting as new.
        let renamed = pairByRole(old: oldBundles.filter { newByKey[key($0)] == nil && $0.kind != .framework },
                                 new: newBundles.filter { oldByKey[key($0)] == nil && $0.kind != .framework })
        let renamedOld = Set(renamed.map(\.old.id)), renamedNew = Set(renamed.map(\.new.id))
        for b in newBundles where oldByKey[key(b)] == nil && b.kind != .framework && !renamedNew.contains(b.id) {
            changes.append(Change(kind: "bundle", change: "added", bundle: b.name, item: b.kind.rawValue, old: nil, new: b.identifier))
            // A new bundle's permissions are new permissions (the gate must see them).
            for (k, v) in purposes(b).sorted(by: { $0.key < $1.key }) {
                changes.append(Change(kind: "permission", change: "added", bundle: b.name, item: k, old: nil, new: v))
            }
        }
        for b in oldBundles where newByKey[key(b)] == nil && b.kind != .framework && !renamedOld.contains(b.id) {
            changes.append(Change(kind: "bundle", change: "removed", bundle: b.name, item: b.kind.rawValue, old: b.identifier, new: nil))
        }
        for pair in renamed {
            changes.append(Change(kind: "bundle", change: "changed", bundle: pair.new.name, item: "CFBundleIdentifier",
                                  old: pair.old.identifier ?? pair.old.name, new: pair.new.identifier ?? pair.new.name))
        }
        for b in newBundles where b.kind != .framework {
            if let o = oldByKey[key(b)] {
                changes += bundleChanges(o, b)
            } else if let pair = renamed.first(where: { $0.new.id == b.id }) {
                changes += bundleChanges(pair.old, b)
            }
        }
        let schemes: Set<String> = ["http", "https"]
        changes += domainChanges(URLEvidence.scan(old.input, schemes: schemes).urls, URLEvidence.scan(new.input, schemes: schemes).urls)
        changes += frameworkChanges(oldBundles.filter { $0.kind == .framework }, newBundles.filter { $0.kind == .framework })
        changes += sdkChanges(old.input.product.sdks, new.input.product.sdks)
        changes += sizeChanges(old.input, new.input)
        let oldPrints = Set(old.findings.map(\.fingerprint)), newPrints = Set(new.findings.map(\.fingerprint))
        for f in new.findings where !oldPrints.contains(f.fingerprint) {
            changes.append(Change(kind: "finding", change: "added", bundle: f.bundle, item: f.rule, old: nil, new: f.severity.rawValue + ": " + f.message))
        }
        for f in old.findings where !newPrints.contains(f.fingerprint) {
            changes.append(Change(kind: "finding", change: "removed", bundle: f.bundle, item: f.rule, old: f.severity.rawValue + ": " + f.message, new: nil))
        }
        return ReleaseDiff(old: old.input.product.input, new: new.input.product.input, changes: changes)
    }

    /// A bundle's role in its product: its kind, whether it is the product's main bundle, and
    /// an extension's point (`com.apple.share-services`).
    static func role(_ b: AppBundle) -> String {
        let point = b.infoValue("NSExtension")?.node.dictionary?.entry("NSExtensionPointIdentifier")?.value.string ?? ""
        return [b.kind.rawValue, b.parentID == nil ? "main" : "nested", point].joined(separator: "|")
    }

    /// Unmatched bundles of the two products paired by role: the one of the same role, or among
    /// several of one role the one of the same name; a role with no clear partner stays unpaired.
    static func pairByRole(old: [AppBundle], new: [AppBundle]) -> [(old: AppBundle, new: AppBundle)] {
        var pairs: [(old: AppBundle, new: AppBundle)] = []
        var taken = Set<String>()
        for n in new {
            let candidates = old.filter { role($0) == role(n) && !taken.contains($0.id) }
            let sameRoleNew = new.filter { role($0) == role(n) }
            guard let o = candidates.count == 1 && sameRoleNew.count == 1 ? candidates.first : candidates.first(where: { $0.name == n.name })
            else { continue }
            taken.insert(o.id)
            pairs.append((o, n))
        }
        return pairs
    }

    /// Purpose strings: every `…UsageDescription` key and the catalog's others.
    static func isPurposeKey(_ key: String) -> Bool { key.hasSuffix("UsageDescription") || key == "NSLocationTemporaryUsageDescriptionDictionary" }

    static func bundleChanges(_ o: AppBundle, _ n: AppBundle) -> [Change] {
        var out: [Change] = []
        let name = n.name
        func compareValues(_ kind: String, _ a: [String: String], _ b: [String: String]) {
            for k in Set(a.keys).union(b.keys).sorted() {
                switch (a[k], b[k]) {
                case (nil, let v?): out.append(Change(kind: kind, change: "added", bundle: name, item: k, old: nil, new: v))
                case (let v?, nil): out.append(Change(kind: kind, change: "removed", bundle: name, item: k, old: v, new: nil))
                case (let x?, let y?) where x != y: out.append(Change(kind: kind, change: "changed", bundle: name, item: k, old: x, new: y))
                default: break
                }
            }
        }
        compareValues("permission", purposes(o), purposes(n))
        func set(_ b: AppBundle, _ key: String) -> [String: String] {
            Dictionary((b.infoValue(key)?.node.strings ?? []).map { ($0, $0) }, uniquingKeysWith: { a, _ in a })
        }
        compareValues("background-mode", set(o, "UIBackgroundModes"), set(n, "UIBackgroundModes"))
        compareValues("device-capability", set(o, "UIRequiredDeviceCapabilities"), set(n, "UIRequiredDeviceCapabilities"))
        compareValues("minimum-os", o.minimumOSVersion.map { ["MinimumOSVersion": $0] } ?? [:], n.minimumOSVersion.map { ["MinimumOSVersion": $0] } ?? [:])
        compareValues("version", versions(o), versions(n))
        compareValues("entitlement", flatten(o.entitlements?.root), flatten(n.entitlements?.root))
        compareValues("ats", flatten(o.infoValue("NSAppTransportSecurity")?.node), flatten(n.infoValue("NSAppTransportSecurity")?.node))
        compareValues("privacy-manifest", manifest(o), manifest(n))
        return out
    }

    /// Purpose strings of a bundle, key → the text users read.
    static func purposes(_ b: AppBundle) -> [String: String] {
        var d: [String: String] = [:]
        for k in b.infoKeys where isPurposeKey(k) { d[k] = b.resolvedInfoString(k) ?? describe(b.infoValue(k)?.node) }
        return d
    }

    static func versions(_ b: AppBundle) -> [String: String] {
        var d: [String: String] = [:]
        if let v = b.shortVersion { d["CFBundleShortVersionString"] = v }
        if let v = b.buildVersion { d["CFBundleVersion"] = v }
        return d
    }

    /// Declarations of every privacy manifest of the bundle, one entry each.
    static func manifest(_ b: AppBundle) -> [String: String] {
        var d: [String: String] = [:]
        for file in b.privacyManifests {
            guard let root = file.root?.dictionary else { continue }
            if let t = root["NSPrivacyTracking"]?.bool { d["NSPrivacyTracking"] = t ? "true" : "false" }
            for domain in root["NSPrivacyTrackingDomains"]?.strings ?? [] { d["tracking domain " + domain] = domain }
            for api in root["NSPrivacyAccessedAPITypes"]?.array ?? [] {
                guard let type = api.dictionary?["NSPrivacyAccessedAPIType"]?.string else { continue }
                d["accessed API " + type] = (api.dictionary?["NSPrivacyAccessedAPITypeReasons"]?.strings ?? []).sorted().joined(separator: ", ")
            }
            for data in root["NSPrivacyCollectedDataTypes"]?.array ?? [] {
                guard let type = data.dictionary?["NSPrivacyCollectedDataType"]?.string else { continue }
                d["collected data " + type] = (data.dictionary?["NSPrivacyCollectedDataTypePurposes"]?.strings ?? []).sorted().joined(separator: ", ")
            }
        }
        return d
    }

    /// A plist tree as key path → value, for comparing dictionaries entry by entry.
    static func flatten(_ node: PlistNode?, prefix: String = "", depth: Int = 0) -> [String: String] {
        guard let node, depth < 32 else { return [:] }
        if let dict = node.dictionary {
            var out: [String: String] = [:]
            for e in dict.entries { out.merge(flatten(e.value, prefix: prefix.isEmpty ? e.key : prefix + "." + e.key, depth: depth + 1)) { _, b in b } }
            return out.isEmpty && !prefix.isEmpty ? [prefix: "{}"] : out
        }
        return [prefix: describe(node)]
    }

    static func describe(_ node: PlistNode?) -> String {
        guard let node else { return "" }
        if let s = node.string { return s }
        if let b = node.bool { return b ? "true" : "false" }
        if let a = node.array { return "[" + a.map { describe($0) }.joined(separator: ", ") + "]" }
        if let d = node.dictionary { return "{" + d.entries.map { "\($0.key): \(describe($0.value))" }.joined(separator: ", ") + "}" }
        return "\(node.value)"
    }

    /// Hosts the shipping code names in `http(s)://` URLs (source literals, binary strings), per
    /// bundle, with their schemes: a host added or dropped, or moved to or from plain HTTP.
    static func domainChanges(_ old: [URLLiteral], _ new: [URLLiteral]) -> [Change] {
        func hosts(_ urls: [URLLiteral]) -> [String: [String: String]] {
            var schemes: [String: [String: Set<String>]] = [:]
            for u in urls where u.ships { schemes[u.bundle, default: [:]][u.host, default: []].insert(u.scheme) }
            return schemes.mapValues { $0.mapValues { $0.sorted().joined(separator: ", ") } }
        }
        let o = hosts(old), n = hosts(new)
        var out: [Change] = []
        for bundle in Set(o.keys).union(n.keys).sorted() {
            let a = o[bundle] ?? [:], b = n[bundle] ?? [:]
            for host in Set(a.keys).union(b.keys).sorted() {
                switch (a[host], b[host]) {
                case (nil, let v?): out.append(Change(kind: "domain", change: "added", bundle: bundle, item: host, old: nil, new: v))
                case (let v?, nil): out.append(Change(kind: "domain", change: "removed", bundle: bundle, item: host, old: v, new: nil))
                case (let x?, let y?) where x != y: out.append(Change(kind: "domain", change: "changed", bundle: bundle, item: host, old: x, new: y))
                default: break
                }
            }
        }
        return out
    }

    /// Pods, Swift packages, Carthage dependencies and `.xcframework`s of projects, added,
    /// removed or at another version (embedded frameworks are `framework` changes). An SDK of
    /// Apple's list that is added needs its privacy manifest: ITMS-91061 applies to updates
    /// that add one.
    static func sdkChanges(_ old: [SDKComponent], _ new: [SDKComponent]) -> [Change] {
        func byName(_ list: [SDKComponent]) -> [String: SDKComponent] {
            Dictionary(list.filter { $0.kind != .framework && $0.kind != .resourceBundle }.map { ($0.name + " (" + $0.kind.rawValue + ")", $0) },
                       uniquingKeysWith: { a, _ in a })
        }
        func listed(_ c: SDKComponent) -> String {
            ThirdPartySDKCatalog.listedName(of: c).map { " — on Apple's list of commonly used SDKs (\($0)): needs its own privacy manifest" } ?? ""
        }
        let o = byName(old), n = byName(new)
        var out: [Change] = []
        for k in Set(o.keys).union(n.keys).sorted() {
            switch (o[k], n[k]) {
            case (nil, let v?):
                let text = ((v.version ?? "") + listed(v)).trimmingCharacters(in: CharacterSet(charactersIn: " —"))
                out.append(Change(kind: "sdk", change: "added", bundle: nil, item: k, old: nil, new: text.isEmpty ? nil : text))
            case (let v?, nil): out.append(Change(kind: "sdk", change: "removed", bundle: nil, item: k, old: v.version, new: nil))
            case (let x?, let y?) where x.version != y.version:
                out.append(Change(kind: "sdk", change: "changed", bundle: nil, item: k, old: x.version, new: y.version))
            default: break
            }
        }
        return out
    }

    static func frameworkChanges(_ old: [AppBundle], _ new: [AppBundle]) -> [Change] {
        func byName(_ list: [AppBundle]) -> [String: String] {
            Dictionary(list.map { (PathUtil.lastComponent($0.path), $0.shortVersion ?? "") }, uniquingKeysWith: { a, _ in a })
        }
        let o = byName(old), n = byName(new)
        var out: [Change] = []
        for k in Set(o.keys).union(n.keys).sorted() {
            switch (o[k], n[k]) {
            case (nil, let v?): out.append(Change(kind: "framework", change: "added", bundle: nil, item: k, old: nil, new: v.isEmpty ? nil : v))
            case (let v?, nil): out.append(Change(kind: "framework", change: "removed", bundle: nil, item: k, old: v.isEmpty ? nil : v, new: nil))
            case (let x?, let y?) where x != y: out.append(Change(kind: "framework", change: "changed", bundle: nil, item: k, old: x, new: y))
            default: break
            }
        }
        return out
    }

    /// Binaries whose size changed by more than 1 % (and 1 KB), by their path inside the app.
    static func sizeChanges(_ old: LoadedInput, _ new: LoadedInput) -> [Change] {
        func sizes(_ input: LoadedInput) -> [String: Int64] {
            var d: [String: Int64] = [:]
            let roots = input.product.bundles.map(\.path).filter { !$0.isEmpty }
            let appRoot = roots.min { $0.count < $1.count } ?? ""
            for b in input.product.bundles {
                for p in b.binaryPaths {
                    guard let size = input.index.entry(p)?.size else { continue }
                    let rel = appRoot.isEmpty || !p.hasPrefix(appRoot + "/") ? p : String(p.dropFirst(appRoot.count + 1))
                    d[rel] = size
                }
            }
            return d
        }
        let o = sizes(old), n = sizes(new)
        var out: [Change] = []
        for k in Set(o.keys).intersection(n.keys).sorted() {
            guard let a = o[k], let b = n[k], abs(b - a) > max(1_024, a / 100) else { continue }
            out.append(Change(kind: "binary-size", change: "changed", bundle: nil, item: k, old: "\(a)", new: "\(b)"))
        }
        return out
    }

    // MARK: - Output

    public var addedPermissions: [Change] { changes.filter { $0.kind == "permission" && $0.change == "added" } }
    public var newFindings: [Change] { changes.filter { $0.kind == "finding" && $0.change == "added" } }

    public func text() -> String {
        var out = "Preflight diff: \(old) → \(new)\n"
        if changes.isEmpty { return out + "No changes.\n" }
        for c in changes {
            let bundle = c.bundle.map { "[\($0)] " } ?? ""
            let values: String
            switch c.change {
            case "added": values = c.new.map { ": \($0)" } ?? ""
            case "removed": values = c.old.map { ": \($0)" } ?? ""
            default: values = ": \(c.old ?? "") → \(c.new ?? "")"
            }
            out += "\(c.change == "added" ? "+" : c.change == "removed" ? "-" : "~") \(c.kind) \(bundle)\(c.item)\(values)\n"
        }
        return out
    }

    public func markdown() -> String {
        var out = "# Release diff\n\n`\(old)` → `\(new)`\n\n"
        if changes.isEmpty { return out + "No changes.\n" }
        out += "| change | kind | bundle | item | before | after |\n|---|---|---|---|---|---|\n"
        func cell(_ s: String?) -> String { (s ?? "").replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ") }
        for c in changes {
            out += "| \(c.change) | \(c.kind) | \(cell(c.bundle)) | \(cell(c.item)) | \(cell(c.old)) | \(cell(c.new)) |\n"
        }
        return out
    }

    public func json() throws -> String {
        struct Document: Encodable { var schemaVersion = 1; var old: String; var new: String; var changes: [Change] }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(Document(old: old, new: new, changes: changes)), as: UTF8.self) + "\n"
    }
}
