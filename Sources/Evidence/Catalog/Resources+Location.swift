extension ProtectedResourceCatalog {
    static let locationResources: [ProtectedResource] = [
        ProtectedResource(
            key: "NSLocationWhenInUseUsageDescription", capability: "location.whenInUse",
            resource: "Location while the app is in use",
            platforms: [.iOS, .macCatalyst, .visionOS, .watchOS],
            related: [
                RelatedRequirement(.infoPlistKey, "NSLocationDefaultAccuracyReduced", when: "approximate location by default"),
                RelatedRequirement(.infoPlistKey, "NSWidgetWantsLocation", when: "a widget uses location"),
            ],
            triggers: Triggers(
                objcClasses: [
                    .indicative("CLLocationManager", note: "Also used only to read the authorization status or the heading."),
                    .definite("CLServiceSession", note: "iOS 18; declares the authorization the app needs."),
                ],
                selectors: [
                    .definite("requestWhenInUseAuthorization"),
                    .definite("requestAlwaysAuthorization", note: "Apple requires the when-in-use key alongside the always key."),
                    .definite("startUpdatingLocation", with: "CLLocationManager"),
                    .definite("requestLocation", with: "CLLocationManager"),
                    .definite("startMonitoringSignificantLocationChanges"),
                    .definite("startMonitoringVisits"),
                    .definite("startMonitoringForRegion:", with: "CLLocationManager"),
                    .definite("startRangingBeaconsSatisfyingConstraint:", with: "CLLocationManager"),
                    .indicative("setShowsUserLocation:", with: "MKMapView"),
                ],
                swiftSymbols: [
                    .swift("12CoreLocation16CLLocationUpdateV", "CoreLocation.CLLocationUpdate", .definite,
                           note: "CLLocationUpdate.liveUpdates, iOS 17."),
                    .swift("12CoreLocation9CLMonitorC", "CoreLocation.CLMonitor", .definite, note: "iOS 17."),
                    .swift("12CoreLocation16CLServiceSessionC", "CoreLocation.CLServiceSession", .definite, note: "iOS 18."),
                    .swift("12CoreLocation27CLBackgroundActivitySessionC", "CoreLocation.CLBackgroundActivitySession", .indicative,
                           note: "iOS 17; keeps an existing location session alive in the background."),
                ]),
            source: protectedResourcesPage, confidence: .high),

        ProtectedResource(
            key: "NSLocationAlwaysAndWhenInUseUsageDescription", capability: "location.always",
            resource: "Location at all times, also in the background",
            platforms: [.iOS, .macCatalyst, .visionOS], minimumOS: "iOS 11.0",
            related: [RelatedRequirement(.infoPlistKey, "NSLocationWhenInUseUsageDescription")],
            triggers: Triggers(
                selectors: [
                    .definite("requestAlwaysAuthorization"),
                    .indicative("startMonitoringSignificantLocationChanges", note: "Also works, in the foreground, with when-in-use authorization."),
                    .indicative("startMonitoringVisits"),
                    .indicative("startMonitoringForRegion:", with: "CLLocationManager"),
                    .indicative("setAllowsBackgroundLocationUpdates:", with: "CLLocationManager",
                                note: "Background updates also run with when-in-use authorization and the location background mode."),
                ]),
            notes: "requestAlwaysAuthorization is ignored unless both this key and the when-in-use key are present.",
            source: "https://developer.apple.com/documentation/bundleresources/information-property-list/nslocationalwaysandwheninuseusagedescription",
            confidence: .high),

        ProtectedResource(
            key: "NSLocationAlwaysUsageDescription", capability: "location.alwaysLegacy",
            resource: "Location at all times (iOS 8–10)",
            platforms: [.iOS],
            deprecation: "Replaced by NSLocationAlwaysAndWhenInUseUsageDescription in iOS 11.",
            neededOnlyBelowIOS: "11.0",
            triggers: Triggers(selectors: [.definite("requestAlwaysAuthorization")]),
            notes: "Give it the same text as the always-and-when-in-use key.",
            source: "https://developer.apple.com/documentation/bundleresources/information-property-list/nslocationalwaysusagedescription",
            confidence: .high),

        ProtectedResource(
            key: "NSLocationUsageDescription", capability: "location.macOS",
            resource: "Location (macOS)",
            platforms: [.macOS],
            triggers: Triggers(objcClasses: [.indicative("CLLocationManager")]),
            notes: "On macOS this key replaces the always / when-in-use keys.",
            source: protectedResourcesPage, confidence: .high),

        ProtectedResource(
            key: "NSLocationTemporaryUsageDescriptionDictionary", capability: "location.temporaryFullAccuracy",
            resource: "Temporary full-accuracy location (a dictionary: purpose key to text)",
            platforms: [.iOS, .macCatalyst, .watchOS, .visionOS], minimumOS: "iOS 14.0",
            triggers: Triggers(selectors: [
                .definite("requestTemporaryFullAccuracyAuthorizationWithPurposeKey:completion:"),
                .definite("requestTemporaryFullAccuracyAuthorizationWithPurposeKey:"),
            ]),
            notes: "The purpose-key argument must be a key of the dictionary; a binary shows the call, not the key.",
            source: protectedResourcesPage, confidence: .high),
    ]
}
