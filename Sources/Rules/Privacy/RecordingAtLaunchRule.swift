import Foundation
import Artifacts
import Evidence

public struct RecordingAtLaunchRule: Rule {
    public init() {}

    /// Capability id the Swift scanner gives a recording audio session set up during launch
    /// (the catalog's).
    public static let capability = ProtectedResourceCatalog.Capability.recordingAtLaunch

    public static let description = RuleDescription(
        identifier: "recording_session_at_launch",
        name: "Audio session set up for recording at launch",
        summary: "The app configures its audio session for recording (.record or .playAndRecord) while it launches, before the user asked for anything that records.",
        rationale: """
        A recording category set in `application(_:didFinishLaunchingWithOptions:)` or a SwiftUI \
        `App` initializer makes iOS ask for the microphone — or show the recording indicator — \
        as soon as the app starts, without context. Reviewers reject prompts that appear before \
        the user reaches the feature (guideline 5.1.1), and users deny them. Configure the \
        session when the recording feature starts.
        """,
        area: .privacy, severity: .warning, tags: ["privacy", "app-review"],
        references: ["https://developer.apple.com/app-store/review/guidelines/#5.1.1",
                     "https://developer.apple.com/documentation/avfaudio/avaudiosession/category-swift.struct/playandrecord"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSMicrophoneUsageDescription</key><string>Record voice memos for your trips.</string>"),
                         "App/AppDelegate.swift": """
                         import AVFoundation
                         import UIKit

                         final class AppDelegate: NSObject, UIApplicationDelegate {
                             func application(_ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
                                 try? ↓AVAudioSession.sharedInstance().setCategory(.playAndRecord, mode: .default)
                                 return true
                             }
                         }
                         """]),
            RuleExample(["App/Info.plist": plistXML("<key>NSMicrophoneUsageDescription</key><string>Record voice memos for your trips.</string>"),
                         "App/MemoApp.swift": """
                         import AVFoundation
                         import SwiftUI

                         @main
                         struct MemoApp: App {
                             init() {
                                 try? ↓AVAudioSession.sharedInstance().setCategory(.record)
                             }

                             var body: some Scene {
                                 WindowGroup { Text("Memos") }
                             }
                         }
                         """], note: "A SwiftUI app's initializer runs at launch too."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSMicrophoneUsageDescription</key><string>Record voice memos for your trips.</string>"),
                         "App/Recorder.swift": """
                         import AVFoundation

                         final class Recorder {
                             func start() throws {
                                 try AVAudioSession.sharedInstance().setCategory(.playAndRecord, mode: .default)
                             }
                         }
                         """], note: "Set up when the recording feature starts."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/AppDelegate.swift": """
                         import AVFoundation
                         import UIKit

                         final class AppDelegate: NSObject, UIApplicationDelegate {
                             func application(_ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
                                 try? AVAudioSession.sharedInstance().setCategory(.playback)
                                 return true
                             }
                         }
                         """], note: "Playback needs no microphone."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        var seen = Set<String>()
        return context.shippingUsages.compactMap { u in
            guard u.capability == Self.capability, case .source(let path, let line, let column) = u.location,
                  seen.insert("\(path):\(line)").inserted else { return nil }
            return finding("\(u.bundle) configures a recording audio session at launch (\(u.api)); iOS asks for the microphone before the user reaches the feature",
                           bundle: u.bundle, at: FileLocation(path: path, position: .init(line: line, column: column)),
                           key: "NSMicrophoneUsageDescription", fingerprint: [path])
        }
    }
}
