import Foundation
import PreflightKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The scanning side of batch mode: a child process (`preflight batch worker`) that reads one
/// request per line on standard input, scans the input in-process and writes one response per
/// line on standard output. A crash, a runaway allocation or a hang ends only this process;
/// the batch process records the input as failed and starts a new worker.
public enum BatchWorker {
    public static func serve(configuration: Configuration) {
        let decoder = JSONDecoder(), encoder = JSONEncoder()
        while let line = readLine(strippingNewline: true) {
            guard !line.isEmpty else { continue }
            var response = WorkerResponse()
            do {
                let request = try decoder.decode(WorkerRequest.self, from: Data(line.utf8))
                response.record = ScanRecord(try PreflightScanner.scan(request.path, configuration: configuration))
            } catch {
                response.error = "\(error)".replacingOccurrences(of: "\n", with: " ")
            }
            guard var data = try? encoder.encode(response) else { return }
            data.append(0x0a)
            FileHandle.standardOutput.write(data)
        }
    }
}

/// The batch process's handle on one worker process: started with `posix_spawn`, fed through a
/// pipe, read without blocking, killed when its input runs out of time.
final class WorkerProcess {
    let pid: pid_t
    let input: Int32
    let output: Int32
    private var buffer = Data()
    private(set) var handled = 0

    init(executable: String, arguments: [String]) throws {
        var toChild: [Int32] = [0, 0], fromChild: [Int32] = [0, 0]
        guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else { throw BatchError("cannot create pipes: errno \(errno)") }
        // glibc declares these as structs; Darwin as opaque pointers the init functions fill.
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        for fd in [toChild[0], toChild[1], fromChild[0], fromChild[1]] { posix_spawn_file_actions_addclose(&actions, fd) }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group (a terminal's Ctrl-C reaches only the batch process, which
        // decides), default signal handling and an empty signal mask.
        var defaults = sigset_t(), empty = sigset_t()
        sigemptyset(&empty)
        sigemptyset(&defaults)
        for s in [SIGPIPE, SIGINT, SIGTERM] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        // The environment from Foundation: `environ` is not imported on Darwin.
        let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for e in envp { free(e) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        close(toChild[0])
        close(fromChild[1])
        guard rc == 0 else {
            close(toChild[1])
            close(fromChild[0])
            throw BatchError("cannot start worker \(executable): error \(rc)")
        }
        pid = child
        input = toChild[1]
        output = fromChild[0]
        _ = fcntl(output, F_SETFL, fcntl(output, F_GETFL) | O_NONBLOCK)
        _ = fcntl(input, F_SETFD, FD_CLOEXEC)
        _ = fcntl(output, F_SETFD, FD_CLOEXEC)
    }

    /// Sends one request; false when the worker is gone.
    func send(path: String) -> Bool {
        guard var data = try? JSONEncoder().encode(WorkerRequest(path: path)) else { return false }
        data.append(0x0a)
        handled += 1
        return data.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let n = write(input, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                offset += n
            }
            return true
        }
    }

    enum ReadResult {
        case nothing
        case line(Data)
        case closed
    }

    /// Reads what is available: a complete response line, nothing yet, or end of file.
    func read() -> ReadResult {
        if let line = takeLine() { return .line(line) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { readBytes(output, $0.baseAddress, $0.count) }
            if n > 0 {
                buffer.append(contentsOf: chunk[0..<n])
                if let line = takeLine() { return .line(line) }
                continue
            }
            if n == 0 { return .closed }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? .nothing : .closed
        }
    }

    private func takeLine() -> Data? {
        guard let i = buffer.firstIndex(of: 0x0a) else { return nil }
        let line = buffer[buffer.startIndex..<i]
        buffer = Data(buffer[(i + 1)...])
        return Data(line)
    }

    /// Ends the worker: closes its input (it exits at end of file) or kills it, then reaps it.
    /// Returns how it ended, for messages.
    @discardableResult
    func stop(kill force: Bool) -> String {
        if force { sendSignal(pid, SIGKILL) }
        close(input)
        close(output)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return Self.describe(status)
    }

    static func describe(_ status: Int32) -> String {
        let signal = status & 0x7f
        if signal == 0 { return "exited with status \((status >> 8) & 0xff)" }
        return "was killed by signal \(signal)"
    }
}

/// `read(2)`, named so that it does not clash with `read()`.
private func readBytes(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.read(fd, buffer, count)
    #else
    return Darwin.read(fd, buffer, count)
    #endif
}

/// `kill(2)`, named so that it does not clash with `stop(kill:)`.
private func sendSignal(_ pid: pid_t, _ signal: Int32) {
    #if canImport(Glibc)
    _ = Glibc.kill(pid, signal)
    #else
    _ = Darwin.kill(pid, signal)
    #endif
}
