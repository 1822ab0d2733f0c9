import Foundation
import Artifacts

/// Apple's list of "commonly used third-party SDKs": an app that adds one of them must ship
/// the SDK's own privacy manifest (ITMS-91061) and, when the SDK is a binary dependency, its
/// signature (ITMS-91065). The names are Apple's; the aliases map package, pod and repository
/// names to them (from the reference facts `sdk-list.json`, whose list matches the crasowas
/// analyser's `COMMON_SDKS` and an auditor rule quoting Apple, retrieved 2026-10-08).
public enum ThirdPartySDKCatalog {
    public static let source = "https://developer.apple.com/support/third-party-SDK-requirements/"

    /// Apple's 86 names, in Apple's order (`BoringSSL / openssl_grpc` is one entry with two names).
    public static let listed: [String] = [
        "Abseil", "AFNetworking", "Alamofire", "AppAuth", "BoringSSL / openssl_grpc", "Capacitor", "Charts",
        "connectivity_plus", "Cordova", "device_info_plus", "DKImagePickerController", "DKPhotoGallery", "FBAEMKit",
        "FBLPromises", "FBSDKCoreKit", "FBSDKCoreKit_Basics", "FBSDKLoginKit", "FBSDKShareKit", "file_picker",
        "FirebaseABTesting", "FirebaseAuth", "FirebaseCore", "FirebaseCoreDiagnostics", "FirebaseCoreExtension",
        "FirebaseCoreInternal", "FirebaseCrashlytics", "FirebaseDynamicLinks", "FirebaseFirestore",
        "FirebaseInstallations", "FirebaseMessaging", "FirebaseRemoteConfig", "Flutter", "flutter_inappwebview",
        "flutter_local_notifications", "fluttertoast", "FMDB", "geolocator_apple", "GoogleDataTransport",
        "GoogleSignIn", "GoogleToolboxForMac", "GoogleUtilities", "grpcpp", "GTMAppAuth", "GTMSessionFetcher", "hermes",
        "image_picker_ios", "IQKeyboardManager", "IQKeyboardManagerSwift", "Kingfisher", "leveldb", "Lottie",
        "MBProgressHUD", "nanopb", "OneSignal", "OneSignalCore", "OneSignalExtension", "OneSignalOutcomes", "OpenSSL",
        "OrderedSet", "package_info", "package_info_plus", "path_provider", "path_provider_ios", "Promises", "Protobuf",
        "Reachability", "RealmSwift", "RxCocoa", "RxRelay", "RxSwift", "SDWebImage", "share_plus",
        "shared_preferences_ios", "SnapKit", "sqflite", "Starscream", "SVProgressHUD", "SwiftyGif", "SwiftyJSON",
        "Toast", "UnityFramework", "url_launcher", "url_launcher_ios", "video_player_avfoundation", "wakelock",
        "webview_flutter_wkwebview",
    ]

    /// Other names an SDK of the list goes by, to the listed name, as the reference facts write
    /// them: a key may name alternatives (`a / b`) and carry a remark in parentheses; a value may
    /// add a remark after the listed name.
    public static let aliases: [(alias: String, listed: String)] = [
        ("firebase-ios-sdk", "FirebaseCore"),
        ("googlesignin-ios", "GoogleSignIn"),
        ("facebook-ios-sdk", "FBSDKCoreKit"),
        ("lottie-ios", "Lottie"),
        ("lottie-spm", "Lottie"),
        ("lottie-react-native", "Lottie"),
        ("realm-swift", "RealmSwift"),
        ("appauth-ios", "AppAuth"),
        ("gtm-session-fetcher", "GTMSessionFetcher"),
        ("gtmappauth", "GTMAppAuth"),
        ("googleutilities", "GoogleUtilities"),
        ("googledatatransport", "GoogleDataTransport"),
        ("abseil-cpp-binary", "Abseil"),
        ("grpc-binary", "grpcpp"),
        ("boringssl-swiftpm", "BoringSSL / openssl_grpc"),
        ("onesignal-ios-sdk", "OneSignal"),
        ("onesignal-xcframework", "OneSignal"),
        ("reachability.swift / ReachabilitySwift", "Reachability"),
        ("toast-swift", "Toast"),
        ("openssl-package", "OpenSSL"),
        ("dgcharts", "Charts"),
        ("iqkeyboardmanager", "IQKeyboardManagerSwift"),
        ("PromisesObjC", "Promises"),
        ("PromisesSwift", "Promises"),
        ("FBLPromises (pod PromisesObjC)", "FBLPromises"),
        ("wakelock_plus", "wakelock (variant; listed separately in some third-party lists)"),
    ]

    /// The listed name for an SDK, pod, package or framework name, compared without regard to
    /// letter case; nil when it is not on Apple's list.
    public static func listedName(_ name: String) -> String? {
        matching[name.lowercased()]
    }

    /// Lower-cased names and aliases to the listed name.
    static let matching: [String: String] = {
        var table: [String: String] = [:]
        for name in listed {
            for part in alternatives(name) { table[part.lowercased()] = name }
        }
        for (alias, value) in aliases {
            // The listed name a value starts with (`wakelock (variant; …)` → `wakelock`).
            guard let target = listed.filter({ value == $0 || value.hasPrefix($0 + " ") }).max(by: { $0.count < $1.count }) else { continue }
            for part in alternatives(alias) where table[part.lowercased()] == nil { table[part.lowercased()] = target }
        }
        return table
    }()

    /// `a / b (remark)` → `a`, `b`; a remark `(pod X)` names another alias, X.
    static func alternatives(_ text: String) -> [String] {
        var out: [String] = []
        var rest = text
        if let open = rest.firstIndex(of: "("), let close = rest[open...].firstIndex(of: ")") {
            let remark = rest[rest.index(after: open)..<close]
            if remark.hasPrefix("pod ") { out.append(String(remark.dropFirst(4)).trimmingCharacters(in: .whitespaces)) }
            rest = String(rest[..<open])
        }
        out += rest.components(separatedBy: " / ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return out
    }
}

extension ThirdPartySDKCatalog {
    /// The listed name of an SDK of the inventory: by its name, its repository's name, or —
    /// for a resource bundle — the SDK names its folder name carries (`FirebaseCore_Privacy`,
    /// SwiftPM's `Package_Target`); nil when it is not on Apple's list.
    public static func listedName(of sdk: SDKComponent) -> String? {
        for name in candidateNames(sdk) {
            if let listed = listedName(name) { return listed }
        }
        return nil
    }

    static func candidateNames(_ sdk: SDKComponent) -> [String] {
        var names = [sdk.name]
        if let origin = sdk.origin, sdk.kind == .swiftPackage {
            var repo = PathUtil.lastComponent(origin.trimmingCharacters(in: CharacterSet(charactersIn: "/")))
            if repo.hasSuffix(".git") { repo = String(repo.dropLast(4)) }
            names.append(repo)
        }
        guard sdk.kind == .resourceBundle else { return names }
        var base = sdk.name
        for suffix in ["_privacy", "-privacy", "privacy", "_resources", "-resources", "resources"] where base.lowercased().hasSuffix(suffix) {
            base = String(base.dropLast(suffix.count))
            break
        }
        names.append(base)
        if let underscore = base.firstIndex(of: "_") {
            names.append(String(base[..<underscore]))
            names.append(String(base[base.index(after: underscore)...]))
        }
        return names.filter { !$0.isEmpty }
    }
}
