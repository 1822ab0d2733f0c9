extension ProtectedResourceCatalog {
    static let eventKitLegacyRequestNote =
        "Ambiguous between calendars and reminders: the EKEntityType argument decides."
    static let eventKitMigrationNote =
        "https://developer.apple.com/documentation/technotes/tn3153-adopting-api-changes-for-eventkit-in-ios-macos-and-watchos"

    static let personalDataResources: [ProtectedResource] = [
        ProtectedResource(
            key: "NSContactsUsageDescription", capability: "contacts",
            resource: "Contacts",
            platforms: [.iOS, .macCatalyst, .macOS, .watchOS, .visionOS],
            triggers: Triggers(
                objcClasses: [
                    .indicative("CNContactStore", note: "Also used only to read the authorization status."),
                ],
                selectors: [
                    .definite("requestAccessForEntityType:completionHandler:", with: "CNContactStore"),
                    .definite("enumerateContactsWithFetchRequest:error:usingBlock:"),
                    .definite("unifiedContactsMatchingPredicate:keysToFetch:error:"),
                    .definite("unifiedContactWithIdentifier:keysToFetch:error:"),
                    .indicative("containersMatchingPredicate:error:", with: "CNContactStore"),
                ],
                cFunctions: [
                    .definite("_ABAddressBookCreateWithOptions"),
                    .definite("_ABAddressBookCreate"),
                    .definite("_ABAddressBookRequestAccessWithCompletion"),
                    .definite("_ABAddressBookCopyArrayOfAllPeople"),
                ]),
            notes: "CNContactPickerViewController needs no access.",
            source: protectedResourcesPage, confidence: .high),

        ProtectedResource(
            key: "NSCalendarsFullAccessUsageDescription", capability: "calendars.full",
            resource: "Calendar events (read and write)",
            platforms: [.iOS, .macCatalyst, .macOS, .watchOS, .visionOS], minimumOS: "iOS 17.0",
            triggers: Triggers(selectors: [
                .definite("requestFullAccessToEventsWithCompletion:"),
                .definite("eventsMatchingPredicate:", with: "EKEventStore"),
                .definite("predicateForEventsWithStartDate:endDate:calendars:"),
                .indicative("calendarsForEntityType:", with: "EKEventStore", note: eventKitLegacyRequestNote),
            ]),
            notes: "EKEventStore alone is not a trigger: EKEventEditViewController needs one and no access on iOS 17+.",
            source: "https://developer.apple.com/documentation/bundleresources/information-property-list/nscalendarsfullaccessusagedescription",
            confidence: .high),

        ProtectedResource(
            key: "NSCalendarsWriteOnlyAccessUsageDescription", capability: "calendars.writeOnly",
            resource: "Calendar events (create only)",
            platforms: [.iOS, .macCatalyst, .macOS, .watchOS, .visionOS], minimumOS: "iOS 17.0",
            triggers: Triggers(selectors: [
                .definite("requestWriteOnlyAccessToEventsWithCompletion:"),
                .indicative("saveEvent:span:error:", with: "EKEventStore", note: "Full access also allows saving."),
                .indicative("saveEvent:span:commit:error:", with: "EKEventStore", note: "Full access also allows saving."),
            ]),
            notes: "Write-only access cannot read any event, not even the app's own.",
            source: "https://developer.apple.com/documentation/bundleresources/information-property-list/nscalendarswriteonlyaccessusagedescription",
            confidence: .high),

        ProtectedResource(
            key: "NSCalendarsUsageDescription", capability: "calendars.legacy",
            resource: "Calendar (before iOS 17)",
            platforms: [.iOS, .macOS, .watchOS],
            deprecation: "Replaced by the full-access and write-only keys in iOS 17; see TN3153 (\(eventKitMigrationNote)).",
            neededOnlyBelowIOS: "17.0",
            triggers: Triggers(selectors: [
                .indicative("requestAccessToEntityType:completion:", note: eventKitLegacyRequestNote),
                .definite("eventsMatchingPredicate:", with: "EKEventStore", note: "Reading events on iOS 16 and earlier."),
            ]),
            source: protectedResourcesPage, confidence: .high),

        ProtectedResource(
            key: "NSRemindersFullAccessUsageDescription", capability: "reminders",
            resource: "Reminders (read and write)",
            platforms: [.iOS, .macCatalyst, .macOS, .watchOS, .visionOS], minimumOS: "iOS 17.0",
            triggers: Triggers(selectors: [
                .definite("requestFullAccessToRemindersWithCompletion:"),
                .definite("fetchRemindersMatchingPredicate:completion:"),
                .indicative("calendarsForEntityType:", with: "EKEventStore", note: eventKitLegacyRequestNote),
            ]),
            source: protectedResourcesPage, confidence: .high),

        ProtectedResource(
            key: "NSRemindersUsageDescription", capability: "reminders.legacy",
            resource: "Reminders (before iOS 17)",
            platforms: [.iOS, .macOS, .watchOS],
            deprecation: "Replaced by NSRemindersFullAccessUsageDescription in iOS 17.",
            neededOnlyBelowIOS: "17.0",
            triggers: Triggers(selectors: [
                .indicative("requestAccessToEntityType:completion:", note: eventKitLegacyRequestNote),
                .definite("fetchRemindersMatchingPredicate:completion:", note: "Reading reminders on iOS 16 and earlier."),
            ]),
            source: protectedResourcesPage, confidence: .high),

        ProtectedResource(
            key: "NSIdentityUsageDescription", capability: "wallet.identity",
            resource: "Identity documents in Wallet (Verify with Wallet)",
            platforms: [.iOS], minimumOS: "iOS 16.0",
            related: [RelatedRequirement(.entitlement, "com.apple.developer.in-app-identity-presentation")],
            triggers: Triggers(objcClasses: [
                .definite("PKIdentityAuthorizationController"),
                .indicative("PKIdentityRequest"),
            ]),
            notes: "The entitlement name is medium confidence.",
            source: protectedResourcesPage, confidence: .medium),

        ProtectedResource(
            key: "NSFinancialDataUsageDescription", capability: "wallet.financialData",
            resource: "Financial data in Wallet (FinanceKit)",
            platforms: [.iOS], minimumOS: "iOS 17.4",
            related: [RelatedRequirement(.entitlement, "com.apple.developer.financekit")],
            triggers: Triggers(swiftSymbols: [
                // Kind letter left out: class or struct is not confirmed.
                .swift("10FinanceKit0A5Store", "FinanceKit.FinanceStore", .definite),
            ]),
            notes: "The entitlement name is medium confidence.",
            source: protectedResourcesPage, confidence: .medium),
    ]
}
