extension ProtectedResourceCatalog {
    static let systemServiceResources: [ProtectedResource] = [
        ProtectedResource(
            key: "NSFaceIDUsageDescription", capability: "faceid",
            resource: "Face ID",
            platforms: [.iOS, .visionOS], minimumOS: "iOS 11.0",
            triggers: Triggers(
                selectors: [
                    .definite("evaluatePolicy:localizedReason:reply:", with: "LAContext"),
                    .definite("evaluateAccessControl:operation:localizedReason:reply:", with: "LAContext"),
                ],
                cFunctions: [
                    .indicative("_SecAccessControlCreateWithFlags",
                                note: "Biometric flags (biometryAny, biometryCurrentSet, userPresence) prompt Face ID when the item is read; passcode-only flags do not."),
                ]),
            notes: "LAContext alone and canEvaluatePolicy:error: show no prompt. Touch ID needs no key.",
            source: protectedResourcesPage, confidence: .high),

        ProtectedResource(
            key: "NSSiriUsageDescription", capability: "siri",
            resource: "User data sent to Siri",
            platforms: [.iOS, .macCatalyst, .watchOS],
            related: [RelatedRequirement(.entitlement, "com.apple.developer.siri")],
            triggers: Triggers(
                objcClasses: [.indicative("INPreferences", note: "Also read for the authorization status.")],
                selectors: [.definite("requestSiriAuthorization:")]),
            source: protectedResourcesPage, confidence: .high),

        ProtectedResource(
            key: "NSFocusStatusUsageDescription", capability: "focus",
            resource: "Focus status",
            platforms: [.iOS, .macOS, .watchOS], minimumOS: "iOS 15.0",
            related: [RelatedRequirement(.entitlement, "com.apple.developer.usernotifications.communication",
                                         when: "reading isFocused (reported, medium confidence)")],
            triggers: Triggers(
                objcClasses: [.indicative("INFocusStatusCenter")],
                selectors: [.definite("requestAuthorizationWithCompletionHandler:", with: "INFocusStatusCenter")]),
            notes: "Without the key the app crashes at the first authorization request (reported).",
            source: "third-party code (index ids 6862659695, 55479407300, 71012328424); Apple Intents documentation",
            confidence: .medium),

        ProtectedResource(
            key: "NSUserTrackingUsageDescription", capability: Capability.tracking,
            resource: "App Tracking Transparency",
            platforms: [.iOS, .macCatalyst, .macOS, .tvOS, .visionOS], minimumOS: "iOS 14.0",
            triggers: Triggers(
                objcClasses: [.indicative("ATTrackingManager", note: "Also referenced only to read trackingAuthorizationStatus.")],
                selectors: [.definite("requestTrackingAuthorizationWithCompletionHandler:",
                                      note: "Swift's async requestTrackingAuthorization() sends the same selector.")]),
            notes: "Reading the advertising identifier needs no key; it is all zeros without authorization.",
            source: protectedResourcesPage, confidence: .high),

        ProtectedResource(
            key: "NSVideoSubscriberAccountUsageDescription", capability: "tv_provider",
            resource: "TV provider account",
            platforms: [.iOS, .macOS, .tvOS],
            related: [RelatedRequirement(.entitlement, "com.apple.developer.video-subscriber-single-sign-on",
                                         when: "medium confidence")],
            triggers: Triggers(
                objcClasses: [.definite("VSAccountManager")],
                selectors: [.definite("checkAccessStatusWithOptions:completionHandler:")]),
            source: protectedResourcesPage, confidence: .high),

        ProtectedResource(
            key: "NSGKFriendListUsageDescription", capability: "gamecenter.friends",
            resource: "Game Center friends list",
            platforms: [.iOS, .macOS, .tvOS], minimumOS: "iOS 14.5",
            triggers: Triggers(selectors: [
                .definite("loadFriends:", with: "GKLocalPlayer"),
                .definite("loadFriendsWithIdentifiers:completionHandler:", with: "GKLocalPlayer"),
                .indicative("loadFriendsAuthorizationStatus:", note: "Reading the status shows no prompt."),
            ]),
            source: protectedResourcesPage, confidence: .medium),

        ProtectedResource(
            key: "NSAlarmKitUsageDescription", capability: "alarmkit",
            resource: "Alarms and timers (AlarmKit)",
            platforms: [.iOS, .macOS], minimumOS: "iOS 26.0",
            triggers: Triggers(swiftSymbols: [
                .swift("8AlarmKit0A7ManagerC", "AlarmKit.AlarmManager", .definite),
            ]),
            notes: "Not on Apple's protected-resources page when the facts were gathered; several projects confirm it.",
            source: "third-party code and docs (index ids 56211643141, 58724964151, 60641733886)",
            confidence: .medium),
    ]
}
