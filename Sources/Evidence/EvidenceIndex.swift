import Foundation
import Artifacts
import Formats

/// Who wrote the code that uses an API: the app's own code, or a named SDK (an embedded
/// framework or a package the app depends on).
public enum UsageOrigin: Sendable, Hashable {
    case app
    case sdk(String)
    /// Code the bundle links or embeds (a framework or static-library target, a local package,
    /// a pod), found in its sources. `embedded`: the product is copied into this bundle.
    case linked(CodeLink.Kind, String, embedded: Bool)

    /// How a reader names where the code comes from ("the app's own code", "pod Alamofire").
    public var label: String {
        switch self {
        case .app: return "own code"
        case .sdk(let name): return "framework \(name)"
        case .linked(let kind, let name, _): return CodeLink(kind: kind, name: name).label
        }
    }
}

/// Where a usage was seen.
public enum UsageLocation: Sendable, Hashable {
    case source(path: String, line: Int, column: Int)
    case binary(path: String, symbol: String)
}

/// One use of a protected capability, with proof: the bridge between code and declarations.
public struct Usage: Sendable, Hashable {
    /// Catalog capability id (`camera`, `location.always`, …).
    public var capability: String
    /// The purpose-string key the capability needs.
    public var key: String
    /// The API as a reader would name it (`AVCaptureDevice.requestAccess(for: .video)`, a selector, a symbol).
    public var api: String
    public var location: UsageLocation
    /// The bundle whose code contains it, by name.
    public var bundle: String
    public var origin: UsageOrigin
    public var strength: EvidenceStrength
    /// False for code that does not ship: under `#if DEBUG`, simulator-only, or in test targets.
    public var ships: Bool
    /// Why the name was taken for Apple's API (`import CoreLocation`, `import MapKit (re-exports
    /// CoreLocation)`), when a source said it.
    public var basis: String?
    /// The declarations around a source use: its outermost type and its function.
    public var container: [String]
    /// For code the bundle links or embeds: the bundle's own code names the declarations that
    /// hold this use (`container`), so the bundle reaches it.
    public var reached: Bool

    public init(capability: String, key: String, api: String, location: UsageLocation, bundle: String,
                origin: UsageOrigin = .app, strength: EvidenceStrength, ships: Bool = true,
                basis: String? = nil, container: [String] = [], reached: Bool = false) {
        self.capability = capability
        self.key = key
        self.api = api
        self.location = location
        self.bundle = bundle
        self.origin = origin
        self.strength = strength
        self.ships = ships
        self.basis = basis
        self.container = container
        self.reached = reached
    }
}

/// A usage found in one source file, before it is attributed to a bundle.
public struct SourceUsage: Sendable, Hashable {
    public var capability: String
    public var key: String
    public var api: String
    public var line: Int
    public var column: Int
    public var strength: EvidenceStrength
    /// False when the code is compiled out of release builds (`#if DEBUG`, simulator-only, `#if 0`).
    public var ships: Bool
    /// The Apple type or function whose name the match rests on, when the file writes it
    /// (nil for a member on a receiver of unknown type). A declaration of this name in the
    /// target's own code shadows Apple's.
    public var symbol: String?
    /// Why the name was taken for Apple's API (the import that makes it visible).
    public var basis: String?
    /// The declarations around the use: its outermost type and its function, when any.
    public var container: [String]
    /// Set on the data flow's open ends (a parameter reaching a sink, a sink waiting for a value
    /// declared elsewhere): not a use, joined over the target's code by `SourceFlowJoin`.
    public var link: FlowLink?

    public init(capability: String, key: String, api: String, line: Int, column: Int,
                strength: EvidenceStrength, ships: Bool = true, symbol: String? = nil, basis: String? = nil,
                container: [String] = [], link: FlowLink? = nil) {
        self.link = link
        self.capability = capability
        self.key = key
        self.api = api
        self.line = line
        self.column = column
        self.strength = strength
        self.ships = ships
        self.symbol = symbol
        self.basis = basis
        self.container = container
    }
}

/// A source file no scanner read, and why (a limit, an unreadable file): it is reported,
/// never skipped in silence.
public struct SkippedSource: Sendable, Equatable {
    public var path: String
    public var reason: String
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}

