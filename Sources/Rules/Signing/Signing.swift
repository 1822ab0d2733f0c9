import Foundation
import Artifacts
import Formats

/// What the code-signing rules share: a built bundle's executable signature, the
/// entitlements it claims, and how a provisioning profile's entitlements grant values.
enum Signing {
    /// The bundle's main executable, when it was read.
    static func executable(of bundle: AppBundle) -> BinaryFile? {
        guard let path = bundle.executablePath else { return nil }
        return bundle.binaries.first { $0.path == path && $0.macho != nil }
    }

    /// The first signature among the executable's slices.
    static func signature(of bundle: AppBundle) -> CodeSignature? {
        executable(of: bundle)?.macho?.slices.lazy.compactMap(\.codeSignature).first
    }

    /// The team a built bundle is signed with: the code signature's team identifier, else the
    /// embedded profile's, else the team prefix of the signed application-identifier.
    static func team(of bundle: AppBundle) -> String? {
        if let t = signature(of: bundle)?.teamID, !t.isEmpty { return t }
        if let t = bundle.provisioningProfile?.teamIdentifiers.first, !t.isEmpty { return t }
        if let appID = signedEntitlements(of: bundle)?.entries["application-identifier"]?.string, let dot = appID.firstIndex(of: "."),
           appID.distance(from: appID.startIndex, to: dot) == 10 {
            return String(appID[..<dot])
        }
        return nil
    }

    /// The entitlements the executable's code signature claims (nil for a `.entitlements`
    /// file of a project: what a profile is compared with is what was signed).
    static func signedEntitlements(of bundle: AppBundle) -> (file: PlistFile, entries: PlistDictionary)? {
        guard bundle.entitlementsSource?.hasPrefix("code signature") == true, let file = bundle.entitlements,
              let entries = file.root?.dictionary else { return nil }
        return (file, entries)
    }

    /// Whether a profile's value grants a claimed one. Profiles grant with wildcards: `*` alone
    /// grants any value (`com.apple.developer.associated-domains`, `icloud-services`), and a
    /// pattern such as `TEAM.*` any value it matches (`application-identifier`,
    /// `keychain-access-groups`). An array grants each value one of its items grants; a
    /// claimed array needs every item granted. `false` claims nothing and is always granted.
    /// Dictionaries are not judged.
    static func grants(_ granted: PlistNode, _ claimed: PlistNode) -> Bool {
        switch claimed.value {
        case .bool(let wanted):
            guard wanted else { return true }
            if case .bool(let g) = granted.value { return g }
            return granted.string == "*"
        case .string(let s):
            return patterns(granted).contains { matches($0, s) }
        case .array(let items):
            return items.allSatisfy { grants(granted, $0) }
        case .dictionary:
            return true
        default:
            return granted.value == claimed.value || granted.string == "*"
        }
    }

    static func patterns(_ node: PlistNode) -> [String] {
        if let s = node.string { return [s] }
        return node.strings
    }

    /// Glob matching where `*` stands for any run of characters (Apple's profiles put it last).
    static func matches(_ pattern: String, _ value: String) -> Bool {
        guard pattern.contains("*") else { return pattern == value }
        let parts = pattern.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
        var rest = Substring(value)
        guard rest.hasPrefix(parts[0]) else { return false }
        rest = rest.dropFirst(parts[0].count)
        for (i, part) in parts.enumerated().dropFirst() {
            if i == parts.count - 1 { return part.isEmpty || rest.hasSuffix(part) }
            guard let r = rest.range(of: part) else { return false }
            rest = rest[r.upperBound...]
        }
        return true
    }

    /// A short rendering of a plist value for a message.
    static func describe(_ node: PlistNode) -> String {
        switch node.value {
        case .string(let s): return "'\(s)'"
        case .bool(let b): return b ? "true" : "false"
        case .integer(let i): return String(i)
        case .array(let items):
            let shown = items.prefix(4).map(describe).joined(separator: ", ")
            return "[" + shown + (items.count > 4 ? ", … (\(items.count) values)" : "") + "]"
        default: return "a \(node.value.typeName)"
        }
    }

    /// The profile as a message names it: "the App Store profile 'Name'".
    static func name(_ profile: ProvisioningProfile) -> String {
        "the \(profile.kindName) provisioning profile" + (profile.name.map { " '\($0)'" } ?? "")
    }

    static func day(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withFullDate]
        return f.string(from: date)
    }
}
