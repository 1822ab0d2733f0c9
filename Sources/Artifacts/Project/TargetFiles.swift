import Foundation
import Formats

/// What a target compiles and copies itself, and the packages and pods it links: the input
/// of its bundle and of its code closure, whichever kind of project described it.
struct TargetFiles {
    var sources = Set<String>()
    var privacyManifests = Set<String>()
    /// `.xcassets` folders the target copies (compiled by actool into its Assets.car).
    var assetCatalogs = Set<String>()
    var localizations: [String: LocalizedFile] = [:]
    /// Local packages linked, by folder name, with their source files.
    var packages: [CodeLink] = []
    var pods: [CodeLink] = []

    mutating func addResource(_ path: String) {
        if ProjectFileRole.isPrivacyManifest(path) { privacyManifests.insert(path) }
        if let l = ProjectFileRole.localizedFile(path) { localizations[path] = l }
        if PathUtil.pathExtension(path) == "xcassets" { assetCatalogs.insert(path) }
    }
}
