import XCTest
import Foundation
import PreflightKit
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Runs the real `preflight scan … --format json` on every hostile input `HostileInputs`
/// builds, under a 1 GiB virtual-memory limit, and checks the verdict, the time, the peak
/// memory and that nothing was written anywhere.
final class HostileInputTests: XCTestCase {
    typealias H = HostileInputs

    /// `ulimit -v` for every run, in KiB. The Swift runtime starts under 256 MiB; 1 GiB leaves
    /// room for the concurrent readers while still killing any run that tries to inflate a bomb.
    static let virtualMemoryKiB = 1 << 20
    static let maxSeconds = 10.0
    /// `ulimit -s` for every run, in KiB: the stack of a macOS worker thread, which is smaller
    /// than Linux's default, so that deep recursion found here also fails on a Mac.
    static let stackKiB = 512

    enum Verdict {
        /// Exit 1 with one `preflight: error: …` line containing every string.
        case error([String])
        /// Exit 0 or 2 and a finding of `rule` whose message contains every string.
        case finding(String, [String])
        /// Exit 0 or 2 and no `unreadable_file` finding: the input is valid.
        case clean
    }

    struct Case {
        var name: String
        var verdict: Verdict
        var args: [String] = []
        /// Strings that must not appear in the output (content that must not have been read).
        var absent: [String] = []
        /// For `.finding`: how many findings may match (nil: at least one).
        var matches: Int? = nil
        /// Builds the input in the given folder and returns the path to scan.
        var make: (URL) throws -> String
    }

    struct Outcome {
        var status: Int32
        var signal: Int32
        var stdout: String
        var stderr: String
        var seconds: Double
        /// User and system CPU time (GNU time), or the wall time without it.
        var cpuSeconds: Double
        var maxRSSKiB: Int

        /// What the time bound is checked on: a loaded machine stretches wall time but not CPU
        /// time, parallel readers add CPU time but not wall time; a hang or a quadratic reader
        /// stretches both.
        var boundedSeconds: Double { min(seconds, cpuSeconds) }
    }

    // MARK: - Running under limits

    /// GNU time reports the peak resident set of exactly the process it runs. (`wait4` on our own
    /// child would not: a child made by `posix_spawn` shares this test process's memory until
    /// it execs, and Linux carries that high-water mark over the exec.)
    static let gnuTime = FileManager.default.isExecutableFile(atPath: "/usr/bin/time") ? "/usr/bin/time" : nil

