import Foundation
import Formats

/// How a file contributes to a bundle, by name.
enum ProjectFileRole {
    static let sourceExtensions: Set<String> = ["swift", "m", "mm", "c", "cpp", "cc", "cxx", "h", "hpp"]

    static func isSource(_ path: String) -> Bool { sourceExtensions.contains(PathUtil.pathExtension(path)) }

    static func isPrivacyManifest(_ path: String) -> Bool { PathUtil.lastComponent(path) == "PrivacyInfo.xcprivacy" }

    /// `xx.lproj/Name.strings` / `.stringsdict`, or a string catalog anywhere.
    static func localizedFile(_ path: String) -> LocalizedFile? {
        let name = PathUtil.lastComponent(path)
        let table = PathUtil.removingExtension(name)
        let folder = PathUtil.lastComponent(PathUtil.parent(path))
        let language = PathUtil.pathExtension(folder) == "lproj" ? PathUtil.removingExtension(folder) : nil
        switch PathUtil.pathExtension(path) {
        case "xcstrings":
            return LocalizedFile(language: nil, path: path, kind: .xcstrings, table: table)
        case "strings":
            guard let language else { return nil }
            return LocalizedFile(language: language, path: path, kind: table == "InfoPlist" ? .infoPlistStrings : .strings, table: table)
        case "stringsdict":
            guard let language else { return nil }
            return LocalizedFile(language: language, path: path, kind: .stringsdict, table: table)
        default:
            return nil
        }
    }
}
