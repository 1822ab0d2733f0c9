import Foundation
import Artifacts
import Evidence

public struct MissingPurposeStringRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "missing_purpose_string",
        name: "Protected resource used without a purpose string",
        summary: "A bundle's code uses a protected resource (camera, location, contacts, photos, …) but that bundle's Info.plist lacks the purpose string.",
        rationale: """
        iOS terminates an app the moment it asks for a protected resource without the matching \
        `NS…UsageDescription` key (Core Location instead ignores the request: no prompt, no \
        location), and App Store Connect rejects the upload (ITMS-90683). Apple \
        judges each bundle on its own: an app extension that uses the camera needs the key in \
        the extension's Info.plist, not only the app's. Add the key with a sentence that says \
        why the feature needs the data.

        A bundle's code is its own sources and binaries plus everything it links: framework and \
        static-library targets, local packages and pods, transitively (each use names the chain). \
        The same severity policy holds for built apps and projects:
        - **error** — a use in the bundle's own code (its sources in its folder, or any of its \
        binaries: App Store Connect checks the references of every binary it ships, embedded \
        frameworks included), or in linked or embedded code that the bundle's own sources reach \
        by name (they name the type and the function that hold the use);
        - **note** — a use only in shared code the bundle's own code never names: code it \
        links or embeds (a shared framework, a static library or package whose unused code the \
        linker strips) or files it compiles from outside its folder (an app's settings screens \
        compiled into an extension). On real apps this is mostly the part another bundle uses; \
        whether it runs in this bundle needs a call graph.

        The bundle's folder is its Info.plist's, less a `Resources` or `Supporting Files` folder \
        the plist sits in; its own code there is what "names" the declarations.

        A resource that does not ask on the target's platform (local network on tvOS) is not \
        reported, nor a missing when-in-use key next to an Always key (one cause, one finding: \
        location_always_without_when_in_use reports it).

        A Swift or Objective-C name counts as Apple's API only where the file sees the module \
        (imported, re-exported by an import, or `@_exported` by the target) and the target's \
        code closure declares no type or function of that name. `#if` conditions are decided \
        with the target's own compilation conditions (SWIFT_ACTIVE_COMPILATION_CONDITIONS, \
        OTHER_SWIFT_FLAGS -D, GCC_PREPROCESSOR_DEFINITIONS) and platform.
        """,
        area: .privacy, severity: .error, tags: ["privacy", "app-review"],
        references: ["ITMS-90683", "https://developer.apple.com/documentation/bundleresources/information_property_list/protected_resources"],
        itms: ["ITMS-90683"],
        triggering: [
            RuleExample(["App/Info.plist": plistXMLMarkingRoot("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Scanner.m": "#import <AVFoundation/AVFoundation.h>\n\nvoid startScanner(void) {\n    [AVCaptureDevice requestAccessForMediaType:AVMediaTypeVideo completionHandler:^(BOOL granted) {}];\n}\n"],
                        note: "The finding points at the Info.plist that lacks the key."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"], sources: ["App/App.swift"],
                              links: ["AuthKit"], embeds: ["AuthKit", "Share"]),
                ExampleTarget("Share", type: "app-extension", settings: ["INFOPLIST_FILE": "Share/Info.plist"],
                              sources: ["Share/ShareViewController.swift"], links: ["AuthKit"]),
                ExampleTarget("AuthKit", type: "framework", sources: ["AuthKit/BiometricGate.swift"]),
            ]),
                         "App/Info.plist": plistXML("<key>NSFaceIDUsageDescription</key><string>Unlock your vault with Face ID.</string>"),
                         "App/App.swift": "import UIKit\n",
                         "Share/Info.plist": plistXMLMarkingRoot("<key>NSExtension</key><dict/>"),
                         "Share/ShareViewController.swift": "import AuthKit\n\nfinal class ShareViewController {\n    func viewDidLoad() { BiometricGate().unlock() }\n}\n",
                         "AuthKit/BiometricGate.swift": "import LocalAuthentication\n\npublic final class BiometricGate {\n    public init() {}\n    public func unlock() {\n        LAContext().evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: \"Unlock\") { _, _ in }\n    }\n}\n"],
                        kind: .project,
                        note: "The share extension reaches Face ID through the team's framework: its own code calls BiometricGate.unlock(), whose body evaluates a biometric policy. An error for the extension; the app, which embeds the framework, declares the key."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"], sources: ["App/App.swift"],
                              links: ["Location"]),
                ExampleTarget("Location", type: "library.static", sources: ["Location/Tracker.swift"]),
            ]),
                         "App/Info.plist": plistXMLMarkingRoot("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.swift": "import UIKit\n",
                         "Location/Tracker.swift": "import CoreLocation\n\nfinal class Tracker {\n    let manager = CLLocationManager()\n    func start() { manager.requestWhenInUseAuthorization() }\n}\n"],
                        kind: .project,
                        note: "Code of a static library the app links but never names: a note, since the linker drops code nothing calls and whether it runs needs a call graph."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>"),
                         "App/Scanner.m": "#import <AVFoundation/AVFoundation.h>\n\nvoid startScanner(void) {\n    [AVCaptureDevice requestAccessForMediaType:AVMediaTypeVideo completionHandler:^(BOOL granted) {}];\n}\n"]),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Scanner.m": "// [AVCaptureDevice requestAccessForMediaType:AVMediaTypeVideo completionHandler:nil];\n#if DEBUG\nvoid debugCamera(void) { [AVCaptureDevice requestAccessForMediaType:AVMediaTypeVideo completionHandler:nil]; }\n#endif\n"],
                        note: "Comments and code compiled only into debug builds are not shipping uses."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: ["INFOPLIST_FILE": "App/Info.plist"],
                                                                          sources: ["App/AlarmManager.swift", "App/Settings.swift"]),
                         "App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.clock</string>"),
                         "App/AlarmManager.swift": "final class AlarmManager {\n    static let shared = AlarmManager()\n    func requestAuthorization() async {}\n}\n",
                         "App/Settings.swift": "import AlarmKit\nimport SwiftUI\n\nfunc enableAlarms() async {\n    await AlarmManager.shared.requestAuthorization()\n}\n"],
                        kind: .project,
                        note: "The app declares its own AlarmManager in another file of the target; it shadows AlarmKit's."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.clock</string>"),
                         "App/Clock.swift": "import ClockCore\n\nfunc enableAlarms() async {\n    try? await AlarmManager.shared.requestAuthorization()\n}\n"],
                        note: "The file does not import AlarmKit (nor a module that re-exports it), so AlarmManager is some other module's type."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"], sources: ["Shared/Location.swift"], embeds: ["Widget"]),
                ExampleTarget("Widget", type: "app-extension",
                              settings: ["INFOPLIST_FILE": "Widget/Info.plist", "SWIFT_ACTIVE_COMPILATION_CONDITIONS": "APP_EXTENSION"],
                              sources: ["Shared/Location.swift"]),
            ]),
                         "App/Info.plist": plistXML("<key>NSLocationWhenInUseUsageDescription</key><string>Show the weather where you are.</string>"),
                         "Widget/Info.plist": plistXML("<key>NSExtension</key><dict/>"),
                         "Shared/Location.swift": "import CoreLocation\n\nfunc askForLocation() {\n    #if !APP_EXTENSION\n    CLLocationManager().requestWhenInUseAuthorization()\n    #endif\n}\n"],
                        kind: .project,
                        note: "Compilation conditions are the target's: APP_EXTENSION is set for the widget only, so the shared file's request never ships in it."),
            RuleExample(["TV.xcodeproj/project.pbxproj": exampleProject(target: "TV", settings: ["INFOPLIST_FILE": "TV/Info.plist", "SDKROOT": "appletvos"],
                                                                         sources: ["TV/Browser.swift"]),
                         "TV/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.tv</string>"),
                         "TV/Browser.swift": "import Foundation\n\nlet browser = NetServiceBrowser()\n"],
                        kind: .project, note: "tvOS has no local network prompt (TN3179), so a tvOS target needs no NSLocalNetworkUsageDescription."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>App</string>\n<key>NSLocationWhenInUseUsageDescription</key><string>Show stores near you.</string>\n<key>NSCameraUsageDescription</key><string>Scan the code on a store's shelf.</string>"),
                         "PlugIns/AppTests.xctest/Info.plist": plistXML("<key>CFBundleExecutable</key><string>AppTests</string>")],
                        binaryFixtures: ["App": "App", "PlugIns/AppTests.xctest/AppTests": "Recorder"], kind: .app,
                        note: "A unit-test bundle that records audio and saves photos, copied into an app built for testing: test code never ships, so the app needs no microphone or photo keys for it."),
        ])

    static let catalog = ProtectedResourceCatalog.standard

    public func check(_ context: RuleContext) -> [Finding] {
        let product = context.product
        // Frameworks' and resource bundles' code runs in the bundle that embeds them.
        let chains = EmbeddingChains(product)
        var byHostAndKey: [String: [String: [Usage]]] = [:]
        for u in context.shippingUsages where u.strength == .definite && !u.key.isEmpty {
            guard let h = chains.host(of: u.bundle)?.name else { continue }
            byHostAndKey[h, default: [:]][u.key, default: []].append(u)
        }
        var out: [Finding] = []
        for b in product.bundles where EmbeddingChains.hostKinds.contains(b.kind) {
            for (key, usages) in (byHostAndKey[b.name] ?? [:]).sorted(by: { $0.key < $1.key }) {
                guard b.infoValue(key) == nil else { continue }
                // One cause, one finding: an Always key without the when-in-use one is
                // location_always_without_when_in_use's (apps, watch apps, App Clips).
                if key == "NSLocationWhenInUseUsageDescription", b.kind != .appExtension,
                   ProtectedResourceCatalog.alwaysLocationKeys.contains(where: { b.infoValue($0) != nil }) {
                    continue
                }
                // A project target's platform decides whether the resource asks at all there
                // (no local network prompt on tvOS); binaries are matched per platform already.
                if let platform = b.sourcePlatform.flatMap(ApplePlatform.init(rawValue:)),
                   let resource = Self.catalog.resource(forKey: key), !resource.platforms.contains(platform) { continue }
                // Legacy keys matter only while the deployment target is below the version that
                // replaced them; when it is unknown, assume a current one.
                if let below = Self.catalog.resource(forKey: key)?.neededOnlyBelowIOS {
                    guard b.sourcePlatform ?? "iOS" == "iOS", let min = b.minimumOSVersion, min.first?.isNumber == true,
                          VersionOrder.compare(min, below) == .orderedAscending else { continue }
                }
                // One use can reach the bundle twice (as a framework's own code and as code the
                // bundle links): keep the reading that decides the severity.
                let all = usages.sorted { UsageReading.describe($0) < UsageReading.describe($1) }
                var seenLocations = Set<UsageLocation>()
                let direct = all.filter { UsageReading.isDirect($0, host: b) }.filter { seenLocations.insert($0.location).inserted }
                let sorted = direct + all.filter { seenLocations.insert($0.location).inserted }
                // Binaries count wherever they are (App Store Connect checks every binary's
                // references); in sources, code outside the target's own folder — a shared
                // framework or a local package — may never run in this bundle.
                let first = sorted[0]
                let resource = Self.catalog.resource(forKey: key)?.resource ?? key
                let location = b.infoPlist.map { FileLocation(path: $0.path, position: $0.root?.position) } ?? FileLocation(path: b.path)
                // Core Location does not crash: without the key the request has no effect.
                let consequence = key == "NSFaceIDUsageDescription" ? "authentication with Face ID fails without it"
                    : key.hasPrefix("NSLocation") ? "iOS ignores its location authorization request (no prompt, no access)"
                    : "iOS terminates the app when it asks"
                var f = finding("\(b.name) uses \(resource.lowercased()) (\(UsageReading.describe(first))) but its Info.plist has no \(key); \(consequence) (ITMS-90683)",
                                bundle: b.name, at: location, key: key,
                                evidence: sorted.prefix(5).map(UsageReading.evidenceRef),
                                fix: "Add \(key) to the Info.plist of \(b.name) with a sentence saying why the feature needs it.")
                if direct.isEmpty {
                    // Shared code the bundle's own code never names is mostly the part another bundle uses.
                    f.severity = .note
                    let whose: String
                    if case .linked = first.origin {
                        whose = "code it links that its own code never names"
                    } else if first.bundle != b.name {
                        whose = "code of the framework \(first.bundle) it embeds, which its own code never names"
                    } else {
                        whose = "shared code outside the target's folder"
                    }
                    f.message = "\(b.name) compiles code that uses \(resource.lowercased()) (\(UsageReading.describe(first)), \(whose)) but its Info.plist has no \(key); if this bundle can reach that code, \(consequence) (ITMS-90683)"
                }
                out.append(f)
            }
        }
        return out
    }
}

/// Numeric comparison of dotted versions ("15.0" < "15.10").
enum VersionOrder {
    static func compare(_ a: String, _ b: String) -> ComparisonResult {
        let x = a.split(separator: ".").map { Int($0) ?? 0 }, y = b.split(separator: ".").map { Int($0) ?? 0 }
        for i in 0..<max(x.count, y.count) {
            let p = i < x.count ? x[i] : 0, q = i < y.count ? y[i] : 0
            if p != q { return p < q ? .orderedAscending : .orderedDescending }
        }
        return .orderedSame
    }
}
