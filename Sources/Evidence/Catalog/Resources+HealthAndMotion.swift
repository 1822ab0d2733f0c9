extension ProtectedResourceCatalog {
    static let healthKitRequestNote =
        "Ambiguous between reading and writing: the share and read type sets decide."
    static let healthKitEntitlement = RelatedRequirement(.entitlement, "com.apple.developer.healthkit")

    static let healthAndMotionResources: [ProtectedResource] = [
        ProtectedResource(
            key: "NSHealthShareUsageDescription", capability: "health.share",
            resource: "HealthKit data (read)",
            platforms: [.iOS, .macOS, .watchOS, .visionOS],
            related: [healthKitEntitlement],
            triggers: Triggers(
                objcClasses: [
                    .indicative("HKHealthStore"),
                    .definite("HKSampleQuery"),
                    .definite("HKAnchoredObjectQuery"),
                    .definite("HKStatisticsQuery"),
                    .definite("HKStatisticsCollectionQuery"),
                    .definite("HKObserverQuery"),
                ],
                selectors: [
                    .indicative("requestAuthorizationToShareTypes:readTypes:completion:", note: healthKitRequestNote),
                ],
                swiftSymbols: [
                    .swift("9HealthKit23HKSampleQueryDescriptorV", "HealthKit.HKSampleQueryDescriptor", .definite, note: "Swift async queries, iOS 15.4."),
                    .swift("9HealthKit27HKStatisticsQueryDescriptorV", "HealthKit.HKStatisticsQueryDescriptor", .definite),
                    .swift("9HealthKit37HKStatisticsCollectionQueryDescriptorV", "HealthKit.HKStatisticsCollectionQueryDescriptor", .definite),
                    .swift("9HealthKit31HKAnchoredObjectQueryDescriptorV", "HealthKit.HKAnchoredObjectQueryDescriptor", .definite),
                ]),
            source: protectedResourcesPage, confidence: .high),

        ProtectedResource(
            key: "NSHealthUpdateUsageDescription", capability: "health.update",
            resource: "HealthKit data (write)",
            platforms: [.iOS, .macOS, .watchOS, .visionOS],
            related: [healthKitEntitlement],
            triggers: Triggers(selectors: [
                .indicative("requestAuthorizationToShareTypes:readTypes:completion:", note: healthKitRequestNote),
                .definite("saveObject:withCompletion:", with: "HKHealthStore"),
                .definite("saveObjects:withCompletion:", with: "HKHealthStore"),
            ]),
            source: protectedResourcesPage, confidence: .high),

        ProtectedResource(
            key: "NSHealthClinicalHealthRecordsShareUsageDescription", capability: "health.clinicalRecords",
            resource: "Clinical health records (read)",
            platforms: [.iOS],
            related: [
                healthKitEntitlement,
                RelatedRequirement(.entitlement, "com.apple.developer.healthkit.access", when: "value contains health-records"),
                RelatedRequirement(.infoPlistKey, "NSHealthRequiredReadAuthorizationTypeIdentifiers", when: "the app cannot work without some record types"),
            ],
            triggers: Triggers(
                objcClasses: [.definite("HKClinicalType")],
                selectors: [.definite("clinicalTypeForIdentifier:")]),
            source: protectedResourcesPage, confidence: .medium),

        ProtectedResource(
            key: "NSMotionUsageDescription", capability: "motion",
            resource: "Motion and fitness activity",
            platforms: [.iOS, .watchOS, .visionOS],
            triggers: Triggers(objcClasses: [
                .definite("CMMotionActivityManager"),
                .definite("CMPedometer"),
                .definite("CMSensorRecorder"),
                .indicative("CMAltimeter", note: "Whether altitude data needs the key is medium confidence."),
                .indicative("CMHeadphoneMotionManager", note: "Medium confidence."),
            ]),
            notes: "CMMotionManager's raw accelerometer and gyroscope streams are not behind this prompt.",
            source: protectedResourcesPage, confidence: .medium),

        ProtectedResource(
            key: "NSFallDetectionUsageDescription", capability: "fall_detection",
            resource: "Fall detection events",
            platforms: [.watchOS],
            triggers: Triggers(objcClasses: [.definite("CMFallDetectionManager")]),
            source: protectedResourcesPage, confidence: .medium),

        ProtectedResource(
            key: "NSSensorKitUsageDescription", capability: "sensorkit",
            resource: "SensorKit research data",
            platforms: [.iOS], minimumOS: "iOS 14.0",
            related: [
                RelatedRequirement(.infoPlistKey, "NSSensorKitUsageDetail"),
                RelatedRequirement(.infoPlistKey, "NSSensorKitPrivacyPolicyURL"),
                RelatedRequirement(.entitlement, "com.apple.developer.sensorkit.reader.allow"),
            ],
            triggers: Triggers(
                objcClasses: [.indicative("SRSensorReader")],
                selectors: [.definite("requestAuthorizationForSensors:completion:")]),
            source: "https://developer.apple.com/documentation/bundleresources/information-property-list/nssensorkitusagedescription",
            confidence: .high),
    ]
}
