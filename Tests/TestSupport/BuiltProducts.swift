import Foundation

/// What tests run from outside their process: this build's `preflight` executable and a
/// browser on the PATH.
public enum BuiltProducts {
    /// The `preflight` executable of the build that made this test bundle (it sits beside the
    /// bundle, or a folder or two up); `fallback` when none is found.
    public static func preflight(fallback: URL) -> URL {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if dir.pathExtension == "xctest" { dir = dir.deletingLastPathComponent() }
        for candidate in [dir, dir.deletingLastPathComponent(), dir.deletingLastPathComponent().deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("preflight")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return fallback
    }

    /// Chromium (or Chrome) on the PATH, for the tests that look at pages as a person would.
    public static func chromium() -> String? {
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
                let path = "\(dir)/\(name)"
                if FileManager.default.isExecutableFile(atPath: path) { return path }
            }
        }
        return nil
    }
}
