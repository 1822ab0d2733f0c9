import Foundation

/// Which Apple module declares a catalog API, and which modules an import makes visible: a
/// name in a source file is the Apple API only where the file can see that module.
///
/// Apple's framework module maps re-export what their headers import (`export *`), so one
/// import can make several modules visible. `reexports` lists the ones that matter for the
/// catalog, each checked against the framework's headers or its Swift overlay; a module not
/// listed is visible only when imported itself. A gap in this table can only hide a use,
/// never invent one.
public enum APIModules {
    /// Prefixes of catalog type and function names, longest first, to their module.
    static let prefixes: [(String, String)] = [
        ("AVAudioApplication", "AVFAudio"), ("AVAudioSession", "AVFAudio"), ("AVAudioRecorder", "AVFAudio"),
        ("AVAudioEngine", "AVFAudio"), ("AVAudioSessionCategory", "AVFAudio"), ("AVAudioPlayer", "AVFAudio"),
        ("AVSpeechSynthesizer", "AVFAudio"), ("AVPlayerViewController", "AVKit"), ("AVPictureInPictureController", "AVKit"),
        ("AudioHardwareCreateProcessTap", "CoreAudio"), ("AudioQueue", "AudioToolbox"), ("AudioOutputUnit", "AudioToolbox"),
        ("AudioComponent", "AudioToolbox"), ("AudioServices", "AudioToolbox"),
        ("UIImageWriteToSavedPhotosAlbum", "UIKit"), ("UISaveVideoAtPathToSavedPhotosAlbum", "UIKit"),
        ("SecAccessControl", "Security"), ("DNSService", "dnssd"), ("nw_", "Network"), ("NW", "Network"),
        ("NSAppleScript", "Foundation"), ("NSNetService", "Foundation"), ("NetService", "Foundation"),
        ("OSSystemExtension", "SystemExtensions"), ("SFSpeech", "Speech"), ("VNDocumentCamera", "VisionKit"),
        ("DataScanner", "VisionKit"), ("MusicAuthorization", "MusicKit"), ("AlarmManager", "AlarmKit"),
        ("FinanceStore", "FinanceKit"), ("ATTrackingManager", "AppTrackingTransparency"),
        ("ASIdentifierManager", "AdSupport"), ("PKPushRegistry", "PushKit"), ("NFC", "CoreNFC"), ("AL", "AssetsLibrary"), ("AR", "ARKit"),
        ("AB", "AddressBook"), ("AE", "CoreServices"), ("AV", "AVFoundation"), ("BG", "BackgroundTasks"), ("CB", "CoreBluetooth"),
        ("CL", "CoreLocation"), ("CM", "CoreMotion"), ("CN", "Contacts"), ("CX", "CallKit"), ("EA", "ExternalAccessory"), ("EK", "EventKit"), ("GK", "GameKit"),
        ("HK", "HealthKit"), ("HM", "HomeKit"), ("IN", "Intents"), ("LA", "LocalAuthentication"),
        ("MC", "MultipeerConnectivity"), ("MK", "MapKit"), ("MP", "MediaPlayer"), ("NE", "NetworkExtension"), ("NI", "NearbyInteraction"),
        ("PH", "Photos"), ("PK", "PassKit"), ("PT", "PushToTalk"), ("SB", "ScriptingBridge"), ("SK", "StoreKit"), ("SR", "SensorKit"),
        ("UI", "UIKit"), ("VS", "VideoSubscriberAccount"), ("WK", "WebKit"),
    ]

    /// Names without a telling prefix.
    static let exact: [String: String] = [
        "Map": "MapKit", "ARView": "RealityKit",
        // visionOS ARKit data providers.
        "HandTrackingProvider": "ARKit", "ImageTrackingProvider": "ARKit", "PlaneDetectionProvider": "ARKit",
        "SceneReconstructionProvider": "ARKit", "WorldTrackingProvider": "ARKit",
        // Required-reason APIs.
        "UserDefaults": "Foundation", "FileAttributeKey": "Foundation", "URLResourceKey": "Foundation",
        "ProcessInfo": "Foundation", "AppStorage": "SwiftUI",
        "stat": "Darwin", "fstat": "Darwin", "lstat": "Darwin", "fstatat": "Darwin", "statfs": "Darwin",
        "statvfs": "Darwin", "fstatfs": "Darwin", "fstatvfs": "Darwin", "getattrlist": "Darwin",
        "getattrlistbulk": "Darwin", "fgetattrlist": "Darwin", "getattrlistat": "Darwin", "mach_absolute_time": "Darwin",
    ]

    /// The module declaring a catalog type or function (a leading `_` of a C symbol is
    /// ignored), or nil when the name is not known here.
    public static func module(ofSymbol name: String) -> String? {
        let name = name.hasPrefix("_") ? String(name.dropFirst()) : name
        if let m = exact[name] { return m }
        for (prefix, module) in prefixes where name.hasPrefix(prefix) {
            // A two-letter class prefix is followed by the rest of a capitalised name.
            if prefix.count <= 3, prefix.uppercased() == prefix,
               let next = name.dropFirst(prefix.count).first, !next.isUppercase { continue }
            return module
        }
        return nil
    }

    /// Module → modules an import of it makes visible besides itself.
    public static let reexports: [String: Set<String>] = [
        "AVFoundation": ["AVFAudio", "AudioToolbox", "CoreAudio"],
        "AVFAudio": ["AudioToolbox", "CoreAudio"],
        "AVKit": ["AVFoundation", "AVFAudio", "AudioToolbox", "CoreAudio"],
        "ARKit": ["AVFoundation", "AVFAudio", "CoreLocation", "AudioToolbox", "CoreAudio"],
        "RealityKit": ["ARKit", "AVFoundation", "AVFAudio", "CoreLocation"],
        "Speech": ["AVFoundation", "AVFAudio", "AudioToolbox", "CoreAudio"],
        "MapKit": ["CoreLocation"],
        "CoreLocationUI": ["CoreLocation"],
        "WeatherKit": ["CoreLocation"],
        "EventKit": ["CoreLocation"],
        "EventKitUI": ["EventKit", "CoreLocation"],
        "HealthKit": ["CoreLocation"],
        "HealthKitUI": ["HealthKit", "CoreLocation"],
        "Intents": ["CoreLocation"],
        "IntentsUI": ["Intents", "CoreLocation"],
        "PhotosUI": ["Photos"],
        "ContactsUI": ["Contacts"],
        "UIKit": ["Foundation", "Security"],
        "SwiftUI": ["Foundation", "Security"],
        "AppKit": ["Foundation", "Security"],
        "Foundation": ["Security", "Darwin"],
        "CoreServices": ["Security"],
    ]

    /// Modules that matter for visibility: those declaring catalog APIs and those re-exporting them.
    public static let relevant: Set<String> = {
        var all = Set(prefixes.map(\.1)).union(exact.values).union(reexports.keys)
        for r in reexports.values { all.formUnion(r) }
        return all
    }()

    /// Every module the given imports make visible.
    public static func visible(from imports: Set<String>) -> Set<String> {
        var out = imports
        var queue = Array(imports)
        while let m = queue.popLast() {
            for r in reexports[m] ?? [] where out.insert(r).inserted { queue.append(r) }
        }
        // Any Apple framework import brings Foundation; a file importing only its own modules
        // still sees Foundation through them in practice.
        if !imports.isEmpty { out.formUnion(["Foundation", "Security", "Darwin"]) }
        return out
    }
}
