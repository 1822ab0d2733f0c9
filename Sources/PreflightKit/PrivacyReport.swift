import Foundation
import Artifacts
import Evidence
import Formats

/// Every privacy manifest, tracking domain and purpose string of a product in one place, like
/// Xcode's privacy report: a draft of the App Store "App Privacy" answers. Data types are
/// merged across manifests (linked or tracking if any manifest says so, purposes united), each
/// with the bundles whose manifests declare it — the app's own or an SDK's.
public struct PrivacyReport: Sendable, Codable, Equatable {
    public struct DataType: Sendable, Codable, Equatable {
        public var type: String
        /// App Store Connect's group ("Contact Info", "Location").
        public var group: String
        public var linkedToIdentity: Bool
        public var usedForTracking: Bool
        /// App Store Connect's purpose labels.
        public var purposes: [String]
        public var declaredBy: [String]
    }

    public struct Manifest: Sendable, Codable, Equatable {
        public var bundle: String
        public var path: String
        public var tracking: Bool
        public var trackingDomains: [String]
        public var collectedDataTypes: [String]
        /// Category → reasons.
        public var accessedAPIs: [String: [String]]
    }

    public struct PurposeString: Sendable, Codable, Equatable {
        public var bundle: String
        public var key: String
        public var value: String
    }

    public var schemaVersion = 1
    public var input: String
    public var tracks: Bool
    public var trackingDomains: [String]
    public var dataTypes: [DataType]
    public var manifests: [Manifest]
    /// Shipping bundles with code and no manifest of their own.
    public var bundlesWithoutManifest: [String]
    public var purposeStrings: [PurposeString]

    public init(_ product: Product) {
        input = product.input
        var manifests: [Manifest] = []
        var merged: [String: DataType] = [:]
        for b in product.bundles where b.kind.ships {
            for file in b.privacyManifests {
                guard let root = file.root?.dictionary else { continue }
                let domains = root["NSPrivacyTrackingDomains"]?.array?.compactMap(\.string) ?? []
                var collected: [String] = []
                for entry in root["NSPrivacyCollectedDataTypes"]?.array ?? [] {
                    guard let d = entry.dictionary, let type = d["NSPrivacyCollectedDataType"]?.string else { continue }
                    collected.append(type)
                    let purposes = (d["NSPrivacyCollectedDataTypePurposes"]?.array ?? []).compactMap(\.string).map { p in
                        PrivacyManifestCatalog.purposes.first { $0.value == p }?.label ?? p
                    }
                    let group = PrivacyManifestCatalog.dataTypes.first { $0.value == type }?.label ?? "Unknown type"
                    var current = merged[type] ?? DataType(type: type, group: group, linkedToIdentity: false, usedForTracking: false,
                                                           purposes: [], declaredBy: [])
                    current.linkedToIdentity = current.linkedToIdentity || d["NSPrivacyCollectedDataTypeLinked"]?.bool == true
                    current.usedForTracking = current.usedForTracking || d["NSPrivacyCollectedDataTypeTracking"]?.bool == true
                    current.purposes = Array(Set(current.purposes + purposes)).sorted()
                    if !current.declaredBy.contains(b.name) { current.declaredBy.append(b.name) }
                    merged[type] = current
                }
                var apis: [String: [String]] = [:]
                for entry in root["NSPrivacyAccessedAPITypes"]?.array ?? [] {
                    guard let d = entry.dictionary, let category = d["NSPrivacyAccessedAPIType"]?.string else { continue }
                    apis[category, default: []] += (d["NSPrivacyAccessedAPITypeReasons"]?.array ?? []).compactMap(\.string)
                }
                manifests.append(Manifest(bundle: b.name, path: file.path, tracking: root["NSPrivacyTracking"]?.bool == true,
                                          trackingDomains: domains, collectedDataTypes: collected, accessedAPIs: apis))
            }
        }
        self.manifests = manifests
        tracks = manifests.contains { $0.tracking }
        trackingDomains = Array(Set(manifests.flatMap(\.trackingDomains))).sorted()
        dataTypes = merged.values.sorted { ($0.group, $0.type) < ($1.group, $1.type) }
        let codeKinds: Set<BundleKind> = [.app, .appExtension, .appClip, .watchApp, .framework]
        bundlesWithoutManifest = product.bundles.filter { codeKinds.contains($0.kind) && $0.privacyManifests.isEmpty }.map(\.name)
        var strings: [PurposeString] = []
        for b in product.bundles where b.kind.ships {
            let keys = Set((b.infoPlist?.root?.dictionary?.keys ?? []) + b.generatedInfoPlistKeys.keys).filter { $0.hasSuffix("UsageDescription") }
            for key in keys.sorted() {
                guard let value = b.infoValue(key)?.node.string else { continue }
                strings.append(PurposeString(bundle: b.name, key: key, value: value))
            }
        }
        purposeStrings = strings
    }

    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
    }

    /// Text or Markdown (the same content: headings, then one line per item).
    public func render(markdown: Bool) -> String {
        var out = markdown ? "# Privacy report\n\n" : "Privacy report for \(input)\n\n"
        func heading(_ s: String) { out += markdown ? "## \(s)\n\n" : "\(s)\n" + String(repeating: "-", count: s.count) + "\n" }
        func item(_ s: String) { out += (markdown ? "- " : "  ") + s + "\n" }
        heading("Data collected (draft of the App Store \"App Privacy\" answers)")
        if dataTypes.isEmpty { item("No manifest declares collected data.") }
        for group in Array(Set(dataTypes.map(\.group))).sorted() {
            out += markdown ? "**\(group)**\n\n" : "\(group)\n"
            for d in dataTypes where d.group == group {
                let name = d.type.replacingOccurrences(of: "NSPrivacyCollectedDataType", with: "")
                let flags = [d.linkedToIdentity ? "linked to identity" : "not linked", d.usedForTracking ? "used for tracking" : nil].compactMap { $0 }
                item("\(name): \(flags.joined(separator: ", ")); purposes: \(d.purposes.isEmpty ? "none given" : d.purposes.joined(separator: ", ")) (declared by \(d.declaredBy.joined(separator: ", ")))")
            }
            out += "\n"
        }
        heading("Tracking")
        item(tracks ? "Tracks (NSPrivacyTracking true in \(manifests.filter(\.tracking).map(\.bundle).joined(separator: ", ")))" : "No manifest declares tracking.")
        for domain in trackingDomains { item("tracking domain \(domain)") }
        out += "\n"
        heading("Required-reason APIs declared")
        for m in manifests where !m.accessedAPIs.isEmpty {
            for (category, reasons) in m.accessedAPIs.sorted(by: { $0.key < $1.key }) {
                item("\(m.bundle): \(category.replacingOccurrences(of: "NSPrivacyAccessedAPICategory", with: "")) — \(reasons.joined(separator: ", "))")
            }
        }
        if manifests.allSatisfy({ $0.accessedAPIs.isEmpty }) { item("None.") }
        out += "\n"
        heading("Permissions asked (purpose strings)")
        if purposeStrings.isEmpty { item("None.") }
        for p in purposeStrings { item("\(p.bundle): \(p.key) — \"\(p.value)\"") }
        out += "\n"
        heading("Manifests")
        for m in manifests { item("\(m.bundle): \(m.path)") }
        if !bundlesWithoutManifest.isEmpty { item("without a manifest: \(bundlesWithoutManifest.joined(separator: ", "))") }
        return out
    }
}