    /// Spawns `/bin/sh -c 'cd; ulimit -v; exec [time] preflight …'` and reaps it. A run past 60 s is killed.
    static func runLimited(_ args: [String], cwd: URL, tmp: URL, rssFile: URL) throws -> Outcome {
        let timer = gnuTime.map { "exec \($0) -f \"%U %S %M\" -o \"$rss\" \"$@\"" } ?? "exec \"$@\""
        let script = "cd \"$1\" || exit 99; ulimit -v \(virtualMemoryKiB) || exit 98; ulimit -s \(stackKiB) || exit 97; rss=$2; shift 2; " + timer
        let argv = ["/bin/sh", "-c", script, "sh", cwd.path, rssFile.path, CLITests.executable.path] + args
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        env["TMPDIR"] = tmp.path
        let envp = env.map { "\($0.key)=\($0.value)" }
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        var cEnv: [UnsafeMutablePointer<CChar>?] = envp.map { strdup($0) } + [nil]
        defer { for p in cArgs + cEnv { free(p) } }
        var outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { throw H.HostileError("pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for fd in outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, fd) }
        var pid: pid_t = 0
        let start = Date()
        let rc = posix_spawn(&pid, "/bin/sh", &actions, nil, &cArgs, &cEnv)
        close(outPipe[1]); close(errPipe[1])
        guard rc == 0 else { close(outPipe[0]); close(errPipe[0]); throw H.HostileError("posix_spawn failed: \(rc)") }
        let done = DispatchSemaphore(value: 0)
        let child = pid
        let watchdog = Thread {
            if done.wait(timeout: .now() + 60) == .timedOut { kill(child, SIGKILL) }
        }
        watchdog.start()
        let errHandle = FileHandle(fileDescriptor: errPipe[0], closeOnDealloc: true)
        let outHandle = FileHandle(fileDescriptor: outPipe[0], closeOnDealloc: true)
        final class Box: @unchecked Sendable { var data = Data() }
        let errBox = Box()
        let readerDone = DispatchSemaphore(value: 0)
        let errThread = Thread { errBox.data = errHandle.readDataToEndOfFile(); readerDone.signal() }
        errThread.start()
        let outData = outHandle.readDataToEndOfFile()
        readerDone.wait()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let seconds = Date().timeIntervalSince(start)
        done.signal()
        var signal = status & 0x7f
        var exit = signal == 0 ? (status >> 8) & 0xff : -1
        var rss = -1
        var cpu = seconds
        if gnuTime != nil, let report = try? String(contentsOf: rssFile, encoding: .utf8) {
            // "Command terminated by signal 6\n12345\n" or "Command exited with non-zero status 2\n12345\n".
            let lines = report.split(separator: "\n")
            let fields = lines.last?.split(separator: " ") ?? []
            if fields.count == 3, let user = Double(fields[0]), let system = Double(fields[1]) {
                cpu = user + system
                rss = Int(fields[2]) ?? -1
            }
            if let l = lines.first(where: { $0.hasPrefix("Command terminated by signal ") }) {
                signal = Int32(l.split(separator: " ").last ?? "") ?? -1
                exit = -1
            }
        }
        return Outcome(status: exit, signal: signal,
                       stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errBox.data, as: UTF8.self),
                       seconds: seconds, cpuSeconds: cpu, maxRSSKiB: rss)
    }

    /// Every entry below `dir` (not following links) with its type, size, mode and a content hash.
    static func snapshot(_ dir: URL) -> [String: String] {
        var out: [String: String] = [:]
        var pending = [""]
        let fm = FileManager.default
        while let rel = pending.popLast() {
            let path = rel.isEmpty ? dir.path : dir.path + "/" + rel
            for name in (try? fm.contentsOfDirectory(atPath: path)) ?? [] {
                let childRel = rel.isEmpty ? name : rel + "/" + name
                let full = path + "/" + name
                guard let attrs = try? fm.attributesOfItem(atPath: full) else { out[childRel] = "?"; continue }
                let type = (attrs[.type] as? FileAttributeType)?.rawValue ?? "?"
                let size = (attrs[.size] as? NSNumber)?.intValue ?? -1
                let mtime = (attrs[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
                var line = "\(type) \(size) \(mtime)"
                if attrs[.type] as? FileAttributeType == .typeDirectory {
                    pending.append(childRel)
                } else if attrs[.type] as? FileAttributeType == .typeSymbolicLink {
                    line += " -> " + ((try? fm.destinationOfSymbolicLink(atPath: full)) ?? "?")
                } else if size < 1 << 20, let data = fm.contents(atPath: full) {
                    line += " crc \(H.crc32(data))"
                }
                out[childRel] = line
            }
        }
        return out
    }

    struct Measured { var name: String; var seconds: Double; var maxRSSKiB: Int; var status: Int32; var summary: String }
    nonisolated(unsafe) static var measurements: [Measured] = []

    /// Builds the case in a fresh folder, scans it and checks everything the suite promises.
    @discardableResult
    func check(_ c: Case, file: StaticString = #filePath, line: UInt = #line) throws -> Outcome {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("preflight-hostile-\(UUID().uuidString)")
        let rssFile = FileManager.default.temporaryDirectory.appendingPathComponent("preflight-hostile-rss-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: rssFile) }
        let input = root.appendingPathComponent("input"), cwd = root.appendingPathComponent("cwd"), tmp = root.appendingPathComponent("tmp")
        for d in [input, cwd, tmp] { try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true) }
        // HOSTILE_KEEP=1 keeps the inputs for debugging.
        defer { if ProcessInfo.processInfo.environment["HOSTILE_KEEP"] == nil { try? FileManager.default.removeItem(at: root) } }
        let path = try c.make(input)
        let before = Self.snapshot(root)
        let r = try Self.runLimited(["scan", path, "--format", "json"] + c.args, cwd: cwd, tmp: tmp, rssFile: rssFile)
        let after = Self.snapshot(root)
        let label = "[\(c.name)]"
        XCTAssertEqual(r.signal, 0, "\(label) killed by signal \(r.signal): \(r.stderr)", file: file, line: line)
        XCTAssertLessThan(r.boundedSeconds, Self.maxSeconds, "\(label) took \(r.seconds) s, \(r.cpuSeconds) s of CPU", file: file, line: line)
        XCTAssertEqual(before, after, "\(label) the input, temporary or current folder changed", file: file, line: line)

        var summary = ""
        switch c.verdict {
        case .error(let parts):
            XCTAssertEqual(r.status, 1, "\(label) stdout: \(r.stdout.prefix(2000)) stderr: \(r.stderr)", file: file, line: line)
            // The JSON report is still a valid document, naming the input it could not read.
            let doc = (try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8))) as? [String: Any]
            XCTAssertEqual((doc?["errors"] as? [String])?.count, 1, "\(label) stdout: \(r.stdout.prefix(500))", file: file, line: line)
            XCTAssertEqual((doc?["findings"] as? [Any])?.count, 0, "\(label)", file: file, line: line)
            let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false)
            XCTAssertEqual(lines.count, 2, "\(label) not one line: \(r.stderr)", file: file, line: line)
            XCTAssertTrue(r.stderr.hasPrefix("preflight: error: \(path): "), "\(label) does not name the input: \(r.stderr)", file: file, line: line)
            for p in parts { XCTAssertTrue(r.stderr.contains(p), "\(label) stderr lacks '\(p)': \(r.stderr)", file: file, line: line) }
            summary = "exit 1: " + r.stderr.trimmingCharacters(in: .newlines).replacingOccurrences(of: root.path, with: "…")
        case .finding, .clean:
            XCTAssertTrue(r.status == 0 || r.status == 2, "\(label) exit \(r.status): \(r.stderr)", file: file, line: line)
            XCTAssertEqual(r.stderr, "", "\(label)", file: file, line: line)
            let doc = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
            let findings = doc?["findings"] as? [[String: Any]] ?? []
            let bundles = (doc?["bundles"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            XCTAssertFalse(bundles.isEmpty, "\(label) no bundle was scanned", file: file, line: line)
            let described = findings.map { "\($0["rule"] as? String ?? "?"): \($0["message"] as? String ?? "")" }
            if case .finding(let rule, let parts) = c.verdict {
                let matching = described.filter { d in d.hasPrefix(rule + ": ") && parts.allSatisfy { d.contains($0) } }
                let match = matching.first
                if let n = c.matches {
                    XCTAssertEqual(matching.count, n, "\(label) \(matching)", file: file, line: line)
                }
                XCTAssertNotNil(match, "\(label) no \(rule) finding containing \(parts) in:\n" + described.joined(separator: "\n"), file: file, line: line)
                summary = "exit \(r.status), " + (match ?? "?")
            } else {
                XCTAssertFalse(described.contains { $0.hasPrefix("unreadable_file: ") }, "\(label) \(described)", file: file, line: line)
                summary = "exit \(r.status), no unreadable_file finding (\(findings.count) other findings)"
            }
        }
        for a in c.absent {
            XCTAssertFalse(r.stdout.contains(a) || r.stderr.contains(a), "\(label) output mentions '\(a)'", file: file, line: line)
        }
        let m = Measured(name: c.name, seconds: r.seconds, maxRSSKiB: r.maxRSSKiB, status: r.status,
                         summary: summary.replacingOccurrences(of: root.path, with: "…"))
        Self.measurements.append(m)
        print("hostile: \(c.name) | \(ProcessInfo.processInfo.environment["HOSTILE_KEEP"] == nil ? "" : path + " | ")\(String(format: "%.2f", r.seconds)) s | \(r.maxRSSKiB / 1024) MiB | \(m.summary)")
        return r
    }

    func run(_ cases: [Case], file: StaticString = #filePath, line: UInt = #line) throws {
        for c in cases { try check(c, file: file, line: line) }
    }

    // MARK: - Helpers building inputs

    static func write(_ data: Data, _ dir: URL, _ name: String = "App.ipa") throws -> String {
        let url = dir.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    static func ipa(_ build: @escaping (inout H.Zip) throws -> Void) -> (URL) throws -> String {
        { dir in
            var z = H.baseApp()
            try build(&z)
            return try write(z.build(), dir)
        }
    }

    static func ipaWith(executable: Data) -> (URL) throws -> String {
        { dir in try write(H.baseApp(executable: executable).build(), dir) }
    }

    static func ipaWith(file name: String, _ data: Data) -> (URL) throws -> String {
        ipa { z in z.add(H.app + name, data: data) }
    }

    // MARK: - Archive structure

    /// Every committed input, and the golden test's .ipa, gives exactly the same report under
    /// the memory and stack limits as without them.
    func testFixturesScanTheSameUnderTheLimits() throws {
        let root = CLITests.packageRoot
        let inputs = [try GoldenTests.makeIPA(), root.appendingPathComponent("Examples/DemoApp")]
            + ["Classic", "Modern", "Malformed"].map { root.appendingPathComponent("Tests/Fixtures/Projects/\($0)") }
        let work = try Scratch.folder("limits")
        for input in inputs {
            let args = ["scan", input.path, "--format", "json"]
            let free = try CLITests.run(args)
            let limited = try Self.runLimited(args, cwd: work, tmp: work, rssFile: work.appendingPathComponent("rss"))
            XCTAssertEqual(limited.signal, 0, input.path)
            XCTAssertEqual(limited.status, free.status, "\(input.path): \(limited.stderr)")
            XCTAssertEqual(limited.stdout, free.stdout, input.path)
            XCTAssertTrue(free.stdout.contains("\"findings\""), input.path)
            print("limits: \(input.lastPathComponent) | exit \(limited.status) | \(String(format: "%.2f", limited.seconds)) s | \(limited.maxRSSKiB / 1024) MiB")
        }
    }

    func testBaselineAppIsClean() throws {
        try run([
            Case(name: "baseline ipa", verdict: .clean, make: Self.ipa { _ in }),
            Case(name: "ZIP64 end records (valid)", verdict: .clean, make: Self.ipa { z in z.zip64End = true }),
            Case(name: "ZIP64 extra fields (valid)", verdict: .clean, make: Self.ipa { z in
                for i in z.entries.indices { z.entries[i].zip64Extra = true }
            }),
            Case(name: "ZIP64 end records and ZIP64 extra fields (valid)", verdict: .clean, make: Self.ipa { z in
                z.zip64End = true
                for i in z.entries.indices { z.entries[i].zip64Extra = true }
            }),
            Case(name: "data descriptors", verdict: .clean, make: Self.ipa { z in
                for i in z.entries.indices { z.entries[i].dataDescriptor = true }
            }),
            Case(name: "deflated entries with data descriptors", verdict: .clean, make: { dir in
                var z = H.Zip()
                try z.addDeflated(H.app + "Info.plist", data: Data(H.infoPlist().utf8))
                try z.addDeflated(H.app + "Demo", data: H.realExecutable)
                for i in z.entries.indices { z.entries[i].dataDescriptor = true }
                return try Self.write(z.build(), dir)
            }),
        ])
    }

    func testUnsafeEntryNamesAreSkippedAndReported() throws {
        let unreadable = "unreadable_file"
        try run([
            Case(name: "entry name with ..", verdict: .finding(unreadable, ["evil.txt", "contains '..'", "skipped"]),
                 make: Self.ipa { z in z.add(H.app + "../../evil.txt", "x") }),
            Case(name: "absolute entry name", verdict: .finding(unreadable, ["/etc/passwd", "absolute path"]),
                 make: Self.ipa { z in z.add("/etc/passwd", "x") }),
            Case(name: "backslash in entry name", verdict: .finding(unreadable, ["backslash"]),
                 make: Self.ipa { z in z.add("Payload\\Demo.app\\..\\..\\x", "x") }),
            Case(name: "NUL in entry name", verdict: .finding(unreadable, ["contains NUL"]),
                 make: Self.ipa { z in z.add(rawName: Array((H.app + "a").utf8) + [0] + Array("b.plist".utf8), data: Data("x".utf8)) }),
            Case(name: "invalid UTF-8 name with the UTF-8 flag", verdict: .finding(unreadable, ["not valid UTF-8"]),
                 make: Self.ipa { z in z.add(rawName: Array(H.app.utf8) + [0xC3, 0x28, 0xFF], data: Data("x".utf8)) }),
            Case(name: "duplicate entry names", verdict: .finding(unreadable, ["Info.plist", "duplicate archive entry name"]),
                 make: Self.ipa { z in z.add(H.app + "Info.plist", "<plist><dict/></plist>") }),
            Case(name: "symlink entry out of the bundle", verdict: .finding("symlink_outside_bundle", ["Frameworks"]),
                 make: Self.ipa { z in z.addSymlink(H.app + "Frameworks", target: "../../../../etc") }),
            Case(name: "symlink entry whose local header claims 4 GiB", verdict: .finding("symlink_outside_bundle", ["/etc/passwd"]),
                 make: Self.ipa { z in
                     z.addSymlink(H.app + "Secrets", target: "/etc/passwd")
                     z.modifyLast { $0.localCompressed = 0xFFFF_FF00 }
                 }),
            Case(name: "encrypted entry", verdict: .finding(unreadable, ["Localizable.strings"]), matches: 1,
                 make: Self.ipa { z in z.entries[2].flags |= 1 }),
        ])
    }

    func testInconsistentDirectoriesAreErrors() throws {
        let base = H.baseApp().build()
        let cdOffset = Int(UInt32(base[base.count - 6]) | UInt32(base[base.count - 5]) << 8 | UInt32(base[base.count - 4]) << 16 | UInt32(base[base.count - 3]) << 24)
        let cdSize = base.count - 22 - cdOffset
        try run([
            Case(name: "entry count larger than the records", verdict: .error(["central directory", "entry 3"]),
                 make: { try Self.write(H.patchEOCD(base, count: 4), $0) }),
            Case(name: "entry count no directory could hold", verdict: .error(["cannot hold 65000 entries"]),
                 make: { try Self.write(H.patchEOCD(base, count: 65000), $0) }),
            Case(name: "directory offset past the end", verdict: .error(["central directory", "past the end"]),
                 make: { try Self.write(H.patchEOCD(base, cdOffset: 0x7fff_0000), $0) }),
            Case(name: "directory size smaller than its records", verdict: .error(["central directory entry 2"]),
                 make: { try Self.write(H.patchEOCD(base, cdSize: UInt32(cdSize - 10)), $0) }),
            Case(name: "directory size larger than the file", verdict: .error(["central directory", "past the end"]),
                 make: { try Self.write(H.patchEOCD(base, cdSize: UInt32(cdSize + 1000)), $0) }),
            Case(name: "truncated archive (no end record)", verdict: .error(["no end of central directory record"]),
                 make: { try Self.write(base.prefix(base.count - 30), $0) }),
            Case(name: "overlapping entries (shared local header)", verdict: .error(["overlaps entry"]),
                 make: Self.ipa { z in
                     z.add(H.app + "Other", "y")
                     z.modifyLast { $0.sharesLocalHeaderOf = 1 }
                 }),
            Case(name: "ZIP64 record claiming 2^40 entries", verdict: .error(["max-archive-entries"]),
                 make: Self.ipa { z in z.zip64End = true; z.zip64EntryCount = 1 << 40 }),
            Case(name: "ZIP64 record claiming 60000 entries", verdict: .error(["cannot hold 60000 entries"]),
                 make: Self.ipa { z in z.zip64End = true; z.zip64EntryCount = 60000 }),
            Case(name: "ZIP64 locator pointing past the end", verdict: .error(["ZIP64 end of central directory"]),
                 make: Self.ipa { z in z.zip64End = true; z.zip64RecordOffset = 1 << 40 }),
            Case(name: "ZIP64 locator pointing at -1", verdict: .error(["ZIP64 end of central directory"]),
                 make: Self.ipa { z in z.zip64End = true; z.zip64RecordOffset = UInt64.max }),
            Case(name: "local header signature missing", verdict: .error(["no local header"]),
                 make: { dir in
                     let z = H.baseApp()
                     var d = [UInt8](z.build())
                     d[30 + z.entries[0].name.count + z.entries[0].stored.count] = 0x51 // second entry's "PK"
                     return try Self.write(Data(d), dir)
                 }),
            Case(name: "local header method disagrees with the directory", verdict: .error(["compression method 8", "says 0"]),
                 make: { dir in
                     var d = [UInt8](H.baseApp().build())
                     d[8] = 8
                     return try Self.write(Data(d), dir)
                 }),
            Case(name: "local extra field moving the data into the next entry", verdict: .error(["Info.plist"]),
                 make: { dir in
                     var d = [UInt8](H.baseApp().build())
                     d[28] = 0x00; d[29] = 0x10 // extra field length 4096
                     return try Self.write(Data(d), dir)
                 }),
            Case(name: "ZIP64 extra field with a 2^62 compressed size", verdict: .error(["Info.plist"]),
                 make: Self.ipa { z in z.entries[0].zip64Extra = true; z.entries[0].declaredCompressed = 1 << 62 }),
        ])
    }

    func testLyingSizesAndBombs() throws {
        let unreadable = "unreadable_file"
        try run([
            Case(name: "ZIP64 extra field with a 2^62 uncompressed size", verdict: .finding(unreadable, ["Demo", "max-file-bytes"]),
                 make: { dir in
                     var z = H.baseApp()
                     z.entries.remove(at: 1)
                     try z.addDeflated(H.app + "Demo", data: H.realExecutable)
                     z.modifyLast { $0.zip64Extra = true; $0.declaredUncompressed = 1 << 62 }
                     return try Self.write(z.build(), dir)
                 }),
            Case(name: "stored entry declaring more bytes than it stores", verdict: .finding(unreadable, ["Demo", "stored entry"]),
                 make: Self.ipa { z in z.entries[1].declaredUncompressed = 1_000_000 }),
            Case(name: "deflated entry declaring 1.5 GiB at ratio 500", verdict: .finding(unreadable, ["Demo"]),
                 make: { dir in
                     var z = H.baseApp()
                     let (c, crc) = try H.deflate(H.realExecutable)
                     z.entries[1] = H.Zip.Entry(name: Array((H.app + "Demo").utf8), stored: c + Data(count: 3_200_000), uncompressedSize: 1_600_000_000, crc: crc, method: 8)
                     return try Self.write(z.build(), dir)
                 }),
            Case(name: "deflate bomb (100 MB of zeros) as the executable", verdict: .finding(unreadable, ["Demo", "max-compression-ratio"]),
                 make: { dir in
                     var z = H.baseApp()
                     z.entries.remove(at: 1)
                     try z.addZeroBomb(H.app + "Demo", zeros: 100_000_000)
                     return try Self.write(z.build(), dir)
                 }),
            Case(name: "deflate bomb declaring a small size", verdict: .finding(unreadable, ["Demo", "more than its declared"]),
                 make: { dir in
                     var z = H.baseApp()
                     z.entries.remove(at: 1)
                     try z.addZeroBomb(H.app + "Demo", zeros: 100_000_000)
                     z.modifyLast { $0.declaredUncompressed = 1_000_000 }
                     return try Self.write(z.build(), dir)
                 }),
            Case(name: "deflate stream cut short (no end marker)", verdict: .finding(unreadable, ["Demo", "end before the end of the deflate stream"]),
                 make: { dir in
                     var z = H.baseApp()
                     z.entries.remove(at: 1)
                     try z.addDeflated(H.app + "Demo", data: H.realExecutable)
                     z.modifyLast { $0.stored = $0.stored.prefix($0.stored.count / 2) }
                     return try Self.write(z.build(), dir)
                 }),
            Case(name: "corrupt deflate stream", verdict: .finding(unreadable, ["Demo", "cannot be inflated: invalid"]),
                 make: { dir in
                     var z = H.baseApp()
                     z.entries.remove(at: 1)
                     try z.addDeflated(H.app + "Demo", data: H.realExecutable)
                     z.modifyLast { $0.stored = Data(repeating: 0xFF, count: $0.stored.count) }
                     return try Self.write(z.build(), dir)
                 }),
            Case(name: "unsupported compression method (AES, 99)", verdict: .finding(unreadable, ["Demo", "compression method 99"]),
                 make: Self.ipa { z in z.entries[1].method = 99 }),
            Case(name: "nested .ipa bomb inside the app (never opened)", verdict: .clean, absent: ["Inner", "inner"],
                 make: { dir in
                     var inner = H.Zip()
                     try inner.addZeroBomb("Payload/Inner.app/Inner", zeros: 50_000_000)
                     var z = H.baseApp()
                     z.add(H.app + "Inner.ipa", data: inner.build())
                     z.add(H.app + "Nested/Inner.zip", data: inner.build())
                     return try Self.write(z.build(), dir)
                 }),
        ])
    }

    func testEntryLimit() throws {
        func elevenEntries(_ dir: URL) throws -> String {
            var z = H.baseApp()
            for i in 0..<8 { z.add(H.app + "r\(i).txt", "\(i)") }
            XCTAssertEqual(z.entries.count, 11)
            return try Self.write(z.build(), dir)
        }
        try run([
            Case(name: "100,000 empty entries (within the default limit)", verdict: .clean, make: { dir in
                var z = H.baseApp()
                for i in 0..<100_000 { z.add(H.app + "Assets/a\(i)", data: Data()) }
                return try Self.write(z.build(), dir)
            }),
            Case(name: "11 entries with --limit max-archive-entries=10", verdict: .error(["max-archive-entries", "11"]),
                 args: ["--limit", "max-archive-entries=10"], make: elevenEntries),
            Case(name: "11 entries with --limit max-archive-entries=11", verdict: .clean,
                 args: ["--limit", "max-archive-entries=11"], make: elevenEntries),
        ])
    }

    // MARK: - Formats inside an otherwise valid app

    func testHostilePropertyLists() throws {
        try run([
            Case(name: "billion-laughs Info.plist", verdict: .finding("malformed_info_plist", ["Info.plist"]),
                 make: { dir in try Self.write(H.baseApp(infoPlist: H.billionLaughsPlist).build(), dir) }),
            Case(name: "XML plist nested 10,000 deep", verdict: .finding("malformed_info_plist", ["max-nesting-depth"]),
                 make: { dir in try Self.write(H.baseApp(infoPlist: H.deepXMLPlist(depth: 10_000)).build(), dir) }),
            Case(name: "binary plist with an object cycle", verdict: .finding("malformed_info_plist", ["Info.plist"]),
                 make: { dir in try Self.write(H.baseApp(infoPlist: H.cyclicBinaryPlist).build(), dir) }),
            Case(name: "binary plist declaring 2^40 objects", verdict: .finding("malformed_info_plist", ["Info.plist"]),
                 make: { dir in try Self.write(H.baseApp(infoPlist: H.hugeCountBinaryPlist).build(), dir) }),
            Case(name: "privacy manifest nested 10,000 deep", verdict: .finding("malformed_privacy_manifest", ["max-nesting-depth"]),
                 make: Self.ipaWith(file: "PrivacyInfo.xcprivacy", H.deepXMLPlist(depth: 10_000))),
        ])
    }

    /// Values nested as deep as the highest `max-nesting-depth` a user may set allows are read
    /// (and freed: freeing recurses) within the stack of a worker thread. The limit counts
    /// levels below the top one: a limit of N accepts N + 1 nested containers.
    func testNestingAtTheCeilingOfTheDepthLimit() throws {
        let ceiling = try XCTUnwrap(Configuration.limitCeilings["max-nesting-depth"])
        let args = ["--limit", "max-nesting-depth=\(ceiling)"]
        let deepest = ceiling + 1
        let notRead = ["max-nesting-depth", "malformed_info_plist", "malformed_strings_file"]
        func app(_ plist: Data) -> (URL) throws -> String {
            { dir in try Self.write(H.baseApp(infoPlist: plist).build(), dir) }
        }
        try run([
            Case(name: "XML Info.plist \(deepest) levels deep at the highest depth limit", verdict: .clean, args: args,
                 absent: notRead, make: app(H.deepValueXMLInfoPlist(depth: deepest))),
            Case(name: "OpenStep Info.plist \(deepest) levels deep at the highest depth limit", verdict: .clean, args: args,
                 absent: notRead, make: app(H.deepValueOpenStepInfoPlist(depth: deepest))),
            Case(name: "binary Info.plist \(deepest) levels deep at the highest depth limit", verdict: .clean, args: args,
                 absent: notRead, make: app(H.deepValueBinaryInfoPlist(depth: deepest))),
            Case(name: ".xcstrings \(deepest) levels deep at the highest depth limit", verdict: .clean, args: args,
                 absent: notRead, make: Self.ipaWith(file: "Deep.xcstrings", H.deepValueXCStrings(depth: deepest))),
            Case(name: "XML Info.plist one level deeper than the highest depth limit allows",
                 verdict: .finding("malformed_info_plist", ["max-nesting-depth", "deeper than \(ceiling)"]), args: args,
                 make: app(H.deepValueXMLInfoPlist(depth: deepest + 1))),
            Case(name: ".xcstrings one level deeper than the highest depth limit allows",
                 verdict: .finding("malformed_strings_file", ["max-nesting-depth", "deeper than \(ceiling)"]), args: args,
                 make: Self.ipaWith(file: "Deep.xcstrings", H.deepValueXCStrings(depth: deepest + 1))),
        ])
    }

    func testHostileStrings() throws {
        try run([
            Case(name: ".strings with invalid UTF-16", verdict: .finding("malformed_strings_file", ["Bad.strings"]),
                 make: Self.ipaWith(file: "en.lproj/Bad.strings", H.invalidUTF16Strings)),
            Case(name: ".strings with an unterminated token", verdict: .finding("malformed_strings_file", ["Bad.strings"]),
                 make: Self.ipaWith(file: "en.lproj/Bad.strings", H.unterminatedStrings)),
            Case(name: ".xcstrings nested 100,000 deep", verdict: .finding("malformed_strings_file", ["Deep.xcstrings", "max-nesting-depth"]),
                 make: Self.ipaWith(file: "Deep.xcstrings", H.deepXCStrings(depth: 100_000))),
            Case(name: ".xcstrings with 100,000 keys (10 MB)", verdict: .clean,
                 make: Self.ipaWith(file: "Huge.xcstrings", H.hugeXCStrings(keys: 100_000))),
        ])
    }

    func testHostileMachO() throws {
        let u = "unreadable_file"
        let lcUUID = H.loadCommand(0x1b, body: [UInt8](repeating: 7, count: 16))
        try run([
            Case(name: "Mach-O with ncmds 0xFFFFFFFF", verdict: .finding(u, ["Demo", "Mach-O"]),
                 make: Self.ipaWith(executable: H.machO(ncmds: 0xFFFF_FFFF, commands: [lcUUID]))),
            Case(name: "Mach-O with sizeofcmds past the end", verdict: .finding(u, ["Demo", "Mach-O"]),
                 make: Self.ipaWith(executable: H.machO(sizeofcmds: 0x7FFF_FFF0, commands: [lcUUID]))),
            Case(name: "Mach-O with a zero cmdsize", verdict: .finding(u, ["Demo", "Mach-O", "offset"]),
                 make: Self.ipaWith(executable: H.machO(commands: [H.loadCommand(0x1b, size: 0, body: [UInt8](repeating: 0, count: 16)), lcUUID]))),
            Case(name: "Mach-O with overlapping load commands (sections spill into the next)", verdict: .finding(u, ["Demo", "Mach-O", "offset"]),
                 make: Self.ipaWith(executable: H.machO(commands: [H.segment64(name: "__TEXT", fileoff: 0, filesize: 0x100, nsects: 4), lcUUID], trailing: 0x100))),
            Case(name: "Mach-O segment past the end of the file", verdict: .finding(u, ["Demo", "Mach-O", "offset"]),
                 make: Self.ipaWith(executable: H.machO(commands: [H.segment64(name: "__TEXT", fileoff: 0x7000_0000, filesize: 0x1000, nsects: 0)]))),
            Case(name: "Mach-O symbol table past the end", verdict: .finding(u, ["Demo", "Mach-O", "offset"]),
                 make: Self.ipaWith(executable: H.machO(commands: [H.loadCommand(0x2, body: H.le32(0x7fff_0000) + H.le32(1000) + H.le32(0x7fff_f000) + H.le32(100))]))),
            Case(name: "Mach-O dylib name without a terminator", verdict: .finding(u, ["Demo", "Mach-O"]),
                 make: Self.ipaWith(executable: H.machO(commands: [H.loadCommand(0xc, body: H.le32(24) + H.le32(0) + H.le32(0) + H.le32(0) + Array("ABCDEFGH".utf8))]))),
            Case(name: "fat header with nfat_arch 0xFFFFFFFF", verdict: .finding(u, ["Demo", "max-fat-slices"]),
                 make: Self.ipaWith(executable: H.fat(nfat: 0xFFFF_FFFF, archs: [(0x1000, 0x1000)]))),
            Case(name: "fat header with 40 slices in a 64-byte file", verdict: .finding(u, ["Demo"]),
                 make: Self.ipaWith(executable: H.fat(nfat: 40, archs: [(0x1000, 0x1000)], fileSize: 0))),
            Case(name: "fat slices overlapping each other", verdict: .finding(u, ["Demo", "overlap"]),
                 make: Self.ipaWith(executable: H.fat(nfat: 2, archs: [(0x1000, 0x1000), (0x1000, 0x1000)]))),
            Case(name: "fat slice past the end", verdict: .finding(u, ["Demo"]),
                 make: Self.ipaWith(executable: H.fat(nfat: 1, archs: [(0x1000, 0x7fff_0000)]))),
        ])
    }

    // MARK: - Folders: symlinks out of the tree, cyclic projects

    func testHostileFolders() throws {
        let fm = FileManager.default
        try run([
            Case(name: "project folder with symlinks to /etc and to a file outside", verdict: .finding("symlink_outside_bundle", ["/etc"]),
                 absent: ["root:x:0"], make: { dir in
                     let project = dir.appendingPathComponent("Project")
                     try fm.createDirectory(at: project.appendingPathComponent("App"), withIntermediateDirectories: true)
                     try Data(H.infoPlist().utf8).write(to: project.appendingPathComponent("App/Info.plist"))
                     try fm.createSymbolicLink(atPath: project.appendingPathComponent("etc").path, withDestinationPath: "/etc")
                     try Data("outside".utf8).write(to: dir.appendingPathComponent("secret.strings"))
                     try fm.createDirectory(at: project.appendingPathComponent("App/en.lproj"), withIntermediateDirectories: true)
                     try fm.createSymbolicLink(atPath: project.appendingPathComponent("App/en.lproj/Localizable.strings").path,
                                               withDestinationPath: "../../../secret.strings")
                     try fm.createSymbolicLink(atPath: project.appendingPathComponent("App/passwd.plist").path, withDestinationPath: "/etc/passwd")
                     return project.path
                 }),
            Case(name: ".app folder whose Frameworks is a symlink out of the tree", verdict: .finding("symlink_outside_bundle", ["Frameworks"]),
                 absent: ["Evil"], make: { dir in
                     let app = dir.appendingPathComponent("Demo.app")
                     try fm.createDirectory(at: app, withIntermediateDirectories: true)
                     try Data(H.infoPlist().utf8).write(to: app.appendingPathComponent("Info.plist"))
                     try H.realExecutable.write(to: app.appendingPathComponent("Demo"))
                     let outside = dir.appendingPathComponent("Outside/Evil.framework")
                     try fm.createDirectory(at: outside, withIntermediateDirectories: true)
                     try Data("not a plist".utf8).write(to: outside.appendingPathComponent("Info.plist"))
                     try Data("not a binary".utf8).write(to: outside.appendingPathComponent("Evil"))
                     try fm.createSymbolicLink(atPath: app.appendingPathComponent("Frameworks").path, withDestinationPath: "../Outside")
                     return app.path
                 }),
            Case(name: ".app folder with a FIFO, a symlink loop and a link to its own folder", verdict: .clean, make: { dir in
                let app = dir.appendingPathComponent("Demo.app")
                try fm.createDirectory(at: app.appendingPathComponent("en.lproj"), withIntermediateDirectories: true)
                try Data(H.infoPlist().utf8).write(to: app.appendingPathComponent("Info.plist"))
                try H.realExecutable.write(to: app.appendingPathComponent("Demo"))
                // Opening a FIFO for reading blocks until a writer comes: it must never be opened.
                XCTAssertEqual(mkfifo(app.appendingPathComponent("en.lproj/Localizable.strings").path, 0o644), 0)
                try fm.createSymbolicLink(atPath: app.appendingPathComponent("a").path, withDestinationPath: "b")
                try fm.createSymbolicLink(atPath: app.appendingPathComponent("b").path, withDestinationPath: "a")
                try fm.createSymbolicLink(atPath: app.appendingPathComponent("en.lproj/self").path, withDestinationPath: "..")
                return app.path
            }),
            Case(name: "input that is a FIFO", verdict: .error(["not a regular file"]), make: { dir in
                let fifo = dir.appendingPathComponent("App.ipa")
                XCTAssertEqual(mkfifo(fifo.path, 0o644), 0)
                return fifo.path
            }),
            Case(name: "input that is a character device (/dev/zero)", verdict: .error(["not a regular file"]), make: { _ in "/dev/zero" }),
            Case(name: "XcodeGen spec whose aliases expand to 10^10 nodes", verdict: .finding("unreadable_file", ["max-plist-objects"]),
                 make: { dir in
                     let project = dir.appendingPathComponent("Gen")
                     try fm.createDirectory(at: project.appendingPathComponent("App"), withIntermediateDirectories: true)
                     var lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
                     var previous = "a"
                     for n in ["b", "c", "d", "e", "f", "g", "h", "i", "j"] {
                         lines.append("\(n): &\(n) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ", ") + "]")
                         previous = n
                     }
                     lines.append("targets:\n  App:\n    type: application\n    platform: iOS\n    settings: *j")
                     try Data(lines.joined(separator: "\n").utf8).write(to: project.appendingPathComponent("project.yml"))
                     try Data(H.infoPlist().utf8).write(to: project.appendingPathComponent("App/Info.plist"))
                     return project.path
                 }),
            Case(name: "Swift source of 4 MB of nested comment openers and identifiers", verdict: .clean, make: { dir in
                let project = dir.appendingPathComponent("Src")
                try fm.createDirectory(at: project.appendingPathComponent("App"), withIntermediateDirectories: true)
                try Data(H.infoPlist().utf8).write(to: project.appendingPathComponent("App/Info.plist"))
                let body = String(repeating: "/*", count: 1_000_000) + String(repeating: " import CLLocationManager", count: 80_000)
                try Data(body.utf8).write(to: project.appendingPathComponent("App/Evil.swift"))
                return project.path
            }),
            Case(name: "Swift source of 4 MB of back-to-back http URLs and unterminated literals", verdict: .clean, make: { dir in
                let project = dir.appendingPathComponent("Urls")
                try fm.createDirectory(at: project.appendingPathComponent("App"), withIntermediateDirectories: true)
                try Data(H.infoPlist().utf8).write(to: project.appendingPathComponent("App/Info.plist"))
                let flood = "let s = \"" + String(repeating: "http://a.acme.com/", count: 120_000) + "\"\n"
                let open = String(repeating: "let u = URL(string: \"http://b.acme.com/\\(\n", count: 40_000)
                try Data((flood + open).utf8).write(to: project.appendingPathComponent("App/Urls.swift"))
                return project.path
            }),
            Case(name: "project with cyclic groups and self-referencing settings", verdict: .finding("unreadable_file", ["its own ancestor"]),
                 make: { dir in
                     let project = dir.appendingPathComponent("Cyclic")
                     try fm.createDirectory(at: project.appendingPathComponent("App.xcodeproj"), withIntermediateDirectories: true)
                     try fm.createDirectory(at: project.appendingPathComponent("App"), withIntermediateDirectories: true)
                     try Data(H.cyclicPbxproj.utf8).write(to: project.appendingPathComponent("App.xcodeproj/project.pbxproj"))
                     try Data(H.infoPlist().utf8).write(to: project.appendingPathComponent("App/Info.plist"))
                     return project.path
                 }),
        ])
    }
}
