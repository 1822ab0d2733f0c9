/// Purpose-string keys, the capabilities they protect and the APIs that need them.
/// Facts come from `reference/facts/purpose-strings.json`; each entry names its source.
public struct ProtectedResourceCatalog: Sendable {
    public let resources: [ProtectedResource]
    public let lookAlikes: [NoPermissionLookAlike]
    /// Keys of the reference data deliberately left out, with the reason.
    public let excludedKeys: [String: String]

    private let byCapability: [String: Int]
    private let byKey: [String: Int]

    public init(resources: [ProtectedResource], lookAlikes: [NoPermissionLookAlike] = [],
                excludedKeys: [String: String] = [:]) {
        self.resources = resources
        self.lookAlikes = lookAlikes
        self.excludedKeys = excludedKeys
        var byCapability: [String: Int] = [:]
        var byKey: [String: Int] = [:]
        for (index, resource) in resources.enumerated() {
            byCapability[resource.capability] = byCapability[resource.capability] ?? index
            byKey[resource.key] = byKey[resource.key] ?? index
        }
        self.byCapability = byCapability
        self.byKey = byKey
    }

    public func resource(forCapability capability: String) -> ProtectedResource? {
        byCapability[capability].map { resources[$0] }
    }

    public func resource(forKey key: String) -> ProtectedResource? {
        byKey[key].map { resources[$0] }
    }

    public static let standard = ProtectedResourceCatalog(
        resources: mediaCaptureResources + locationResources + personalDataResources
            + healthAndMotionResources + connectivityResources + systemServiceResources
            + spatialResources + macOSResources,
        lookAlikes: noPermissionLookAlikes,
        excludedKeys: excludedPurposeStringKeys)
}

extension ProtectedResourceCatalog {
    /// Apple's "Protected resources" page; most keys are listed there.
    static let protectedResourcesPage =
        "https://developer.apple.com/documentation/bundleresources/protected-resources"
}
