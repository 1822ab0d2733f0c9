import Evidence

/// One capability a Swift API reaches, and how strongly. The key comes from the catalog.
struct SwiftAPIUse: Sendable, Hashable {
    let capability: String
    let strength: EvidenceStrength

    static func definite(_ capability: String) -> SwiftAPIUse { SwiftAPIUse(capability: capability, strength: .definite) }
    static func indicative(_ capability: String) -> SwiftAPIUse { SwiftAPIUse(capability: capability, strength: .indicative) }
}

/// How the arguments of a call decide which capabilities it reaches.
enum SwiftAPIDecision: Sendable {
    /// The uses of the entry, whatever the arguments.
    case fixed([SwiftAPIUse])
    /// A literal argument (`.video`, `AVMediaType.video`, `true`) picks the uses; a literal
    /// not listed means no use. Any other expression gives every candidate, indicative.
    /// `label` nil means the first unlabeled argument, or the right-hand side of an assignment.
    case literal(label: String?, cases: [String: [SwiftAPIUse]])
    /// Each labeled argument reaches its capability unless it is an empty literal
    /// (`[]`, `nil`, `Set()`): HealthKit's share and read type sets.
    case nonEmpty([(label: String, use: SwiftAPIUse)])
}

/// One Swift spelling of a protected API.
struct SwiftAPI: Sendable {
    /// `implicitMember`: `.name` with no receiver written (`[.creationDateKey]`); its
    /// `receivers` are names one of which the file must write, or empty.
    enum Kind: Sendable { case method, property, assignment, initializer, function, implicitMember }

    let kind: Kind
    /// Swift types the member belongs to (static or instance); for initializers, the types
    /// created. Empty for free functions and for members of any receiver (SwiftUI modifiers).
    let receivers: [String]
    /// Method, property or function name; unused for initializers.
    let name: String
    /// Leading argument labels (`_` for none) a call must start with; nil: any labels.
    /// Trailing closures are not counted.
    let labels: [String]?
    let decision: SwiftAPIDecision
    /// The name is specific enough to count, as indicative, when the receiver's type is not
    /// known in the file. Other entries count on an unknown receiver only when a literal
    /// argument they list matches.
    let distinctive: Bool

    static func method(_ receivers: [String], _ name: String, labels: [String]? = nil,
                       _ decision: SwiftAPIDecision, distinctive: Bool = false) -> SwiftAPI {
        SwiftAPI(kind: .method, receivers: receivers, name: name, labels: labels, decision: decision, distinctive: distinctive)
    }

    static func property(_ receivers: [String], _ name: String, _ decision: SwiftAPIDecision,
                         distinctive: Bool = false) -> SwiftAPI {
        SwiftAPI(kind: .property, receivers: receivers, name: name, labels: nil, decision: decision, distinctive: distinctive)
    }

    static func assignment(_ receivers: [String], _ name: String, _ decision: SwiftAPIDecision,
                           distinctive: Bool = false) -> SwiftAPI {
        SwiftAPI(kind: .assignment, receivers: receivers, name: name, labels: nil, decision: decision, distinctive: distinctive)
    }

    static func initializer(_ types: [String], labels: [String]? = nil, _ decision: SwiftAPIDecision) -> SwiftAPI {
        SwiftAPI(kind: .initializer, receivers: types, name: "init", labels: labels, decision: decision, distinctive: false)
    }

    static func implicitMember(_ name: String, _ decision: SwiftAPIDecision, whenFileWrites names: [String] = []) -> SwiftAPI {
        SwiftAPI(kind: .implicitMember, receivers: names, name: name, labels: nil, decision: decision, distinctive: false)
    }

    static func function(_ name: String, _ decision: SwiftAPIDecision) -> SwiftAPI {
        SwiftAPI(kind: .function, receivers: [], name: name, labels: nil, decision: decision, distinctive: true)
    }

    /// Every capability the entry can name.
    var capabilities: Set<String> {
        switch decision {
        case .fixed(let uses): Set(uses.map(\.capability))
        case .literal(_, let cases): Set(cases.values.flatMap { $0.map(\.capability) })
        case .nonEmpty(let pairs): Set(pairs.map(\.use.capability))
        }
    }
}