/// What the code of each bundle uses, with proof. Detectors fill it from binaries and sources.
public struct EvidenceIndex: Sendable {
    /// Uses of resources that need a purpose string.
    public var usages: [Usage]
    /// Uses of required-reason APIs (`api.*` capabilities; the key is the
    /// `NSPrivacyAccessedAPIType` category).
    public var requiredReasonUsages: [Usage] = []
    /// Uses of APIs that Info.plist declarations need (`feature.*` capabilities: background
    /// modes, device capabilities, push registration).
    public var featureUsages: [Usage] = []
    /// Data-at-rest and authentication facts (`security.*` capabilities, see
    /// `ProtectedResourceCatalog.Security`): the key is the resolved value.
    public var securityUsages: [Usage] = []
    /// Source files of the bundles' code that were not scanned.
    public var skippedSources: [SkippedSource] = []
    /// Plain `http://` URLs the bundles' code names (`URLEvidence`).
    public var urls: [URLLiteral] = []
    /// Bundles, by name, whose code was read for URLs: some source file, or a Mach-O file
    /// whose strings are not encrypted. For the others, no URL says nothing.
    public var urlScannedBundles: Set<String> = []
    /// `NSExceptionDomains` names (lower case) that some source literal, binary string,
    /// Info.plist value or text resource of the input mentions as a host.
    public var mentionedDomains: Set<String> = []
    /// Bonjour service types the bundles' code names as whole strings (`BonjourServiceType`).
    public var bonjourServiceTypes: [BonjourServiceType] = []
    /// Credentials a built app ships, in resources and binaries' C strings, masked.
    public var secrets: [ShippedSecret] = []
    /// Databases, key stores and key files a built app ships.
    public var shippedStores: [ShippedStore] = []
    /// Keys of the strings tables that the code or interface files name (`LocalizationKeyEvidence`).
    public var localizationKeys = LocalizationKeyEvidence.Result()

    public init(usages: [Usage] = [], requiredReasonUsages: [Usage] = [], skippedSources: [SkippedSource] = [], urls: [URLLiteral] = [],
                urlScannedBundles: Set<String> = [], mentionedDomains: Set<String> = [], bonjourServiceTypes: [BonjourServiceType] = [],
                secrets: [ShippedSecret] = [], shippedStores: [ShippedStore] = []) {
        self.secrets = secrets
        self.shippedStores = shippedStores
        self.bonjourServiceTypes = bonjourServiceTypes
        self.usages = usages
        self.requiredReasonUsages = requiredReasonUsages
        self.skippedSources = skippedSources
        self.urls = urls
        self.urlScannedBundles = urlScannedBundles
        self.mentionedDomains = mentionedDomains
    }

    /// Evidence from the binaries of built apps and, with scanners, from the sources of projects.
    public static func build(_ input: LoadedInput, scanners: [any SourceScanning] = [], limits: ReaderLimits = .default,
                             timings: PhaseTimings? = nil) -> EvidenceIndex {
        let sources = SourceEvidence.scan(input, scanners: scanners, limits: limits, urlNames: URLEvidence.exceptionDomainNames(input.product),
                                          timings: timings)
        let urls = timings.measure("evidence: URLs") { URLEvidence.scan(input, limits: limits, read: sources.urls) }
        let stored = timings.measure("evidence: secrets and stores") { SecretEvidence.scan(input) }
        let binaries = timings.measure("evidence: binaries and signals") {
            BinaryEvidence.usages(in: input.product) + SignalEvidence.usages(in: input.product)
        }
        let all = binaries + sources.usages
        let isRequiredReason = { (u: Usage) in ProtectedResourceCatalog.RequiredReasonAPI.isRequiredReason(u.capability) }
        let isFeature = { (u: Usage) in ProtectedResourceCatalog.FeatureAPI.isFeature(u.capability) }
        let isSecurity = { (u: Usage) in ProtectedResourceCatalog.Security.isSecurity(u.capability) }
        var index = EvidenceIndex(usages: all.filter { !isRequiredReason($0) && !isFeature($0) && !isSecurity($0) },
                                  requiredReasonUsages: all.filter(isRequiredReason),
                                  skippedSources: sources.skipped, urls: urls.urls, urlScannedBundles: urls.scanned,
                                  mentionedDomains: urls.mentionedDomains, bonjourServiceTypes: urls.serviceTypes,
                                  secrets: stored.secrets + urls.binarySecrets, shippedStores: stored.stores)
        index.featureUsages = all.filter(isFeature)
        index.securityUsages = all.filter(isSecurity)
        index.localizationKeys = timings.measure("evidence: localization keys") { LocalizationKeyEvidence.scan(input, limits: limits) }
        return index
    }
}
