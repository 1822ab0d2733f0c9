import Foundation
import Formats

/// How a file contributes to a bundle, by name.
public enum ProjectFileRole {
    static let sourceExtensions: Set<String> = ["swift", "m", "mm", "c", "cpp", "cc", "cxx", "h", "hpp"]

    public static func isSource(_ path: String) -> Bool { sourceExtensions.contains(PathUtil.pathExtension(path)) }

    static func isInterfaceFile(_ path: String) -> Bool { ["storyboard", "xib"].contains(PathUtil.pathExtension(path)) }

    static func isPrivacyManifest(_ path: String) -> Bool { PathUtil.lastComponent(path) == "PrivacyInfo.xcprivacy" }

    /// `xx.lproj/Name.strings` / `.stringsdict`, or a string catalog anywhere.
    /// The same classification as built apps and folders use, so a project's
    /// `infoPlist.strings` is still recognised (and reported) as an Info.plist table.
    static func localizedFile(_ path: String) -> LocalizedFile? {
        LocalizationScanner.localizedFile(path)
    }
}
