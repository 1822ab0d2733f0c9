import Evidence

/// Swift spellings of the feature APIs (`FeatureAPIs`) that are members: the catalog's classes
/// (`BGTaskScheduler`, `AVPlayer`, …) are matched by name.
extension SwiftAPITable {
    typealias Feature = ProtectedResourceCatalog.FeatureAPI

    static let featureAPIs: [SwiftAPI] = [
        // -[UIApplication registerForRemoteNotifications], also on the delegate's `application`.
        .method(["UIApplication"], "registerForRemoteNotifications", labels: [], .fixed([.definite(Feature.remoteNotifications)]), distinctive: true),
        // -[UIApplication setMinimumBackgroundFetchInterval:]
        .method(["UIApplication"], "setMinimumBackgroundFetchInterval", .fixed([.definite(Feature.backgroundFetch)]), distinctive: true),
        // +[ARConfiguration isSupported] on any configuration class.
        .property(ProtectedResourceCatalog.arConfigurations, "isSupported", .fixed([.definite(Feature.arkitSupportCheck)])),
    ]
}
