import Foundation
import Formats

/// What a target compiles and copies itself, and the packages and pods it links: the input
/// of its bundle and of its code closure, whichever kind of project described it.
struct TargetFiles {
    var sources = Set<String>()
    var privacyManifests = Set<String>()
    /// `.xcassets` folders and Icon Composer `.icon` documents the target copies (compiled by
    /// actool into its Assets.car).
    var assetCatalogs = Set<String>()
    var iconDocuments = Set<String>()

    static func isIconSource(_ path: String) -> Bool { ["xcassets", "icon"].contains(PathUtil.pathExtension(path)) }
    var localizations: [String: LocalizedFile] = [:]
    /// `.storyboard` and `.xib` files the target copies (a launch storyboard must be one).
    var interfaceFiles = Set<String>()
    /// Local packages linked, by folder name, with their source files.
    var packages: [CodeLink] = []
    var pods: [CodeLink] = []
    /// Every file or folder the target copies into its bundle.
    var resources = Set<String>()

    mutating func addResource(_ path: String) {
        resources.insert(path)
        if ProjectFileRole.isPrivacyManifest(path) { privacyManifests.insert(path) }
        if let l = ProjectFileRole.localizedFile(path) { localizations[path] = l }
        switch PathUtil.pathExtension(path) {
        case "xcassets": assetCatalogs.insert(path)
        case "icon": iconDocuments.insert(path)
        default: break
        }
        if ProjectFileRole.isInterfaceFile(path) { interfaceFiles.insert(path) }
    }
}
