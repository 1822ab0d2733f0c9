import Foundation
import Evidence

/// The Swift scanner as a `SourceScanning` detector.
public struct SwiftSourceScanning: SourceScanning {
    public init() {}

    public func handles(_ path: String) -> Bool { path.hasSuffix(".swift") }

    public func scan(source: String, path: String, platform: String?) -> [SourceUsage] {
        SwiftSourceScanner.scan(source: source, path: path, catalog: .standard, limits: .default, platform: platform)
    }
}
