extension ProtectedResourceCatalog {
    static let spatialResources: [ProtectedResource] = [
        ProtectedResource(
            key: "NSWorldSensingUsageDescription", capability: "visionos.worldSensing",
            resource: "World sensing on visionOS (planes, scene reconstruction, image tracking)",
            platforms: [.visionOS],
            triggers: Triggers(swiftSymbols: [
                .swift("5ARKit22PlaneDetectionProviderC", "ARKit.PlaneDetectionProvider", .definite),
                .swift("5ARKit27SceneReconstructionProviderC", "ARKit.SceneReconstructionProvider", .definite),
                .swift("5ARKit21ImageTrackingProviderC", "ARKit.ImageTrackingProvider", .definite),
            ]),
            notes: "WorldTrackingProvider (device pose) is not listed: it is not known to need world-sensing authorization.",
            source: protectedResourcesPage, confidence: .medium),

        ProtectedResource(
            key: "NSHandsTrackingUsageDescription", capability: "visionos.handTracking",
            resource: "Hand tracking on visionOS",
            platforms: [.visionOS],
            triggers: Triggers(swiftSymbols: [
                .swift("5ARKit20HandTrackingProviderC", "ARKit.HandTrackingProvider", .definite),
            ]),
            source: protectedResourcesPage, confidence: .medium),
    ]
}