/// Swift spellings of the catalog's triggers.
///
/// Type references need no entry here: every Objective-C class and Swift type the catalog
/// lists is matched by name (renamed through `swiftNamesOfObjCClasses`), and every C function
/// it lists is matched as a free function unless `cFunctionsNotCalled` names it. This table
/// holds what a name alone cannot say: members (selectors become Swift methods), initializers,
/// property assignments, and the arguments that decide between capabilities.
/// Capability ids are the catalog's; the scanner takes each key from the catalog.
enum SwiftAPITable {
    /// Objective-C classes whose Swift name differs.
    static let swiftNamesOfObjCClasses: [String: String] = [
        "NSNetServiceBrowser": "NetServiceBrowser",
        "NSNetService": "NetService",
        "NSUserDefaults": "UserDefaults",
    ]

    /// Catalog C symbols that are not called as functions from Swift (data symbols, spelled
    /// otherwise in Swift and matched through an entry of `entries`).
    static let cFunctionsNotCalled: Set<String> = [
        "AVAudioSessionCategoryRecord",         // AVAudioSession.Category.record: see setCategory
        "AVAudioSessionCategoryPlayAndRecord",  // AVAudioSession.Category.playAndRecord
        // Required-reason constants: FileAttributeKey and URLResourceKey members in Swift.
        "NSFileCreationDate", "NSFileModificationDate", "NSURLContentModificationDateKey", "NSURLCreationDateKey",
        "NSURLVolumeAvailableCapacityKey", "NSURLVolumeAvailableCapacityForImportantUsageKey",
        "NSURLVolumeAvailableCapacityForOpportunisticUsageKey", "NSURLVolumeTotalCapacityKey",
        "NSFileSystemFreeSize", "NSFileSystemSize",
    ]

    /// C functions that share their name with a Darwin struct: `stat()` with no argument
    /// creates the struct and calls nothing.
    static let cFunctionsNamingStructs: Set<String> = ["stat", "statfs", "statvfs"]

    /// Property names that hand out a shared instance of their type (`AVAudioSession.sharedInstance()`,
    /// `AVAudioApplication.shared`, `GKLocalPlayer.local`): the receiver keeps its type.
    static let sharedInstanceMembers: Set<String> = [
        "shared", "sharedInstance", "default", "current", "standard", "local", "processInfo",
    ]

    static let entries: [SwiftAPI] = mediaCapture + photos + location + personalData + health + connectivity + systemServices
        + requiredReasonAPIs + featureAPIs

    // MARK: Camera, microphone, speech, media library

    static let mediaCapture: [SwiftAPI] = [
        // requestAccessForMediaType:completionHandler: — the media type decides.
        .method(["AVCaptureDevice"], "requestAccess", labels: ["for"],
                .literal(label: "for", cases: ["video": [.definite("camera")], "audio": [.definite("microphone")]])),
        // authorizationStatusForMediaType: — reading the status shows no prompt.
        .method(["AVCaptureDevice"], "authorizationStatus", labels: ["for"],
                .literal(label: "for", cases: ["video": [.indicative("camera")], "audio": [.indicative("microphone")]])),
        // AVCaptureDevice.default(for:) / default(_:for:position:): a capture device of that type.
        .method(["AVCaptureDevice"], "default",
                .literal(label: "for", cases: ["video": [.indicative("camera")], "audio": [.indicative("microphone")]])),
        // UIImagePickerController: only the camera source needs the camera key.
        .assignment(["UIImagePickerController"], "sourceType",
                    .literal(label: nil, cases: ["camera": [.definite("camera")], "photoLibrary": [], "savedPhotosAlbum": []])),
        // setCameraDevice: and the other camera-only setters.
        .assignment(["UIImagePickerController"], "cameraDevice", .fixed([.indicative("camera")])),
        .assignment(["UIImagePickerController"], "cameraCaptureMode", .fixed([.indicative("camera")])),
        .assignment(["UIImagePickerController"], "showsCameraControls", .fixed([.indicative("camera")]), distinctive: true),
        .assignment(["UIImagePickerController"], "cameraOverlayView", .fixed([.indicative("camera")]), distinctive: true),

        // requestRecordPermission: (AVAudioSession) and requestRecordPermissionWithCompletionHandler:
        // (AVAudioApplication, iOS 17; also `await AVAudioApplication.requestRecordPermission()`).
        .method(["AVAudioSession", "AVAudioApplication"], "requestRecordPermission",
                .fixed([.definite("microphone")]), distinctive: true),
        // AVAudioSessionCategoryRecord / PlayAndRecord.
        .method(["AVAudioSession"], "setCategory",
                .literal(label: nil, cases: ["record": [.indicative("microphone")], "playAndRecord": [.indicative("microphone")],
                                             "ambient": [], "soloAmbient": [], "playback": [], "multiRoute": []])),
        // inputNode of AVAudioEngine.
        .property(["AVAudioEngine"], "inputNode", .fixed([.indicative("microphone")]), distinctive: true),

        // requestAuthorization: with SFSpeechRecognizer.
        .method(["SFSpeechRecognizer"], "requestAuthorization", .fixed([.definite("speech")])),
        // requestAuthorization: with MPMediaLibrary / SKCloudServiceController; MusicKit's request().
        .method(["MPMediaLibrary", "SKCloudServiceController"], "requestAuthorization", .fixed([.definite("media_library")])),
        .method(["MusicAuthorization"], "request", .fixed([.definite("media_library")])),
    ]

