extension ProtectedResourceCatalog {
    /// macOS-only keys with an API trigger. They match only when the matcher is asked for
    /// macOS; iOS and Mac Catalyst binaries never produce them.
    static let macOSResources: [ProtectedResource] = [
        ProtectedResource(
            key: "NSAppleEventsUsageDescription", capability: "macos.appleEvents",
            resource: "Sending Apple events to other apps",
            platforms: [.macOS],
            triggers: Triggers(
                objcClasses: [
                    .indicative("NSAppleScript", note: "Scripts that target no other app send no events."),
                    .definite("SBApplication"),
                ],
                cFunctions: [
                    .definite("_AEDeterminePermissionToAutomateTarget"),
                    .definite("_AESendMessage"),
                ]),
            source: protectedResourcesPage, confidence: .high),

        ProtectedResource(
            key: "NSSystemExtensionUsageDescription", capability: "macos.systemExtension",
            resource: "Activating a system extension",
            platforms: [.macOS],
            triggers: Triggers(objcClasses: [.definite("OSSystemExtensionRequest")]),
            source: "Swift InfoDictionaryKey constants file (index id 52341722646; repository not identified)",
            confidence: .medium),

        ProtectedResource(
            key: "NSAudioCaptureUsageDescription", capability: "macos.audioCapture",
            resource: "Capturing other apps' audio (Core Audio process taps)",
            platforms: [.macOS],
            triggers: Triggers(cFunctions: [.definite("_AudioHardwareCreateProcessTap")]),
            source: "Swift InfoDictionaryKey constants file (index id 52341722646; repository not identified)",
            confidence: .medium),
    ]
}
