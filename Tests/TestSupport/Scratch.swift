import Foundation

/// Temporary files for tests, all inside one folder per test process that is removed when the
/// process exits, so that test runs leave nothing behind in the temporary directory.
public enum Scratch {
    public static let root: URL = {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("preflight-tests-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: url) // left by an earlier process with the same id
        atexit { try? FileManager.default.removeItem(at: Scratch.root) }
        return url
    }()

    /// A new empty folder whose name starts with `label`.
    public static func folder(_ label: String) throws -> URL {
        let url = root.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A path for a new file (its folder exists, the file does not).
    public static func file(_ name: String) throws -> URL {
        try folder("file").appendingPathComponent(name)
    }
}
