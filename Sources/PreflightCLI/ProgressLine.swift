import Foundation

/// "scanning App.ipa…" on a terminal's standard error when an input takes longer than a second;
/// never in CI logs or pipes. The line is cleared when the input is done.
final class ProgressLine: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Int = 0
    private var shown = false
    let enabled: Bool

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        enabled = isatty(2) == 1 && environment["CI"] == nil && environment["TERM"] != "dumb"
    }

    /// An input starts: show it if it is still the current one in a second.
    func start(_ path: String) {
        guard enabled else { return }
        let token: Int = lock.withLock { finishLocked(); current += 1; return current }
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) { [self] in
            lock.withLock {
                guard current == token else { return }
                FileHandle.standardError.write(Data("\rpreflight: scanning \(path)…".utf8))
                shown = true
            }
        }
    }

    /// The run is done: clear the line.
    func finish() { lock.withLock { finishLocked(); current += 1 } }

    private func finishLocked() {
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        shown = false
    }
}
