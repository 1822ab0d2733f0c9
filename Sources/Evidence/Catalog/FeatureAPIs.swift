/// APIs that need no purpose string but that an Info.plist declaration must match: the code
/// behind each background mode (`UIBackgroundModes`) and device capability
/// (`UIRequiredDeviceCapabilities`). Each feature is a `ProtectedResource` whose key and
/// capability start with `feature.`, so the same detectors find them; `EvidenceIndex` keeps
/// their uses apart (`featureUsages`). A use proves the feature is there; the lists are broad on
/// purpose, since the rules only speak when no use at all is found.
extension ProtectedResourceCatalog {
    public enum FeatureAPI {
        public static let prefix = "feature."
        /// BGTaskScheduler and its requests (`processing`, `fetch`).
        public static let backgroundTasks = "feature.background_tasks"
        /// The pre-iOS 13 background fetch interval (`fetch`).
        public static let backgroundFetch = "feature.background_fetch"
        /// Registration with APNs (`remote-notification`, the `aps-environment` entitlement).
        public static let remoteNotifications = "feature.remote_notifications"
        /// PushKit VoIP pushes and CallKit (`voip`).
        public static let voip = "feature.voip"
        /// Audio and video playback, recording and synthesis (`audio`).
        public static let audio = "feature.audio"
        /// MFi accessories (`external-accessory`).
        public static let externalAccessory = "feature.external_accessory"
        /// Hotspot helpers (`network-authentication`).
        public static let networkAuthentication = "feature.network_authentication"
        /// The PushToTalk framework (`push-to-talk`).
        public static let pushToTalk = "feature.push_to_talk"
        /// AR sessions and views (the `arkit` device capability).
        public static let arkit = "feature.arkit"
        /// `ARConfiguration.isSupported`: the app checks for ARKit before using it.
        public static let arkitSupportCheck = "feature.arkit_support_check"

        public static func isFeature(_ capability: String) -> Bool { capability.hasPrefix(prefix) }
    }

    static let backgroundExecutionPage = "https://developer.apple.com/documentation/xcode/configuring-background-execution-modes"
    static let featurePlatforms: Set<ApplePlatform> = [.iOS, .macCatalyst, .visionOS]

    static func feature(_ capability: String, _ resource: String, _ triggers: Triggers, source: String = backgroundExecutionPage,
                        notes: String? = nil) -> ProtectedResource {
        ProtectedResource(key: capability, capability: capability, resource: resource, platforms: featurePlatforms,
                          triggers: triggers, notes: notes, source: source, confidence: .high)
    }

    public static let arConfigurations = [
        "ARConfiguration", "ARWorldTrackingConfiguration", "ARFaceTrackingConfiguration", "ARBodyTrackingConfiguration",
        "ARGeoTrackingConfiguration", "ARImageTrackingConfiguration", "ARObjectScanningConfiguration",
        "ARPositionalTrackingConfiguration", "AROrientationTrackingConfiguration",
    ]

    public static let featureResources: [ProtectedResource] = [
        feature(FeatureAPI.backgroundTasks, "Background tasks (BGTaskScheduler)", Triggers(objcClasses: [
            .definite("BGTaskScheduler"), .definite("BGProcessingTaskRequest"), .definite("BGAppRefreshTaskRequest"),
            .definite("BGHealthResearchTaskRequest"), .definite("BGContinuedProcessingTaskRequest"),
        ]), source: "https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler"),
        feature(FeatureAPI.backgroundFetch, "Background fetch (iOS 7–12 API)", Triggers(selectors: [
            .definite("setMinimumBackgroundFetchInterval:", with: "UIApplication"),
        ]), source: "https://developer.apple.com/documentation/uikit/uiapplication/setminimumbackgroundfetchinterval(_:)"),
        feature(FeatureAPI.remoteNotifications, "Remote notifications (APNs)", Triggers(selectors: [
            .definite("registerForRemoteNotifications", with: "UIApplication"),
            .definite("registerForRemoteNotificationTypes:", with: "UIApplication"),
        ]), source: "https://developer.apple.com/documentation/uikit/uiapplication/registerforremotenotifications()"),
        feature(FeatureAPI.voip, "VoIP (PushKit, CallKit)", Triggers(objcClasses: [
            .definite("PKPushRegistry"), .indicative("CXProvider"), .indicative("CXCallController"),
        ])),
        feature(FeatureAPI.audio, "Audio and video playback or recording", Triggers(
            objcClasses: [
                .indicative("AVAudioSession"), .indicative("AVAudioPlayer"), .indicative("AVPlayer"), .indicative("AVQueuePlayer"),
                .indicative("AVAudioEngine"), .indicative("AVAudioRecorder"), .indicative("AVPlayerViewController"),
                .indicative("AVPictureInPictureController"), .indicative("AVSpeechSynthesizer"), .indicative("AVSampleBufferAudioRenderer"),
                .indicative("MPNowPlayingInfoCenter"), .indicative("MPRemoteCommandCenter"), .indicative("MPMusicPlayerController"),
                .indicative("WKWebView", note: "Web content can play audio in the background."),
            ],
            cFunctions: [
                .indicative("_AudioQueueNewOutput"), .indicative("_AudioQueueNewInput"), .indicative("_AudioOutputUnitStart"),
                .indicative("_AudioComponentInstanceNew"), .indicative("_AudioServicesPlaySystemSound"),
            ])),
        feature(FeatureAPI.externalAccessory, "MFi accessories (External Accessory)", Triggers(objcClasses: [
            .definite("EAAccessoryManager"), .definite("EASession"),
        ])),
        feature(FeatureAPI.networkAuthentication, "Hotspot authentication", Triggers(objcClasses: [.definite("NEHotspotHelper")])),
        feature(FeatureAPI.pushToTalk, "Push to Talk", Triggers(objcClasses: [.definite("PTChannelManager")])),
        feature(FeatureAPI.arkit, "Augmented reality (ARKit)", Triggers(
            objcClasses: [.definite("ARSession"), .definite("ARSCNView"), .definite("ARSKView")]
                + arConfigurations.dropFirst().map { Trigger.definite($0) },
            swiftSymbols: [.swift("10RealityKit6ARViewC", "RealityKit.ARView", .definite)]),
                source: "https://developer.apple.com/documentation/arkit/verifying-device-support-and-user-permission"),
        feature(FeatureAPI.arkitSupportCheck, "A check that the device supports ARKit", Triggers(
            selectors: arConfigurations.map { Trigger.definite("isSupported", with: $0) }),
                source: "https://developer.apple.com/documentation/arkit/verifying-device-support-and-user-permission"),
    ]
}
