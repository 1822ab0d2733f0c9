import Foundation

/// The Objective-C/C/C++ scanner as a `SourceScanning` detector.
public struct ObjCSourceScanning: SourceScanning {
    public static let extensions: Set<String> = ["m", "mm", "c", "cc", "cpp", "cxx", "h", "hh", "hpp"]

    public init() {}

    public func handles(_ path: String) -> Bool {
        guard let dot = path.lastIndex(of: ".") else { return false }
        return Self.extensions.contains(path[path.index(after: dot)...].lowercased())
    }

    public func scan(source: String, path: String, platform: String?) -> [SourceUsage] {
        ObjCSourceScanner.scan(source: source, path: path, platform: platform.flatMap(ApplePlatform.init(rawValue:)) ?? .iOS)
    }
}