    // MARK: Photos

    static let photos: [SwiftAPI] = [
        // requestAuthorizationForAccessLevel:handler: — the access level decides.
        .method(["PHPhotoLibrary"], "requestAuthorization", labels: ["for"],
                .literal(label: "for", cases: ["readWrite": [.definite("photos.read")], "addOnly": [.definite("photos.addOnly")]])),
        // Legacy requestAuthorization: — read-write.
        .method(["PHPhotoLibrary"], "requestAuthorization", .fixed([.definite("photos.read")])),
        .method(["PHPhotoLibrary"], "authorizationStatus", labels: ["for"],
                .literal(label: "for", cases: ["readWrite": [.indicative("photos.read")], "addOnly": [.indicative("photos.addOnly")]])),
        // presentLimitedLibraryPickerFromViewController:(completionHandler:)
        .method(["PHPhotoLibrary"], "presentLimitedLibraryPicker", .fixed([.definite("photos.read")]), distinctive: true),
        // fetchAssetsWithOptions:, …WithMediaType:options:, …WithLocalIdentifiers:options:, …InAssetCollection:options:
        .method(["PHAsset"], "fetchAssets", .fixed([.definite("photos.read")]), distinctive: true),
        // fetchAssetCollectionsWithType:subtype:options:
        .method(["PHAssetCollection"], "fetchAssetCollections", .fixed([.definite("photos.read")]), distinctive: true),
        // creationRequestForAssetFromImage:, …FromImageAtFileURL:, …FromVideoAtFileURL:
        .method(["PHAssetChangeRequest", "PHAssetCreationRequest"], "creationRequestForAsset",
                .fixed([.indicative("photos.addOnly")]), distinctive: true),
        .method(["PHAssetChangeRequest", "PHAssetCreationRequest"], "creationRequestForAssetFromImage",
                .fixed([.indicative("photos.addOnly")]), distinctive: true),
        .method(["PHAssetChangeRequest", "PHAssetCreationRequest"], "creationRequestForAssetFromVideo",
                .fixed([.indicative("photos.addOnly")]), distinctive: true),
    ]

    // MARK: Location

    static let location: [SwiftAPI] = [
        .method(["CLLocationManager"], "requestWhenInUseAuthorization", labels: [],
                .fixed([.definite("location.whenInUse")]), distinctive: true),
        // Apple requires the when-in-use key with the always key; iOS 8–10 read the legacy key.
        .method(["CLLocationManager"], "requestAlwaysAuthorization", labels: [],
                .fixed([.definite("location.always"), .definite("location.whenInUse"), .definite("location.alwaysLegacy")]),
                distinctive: true),
        .method(["CLLocationManager"], "startUpdatingLocation", labels: [],
                .fixed([.definite("location.whenInUse")]), distinctive: true),
        .method(["CLLocationManager"], "requestLocation", labels: [], .fixed([.definite("location.whenInUse")])),
        .method(["CLLocationManager"], "startMonitoringSignificantLocationChanges", labels: [],
                .fixed([.definite("location.whenInUse"), .indicative("location.always")]), distinctive: true),
        .method(["CLLocationManager"], "startMonitoringVisits", labels: [],
                .fixed([.definite("location.whenInUse"), .indicative("location.always")]), distinctive: true),
        // startMonitoringForRegion:
        .method(["CLLocationManager"], "startMonitoring", labels: ["for"],
                .fixed([.definite("location.whenInUse"), .indicative("location.always")])),
        // startRangingBeaconsSatisfyingConstraint:
        .method(["CLLocationManager"], "startRangingBeacons", labels: ["satisfying"],
                .fixed([.definite("location.whenInUse")]), distinctive: true),
        // setAllowsBackgroundLocationUpdates:
        .assignment(["CLLocationManager"], "allowsBackgroundLocationUpdates",
                    .literal(label: nil, cases: ["true": [.indicative("location.always")], "false": []]), distinctive: true),
        // requestTemporaryFullAccuracyAuthorizationWithPurposeKey:(completion:)
        .method(["CLLocationManager"], "requestTemporaryFullAccuracyAuthorization",
                .fixed([.definite("location.temporaryFullAccuracy")]), distinctive: true),
        // setShowsUserLocation: with MKMapView; SwiftUI's Map(…, showsUserLocation: true).
        .assignment(["MKMapView"], "showsUserLocation",
                    .literal(label: nil, cases: ["true": [.indicative("location.whenInUse")], "false": []]), distinctive: true),
        .initializer(["Map"], .literal(label: "showsUserLocation",
                                       cases: ["true": [.indicative("location.whenInUse")], "false": []])),
        // CLLocationUpdate.liveUpdates (iOS 17).
        .method(["CLLocationUpdate"], "liveUpdates", .fixed([.definite("location.whenInUse")]), distinctive: true),
        // CLServiceSession(authorization:) (iOS 18): the requirement decides.
        .initializer(["CLServiceSession"], labels: ["authorization"],
                     .literal(label: "authorization", cases: [
                        "whenInUse": [.definite("location.whenInUse")],
                        "always": [.definite("location.always"), .definite("location.whenInUse")],
                        "none": [],
                     ])),
    ]

