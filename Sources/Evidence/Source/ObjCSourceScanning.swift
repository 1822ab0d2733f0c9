import Foundation

/// The Objective-C/C/C++ scanner as a `SourceScanning` detector.
public struct ObjCSourceScanning: SourceScanning {
    public static let extensions: Set<String> = ["m", "mm", "c", "cc", "cpp", "cxx", "h", "hh", "hpp"]

    public init() {}

    public func handles(_ path: String) -> Bool {
        guard let dot = path.lastIndex(of: ".") else { return false }
        return Self.extensions.contains(path[path.index(after: dot)...].lowercased())
    }

    public var triggerNames: Set<String> { ObjCSourceScanning.classNames }

    /// Catalog classes: a project declaring one (`@interface CLLocationManager`) shadows it.
    static let classNames: Set<String> = Set(ProtectedResourceCatalog.detection.resources.flatMap { r in
        r.triggers.objcClasses.map(\.name)
    })

    public func scan(source: String, path: String, context: SourceScanContext) -> [SourceUsage] {
        ObjCSourceScanner.scan(source: source, path: path, definitions: context.macros,
                               platform: context.platform.flatMap(ApplePlatform.init(rawValue:)) ?? .iOS)
    }
}
