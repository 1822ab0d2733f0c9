import Foundation
import Artifacts
import Evidence
// Rules make findings; code that uses the rules sees the finding types too.
@_exported import Findings

public enum RuleArea: String, Sendable, Codable, CaseIterable {
    case bundle, privacy, privacyManifest = "privacy-manifest", network, storage, localization, entitlements, binary, project
}

/// A small input that must (or must not) make a rule report: files by path, as text.
///
/// Every triggering example marks with `↓` where its findings point; the example test removes
/// the markers before it runs the example and requires a finding at each one:
/// - in a file's text, a finding on that file at the marker's line and column
///   (`<key>NSCameraUsageDescription</key>↓<string></string>`: where the `<string>` starts);
/// - in a path (a key of `files`, `symlinks` or `binaryFixtures`), a finding about a path as
///   a whole, with no line: the path before the `↓` is the finding's file — the file itself
///   when the `↓` ends the path (`"Frameworks/libssl.dylib↓"`), else the folder that holds
///   the rest (`"PlugIns/Share.appex↓/Share"`: the bundle folder).
/// Non-triggering examples carry no markers.
public struct RuleExample: Sendable {
    public var files: [String: String]
    /// Symbolic links by path, to their targets as written.
    public var symlinks: [String: String]
    /// Binary files by path, named by a committed fixture under `Tests/Fixtures/MachO/` (built
    /// from source by its `make-fixtures.sh`), or `../<Folder>/<file>` for another fixture
    /// folder (`../AssetCatalog/AppIcon-complete.car`); the example test reads them, rules never do.
    public var binaryFixtures: [String: String]
    /// How the files are loaded: a built `.app` (root is the bundle) or a source folder.
    public var kind: ProductKind
    public var note: String?

    public init(_ files: [String: String], symlinks: [String: String] = [:], binaryFixtures: [String: String] = [:],
                kind: ProductKind = .folder, note: String? = nil) {
        self.files = files
        self.symlinks = symlinks
        self.binaryFixtures = binaryFixtures
        self.kind = kind
        self.note = note
    }
}

/// Everything a rule is, as data: the registry, `preflight rules`/`explain`, SARIF metadata,
/// generated docs and the generic example test all read it.
public struct RuleDescription: Sendable {
    /// Stable snake_case id; never renamed (old names go to `aliases`).
    public var identifier: String
    public var name: String
    public var summary: String
    /// Why it matters and how to fix it (Markdown).
    public var rationale: String
    public var area: RuleArea
    public var severity: Severity
    public var optIn: Bool
    public var tags: [String]
    /// Apple documentation, ITMS codes, guidelines.
    public var references: [String]
    public var aliases: [String]
    /// App Store Connect upload errors (`ITMS-90087`) the rule finds before the upload.
    public var itms: [String]
    public var triggering: [RuleExample]
    public var nonTriggering: [RuleExample]

    public init(identifier: String, name: String, summary: String, rationale: String, area: RuleArea,
                severity: Severity, optIn: Bool = false, tags: [String] = [], references: [String] = [],
                aliases: [String] = [], itms: [String] = [], triggering: [RuleExample], nonTriggering: [RuleExample]) {
        self.identifier = identifier
        self.name = name
        self.summary = summary
        self.rationale = rationale
        self.area = area
        self.severity = severity
        self.optIn = optIn
        self.tags = tags
        self.references = references
        self.aliases = aliases
        self.itms = itms
        self.triggering = triggering
        self.nonTriggering = nonTriggering
    }
}

extension RuleDescription {
    /// What reporters show of the rule.
    public var info: RuleInfo {
        RuleInfo(identifier: identifier, name: name, summary: summary, rationale: rationale, area: area.rawValue,
                 severity: severity, optIn: optIn, tags: tags, references: references, itms: itms)
    }
}

/// What a rule reads: the model and the evidence. Rules never read files.
public struct RuleContext: Sendable {
    public let product: Product
    public let evidence: EvidenceIndex
    /// Views of each bundle, in the order of `product.bundles`, computed once for all rules.
    public let views: [BundleViews]

    public init(product: Product, evidence: EvidenceIndex) {
        self.product = product
        self.evidence = evidence
        // Bundles' localized tables in dozens of languages take a while to merge: side by side.
        views = ConcurrentMap.map(product.bundles, BundleViews.init)
    }

    /// Each bundle with its views.
    public var bundles: [(bundle: AppBundle, views: BundleViews)] {
        Array(zip(product.bundles, views))
    }
}

public protocol Rule: Sendable {
    static var description: RuleDescription { get }
    init()
    func check(_ context: RuleContext) -> [Finding]
}

extension Rule {
    public var identifier: String { Self.description.identifier }

    /// A finding of this rule at its default severity.
    public func finding(_ message: String, bundle: String?, at location: FileLocation?, key: String? = nil,
                        evidence: [EvidenceRef] = [], fix: String? = nil, fingerprint parts: [String] = []) -> Finding {
        Finding(rule: Self.description.identifier, severity: Self.description.severity, message: message,
                bundle: bundle, file: location?.path, line: location?.position?.line, column: location?.position?.column,
                key: key, evidence: evidence, fix: fix, fingerprintParts: parts)
    }
}