    // MARK: Contacts, calendars, reminders, Wallet

    static let personalData: [SwiftAPI] = [
        // requestAccessForEntityType:completionHandler: with CNContactStore.
        .method(["CNContactStore"], "requestAccess", labels: ["for"],
                .literal(label: "for", cases: ["contacts": [.definite("contacts")]])),
        .method(["CNContactStore"], "enumerateContacts", labels: ["with"], .fixed([.definite("contacts")]), distinctive: true),
        .method(["CNContactStore"], "unifiedContacts", labels: ["matching"], .fixed([.definite("contacts")]), distinctive: true),
        .method(["CNContactStore"], "unifiedContact", labels: ["withIdentifier"], .fixed([.definite("contacts")]), distinctive: true),
        .method(["CNContactStore"], "containers", labels: ["matching"], .fixed([.indicative("contacts")])),

        .method(["EKEventStore"], "requestFullAccessToEvents", .fixed([.definite("calendars.full")]), distinctive: true),
        .method(["EKEventStore"], "requestWriteOnlyAccessToEvents", .fixed([.definite("calendars.writeOnly")]), distinctive: true),
        .method(["EKEventStore"], "requestFullAccessToReminders", .fixed([.definite("reminders")]), distinctive: true),
        // requestAccessToEntityType:completion: — the entity type decides.
        .method(["EKEventStore"], "requestAccess", labels: ["to"],
                .literal(label: "to", cases: ["event": [.definite("calendars.legacy")], "reminder": [.definite("reminders.legacy")]])),
        // eventsMatchingPredicate: reads events on every iOS version.
        .method(["EKEventStore"], "events", labels: ["matching"],
                .fixed([.definite("calendars.full"), .definite("calendars.legacy")])),
        .method(["EKEventStore"], "predicateForEvents", labels: ["withStart"],
                .fixed([.definite("calendars.full")]), distinctive: true),
        // calendarsForEntityType:
        .method(["EKEventStore"], "calendars", labels: ["for"],
                .literal(label: "for", cases: ["event": [.indicative("calendars.full")], "reminder": [.indicative("reminders")]])),
        // saveEvent:span:(commit:)error: — full access also allows saving.
        .method(["EKEventStore"], "save", labels: ["_", "span"], .fixed([.indicative("calendars.writeOnly")])),
        .method(["EKEventStore"], "fetchReminders", labels: ["matching"],
                .fixed([.definite("reminders"), .definite("reminders.legacy")]), distinctive: true),

        // FinanceKit: FinanceStore.shared.requestAuthorization().
        .method(["FinanceStore"], "requestAuthorization", .fixed([.definite("wallet.financialData")])),
    ]

    // MARK: Health, motion, SensorKit

