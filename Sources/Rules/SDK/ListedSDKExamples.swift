import Foundation
import Artifacts

/// Small inputs for the listed-SDK rules' examples: a built app embedding frameworks, and a
/// project folder with lock files, pods, package checkouts and `.xcframework`s.
enum ListedSDKExamples {
    static let appInfo = plistXML("<key>CFBundleExecutable</key><string>Example</string>")

    /// A framework's Info.plist with a version.
    static func frameworkInfo(_ name: String, version: String) -> String {
        plistXML("<key>CFBundleExecutable</key><string>\(name)</string><key>CFBundleIdentifier</key><string>org.example.\(name)</string>"
                 + "<key>CFBundleShortVersionString</key><string>\(version)</string><key>CFBundlePackageType</key><string>FMWK</string>")
    }

    /// An empty privacy manifest.
    static let manifest = plistXML("")

    /// The app target of a project folder.
    static let projectApp = ["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>")]

    /// A `Podfile.lock` pinning `pods` (`Name (version)` lines, `↓` allowed before a name).
    static func podfileLock(_ pods: [String]) -> String {
        "PODS:\n" + pods.map { "  - \($0)\n" }.joined() + "\nDEPENDENCIES:\n"
            + pods.map { "  - \($0.replacingOccurrences(of: "↓", with: "").split(separator: " ")[0])\n" }.joined()
            + "\nCOCOAPODS: 1.15.2\n"
    }

    /// A `Package.resolved` (format 2) pinning `(identity, URL, version)`; a `↓` in the
    /// identity marks its string.
    static func packageResolved(_ pins: [(String, String, String)]) -> String {
        let entries = pins.map { identity, url, version in
            let marked = identity.hasPrefix("↓") ? "↓\"\(identity.dropFirst())\"" : "\"\(identity)\""
            return """
                {
                  "identity" : \(marked),
                  "kind" : "remoteSourceControl",
                  "location" : "\(url)",
                  "state" : {
                    "revision" : "0123456789abcdef0123456789abcdef01234567",
                    "version" : "\(version)"
                  }
                }
            """
        }
        return "{\n  \"pins\" : [\n" + entries.joined(separator: ",\n") + "\n  ],\n  \"version\" : 2\n}\n"
    }
}