    static let health: [SwiftAPI] = [
        // requestAuthorizationToShareTypes:readTypes:completion: — share types need the
        // update key, read types the share key.
        .method(["HKHealthStore"], "requestAuthorization", labels: ["toShare", "read"],
                .nonEmpty([("toShare", .definite("health.update")), ("read", .definite("health.share"))]), distinctive: true),
        // HealthKitUI's SwiftUI modifier .healthDataAccessRequest(store:shareTypes:readTypes:trigger:…).
        SwiftAPI(kind: .method, receivers: [], name: "healthDataAccessRequest", labels: ["store", "shareTypes", "readTypes"],
                 decision: .nonEmpty([("shareTypes", .definite("health.update")), ("readTypes", .definite("health.share"))]),
                 distinctive: true),
        // saveObject(s):withCompletion:
        .method(["HKHealthStore"], "save", labels: ["_"], .fixed([.definite("health.update")])),
        // clinicalTypeForIdentifier:
        .method(["HKObjectType", "HKClinicalType"], "clinicalType", labels: ["forIdentifier"],
                .fixed([.definite("health.clinicalRecords")]), distinctive: true),
        // requestAuthorizationForSensors:completion:
        .method(["SRSensorReader"], "requestAuthorization", labels: ["sensors"], .fixed([.definite("sensorkit")]), distinctive: true),
    ]

    // MARK: Bluetooth, local network

    static let connectivity: [SwiftAPI] = [
        // initWithDelegate:queue:(options:) — creating a manager shows the prompt.
        .initializer(["CBCentralManager", "CBPeripheralManager"],
                     .fixed([.definite("bluetooth"), .definite("bluetooth.legacy")])),
        .method(["CBCentralManager"], "scanForPeripherals", labels: ["withServices"],
                .fixed([.definite("bluetooth"), .definite("bluetooth.legacy")]), distinctive: true),
        .method(["CBPeripheralManager"], "startAdvertising",
                .fixed([.definite("bluetooth"), .definite("bluetooth.legacy")])),
    ]

    // MARK: Face ID, Siri, Focus, tracking, TV provider, Game Center, AlarmKit

    static let biometricPolicies: [String: [SwiftAPIUse]] = [
        "deviceOwnerAuthenticationWithBiometrics": [.definite("faceid")],
        "deviceOwnerAuthentication": [.definite("faceid")],
        "deviceOwnerAuthenticationWithBiometricsOrWatch": [.definite("faceid")],
        "deviceOwnerAuthenticationWithBiometricsOrCompanion": [.definite("faceid")],
        "deviceOwnerAuthenticationWithWatch": [],
        "deviceOwnerAuthenticationWithCompanion": [],
        "deviceOwnerAuthenticationWithWristDetection": [],
    ]

    static let systemServices: [SwiftAPI] = [
        // evaluatePolicy:localizedReason:reply: — canEvaluatePolicy:error: is no use.
        .method(["LAContext"], "evaluatePolicy", .literal(label: nil, cases: biometricPolicies), distinctive: true),
        .method(["LAContext"], "evaluateAccessControl", .fixed([.definite("faceid")]), distinctive: true),
        .method(["INPreferences"], "requestSiriAuthorization", .fixed([.definite("siri")]), distinctive: true),
        .method(["INFocusStatusCenter"], "requestAuthorization", .fixed([.definite("focus")])),
        // requestTrackingAuthorizationWithCompletionHandler: (also the async form).
        .method(["ATTrackingManager"], "requestTrackingAuthorization", .fixed([.definite("tracking")]), distinctive: true),
        .method(["VSAccountManager"], "checkAccessStatus", .fixed([.definite("tv_provider")]), distinctive: true),
        .method(["GKLocalPlayer"], "loadFriends", .fixed([.definite("gamecenter.friends")]), distinctive: true),
        .method(["GKLocalPlayer"], "loadFriendsAuthorizationStatus", .fixed([.indicative("gamecenter.friends")]), distinctive: true),
        .method(["AlarmManager"], "requestAuthorization", .fixed([.definite("alarmkit")])),
    ]

    /// Modules a type may be qualified with (`CoreLocation.CLLocationManager`).
    static let appleModules: Set<String> = [
        "AVFoundation", "AVFAudio", "AVKit", "ARKit", "AlarmKit", "AppTrackingTransparency", "AddressBook", "AssetsLibrary",
        "Contacts", "CoreBluetooth", "CoreLocation", "CoreMotion", "CoreNFC", "EventKit", "FinanceKit", "Foundation",
        "GameKit", "HealthKit", "HomeKit", "Intents", "LocalAuthentication", "MapKit", "MediaPlayer", "MultipeerConnectivity",
        "MusicKit", "NearbyInteraction", "Network", "PassKit", "Photos", "RealityKit", "SensorKit", "Speech", "StoreKit",
        "SwiftUI", "UIKit", "VideoSubscriberAccount", "VisionKit", "dnssd",
    ]
}
