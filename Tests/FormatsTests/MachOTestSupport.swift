import Foundation
import XCTest
@testable import Formats

/// Fixture paths, oracle runners and a tiny Mach-O writer shared by the Mach-O tests.
enum MachOFixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/MachO")

    static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    static func data(_ name: String) throws -> Data { try Data(contentsOf: url(name)) }

    static func read(_ name: String) throws -> MachOFile { try MachOReader.read(try data(name)) }
}

/// Runs LLVM tools when they are on PATH (they are on developer machines and CI).
enum MachOOracle {
    static func which(_ tool: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let url = URL(fileURLWithPath: String(dir)).appendingPathComponent(tool)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }

    /// True, and says so on standard output, when one of `tools` is not on PATH: the oracle
    /// comparison is skipped with its reason (a fresh clone has no LLVM tools; the fixed
    /// expectations of the test still run).
    static func missing(_ tools: [String], for context: String) -> Bool {
        let absent = tools.filter { which($0) == nil }
        guard !absent.isEmpty else { return false }
        print("MachOOracle: \(absent.joined(separator: ", ")) not on PATH: oracle comparison skipped for \(context)")
        return true
    }

    /// Standard output of a tool, or nil when the tool is missing or fails.
    static func run(_ tool: String, _ args: [String]) -> String? {
        guard let exe = tool.hasPrefix("/") ? URL(fileURLWithPath: tool) : which(tool) else { return nil }
        let p = Process()
        p.executableURL = exe
        p.arguments = args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        do { try p.run() } catch { return nil }
        // Drain stderr in the background so a chatty tool cannot block on a full pipe.
        let errDrain = Thread { _ = err.fileHandleForReading.readDataToEndOfFile() }
        errDrain.start()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// `llvm-nm -u --arch=<arch> <file>` as a list of names.
    static func undefinedSymbols(_ file: URL, arch: String) -> [String]? {
        guard let out = run("llvm-nm", ["-u", "--arch=\(arch)", file.path]) else { return nil }
        return out.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
            .filter { !$0.hasSuffix(":") }  // "file (for architecture x):" headers
    }

    struct Headers: Equatable {
        var libraries: [LinkedLibrary] = []
        var rpaths: [String] = []
        var uuid: String?
        /// llvm-objdump's platform word ("ios", "iossim", …) for LC_BUILD_VERSION, or the
        /// LC_VERSION_MIN_* command name.
        var platform: String?
        var minOS: String?
        var sdk: String?
    }

    /// The parts of `llvm-objdump --macho --private-headers --arch=<arch>` the reader reproduces.
    static func privateHeaders(_ file: URL, arch: String) -> Headers? {
        guard let out = run("llvm-objdump", ["--macho", "--private-headers", "--arch=\(arch)", file.path]) else { return nil }
        var h = Headers()
        var cmd = ""
        var platformCommand: Int?  // index of the first platform load command
        var commandIndex = -1
        var pendingLibrary: LinkedLibrary?
        func value(_ line: String, _ key: String) -> String? {
            let t = line.trimmingCharacters(in: .whitespaces)
            guard t.hasPrefix(key + " ") else { return nil }
            return String(t.dropFirst(key.count + 1))
        }
        func stripOffset(_ s: String) -> String {
            guard let r = s.range(of: " (offset ", options: .backwards) else { return s }
            return String(s[..<r.lowerBound])
        }
        let kinds: [String: LinkedLibrary.Kind] = [
            "LC_LOAD_DYLIB": .load, "LC_LOAD_WEAK_DYLIB": .weak, "LC_REEXPORT_DYLIB": .reexport,
            "LC_LAZY_LOAD_DYLIB": .lazy, "LC_LOAD_UPWARD_DYLIB": .upward,
        ]
        let versionMin: Set<String> = ["LC_VERSION_MIN_IPHONEOS", "LC_VERSION_MIN_MACOSX", "LC_VERSION_MIN_TVOS", "LC_VERSION_MIN_WATCHOS"]
        for line in out.split(separator: "\n").map(String.init) {
            if let c = value(line, "cmd") {
                if let lib = pendingLibrary { h.libraries.append(lib); pendingLibrary = nil }
                cmd = c
                commandIndex += 1
                if let kind = kinds[c] { pendingLibrary = LinkedLibrary(path: "", kind: kind, currentVersion: "", compatibilityVersion: "") }
                if platformCommand == nil, c == "LC_BUILD_VERSION" || versionMin.contains(c) {
                    platformCommand = commandIndex
                    if versionMin.contains(c) { h.platform = c }
                }
                continue
            }
            if pendingLibrary != nil {
                if let v = value(line, "name") { pendingLibrary?.path = stripOffset(v) }
                if let v = value(line, "current version") { pendingLibrary?.currentVersion = v }
                if let v = value(line, "compatibility version") { pendingLibrary?.compatibilityVersion = v }
            }
            if cmd == "LC_RPATH", let v = value(line, "path") { h.rpaths.append(stripOffset(v)) }
            if cmd == "LC_UUID", let v = value(line, "uuid") { h.uuid = v }
            if platformCommand == commandIndex {
                if cmd == "LC_BUILD_VERSION", let v = value(line, "platform") { h.platform = v }
                if cmd == "LC_BUILD_VERSION", let v = value(line, "minos") { h.minOS = v }
                if cmd != "LC_BUILD_VERSION", let v = value(line, "version") { h.minOS = v }
                if let v = value(line, "sdk"), h.sdk == nil { h.sdk = v == "n/a" ? nil : v }
            }
        }
        if let lib = pendingLibrary { h.libraries.append(lib) }
        return h
    }

    /// What the reader found, spelled the way `privateHeaders` reports it.
    static func headers(of slice: MachOSlice, oracle: Headers) -> Headers {
        var platform = slice.platform.flatMap(MachONames.objdumpPlatform)
        if let p = oracle.platform, p.hasPrefix("LC_VERSION_MIN_") {
            let names = ["LC_VERSION_MIN_IPHONEOS": "iOS", "LC_VERSION_MIN_MACOSX": "macOS",
                         "LC_VERSION_MIN_TVOS": "tvOS", "LC_VERSION_MIN_WATCHOS": "watchOS"]
            platform = names[p] == slice.platform ? p : slice.platform
        } else if platform == nil, let p = oracle.platform, p.hasPrefix("0x"), let n = UInt32(p.dropFirst(2), radix: 16) {
            // Platforms this LLVM prints as numbers.
            platform = slice.platform == MachONames.platform(n) ? p : slice.platform
        }
        return Headers(libraries: slice.linkedLibraries, rpaths: slice.rpaths, uuid: slice.uuid,
                       platform: platform, minOS: slice.minOS, sdk: slice.sdk)
    }

    /// Every executable named `tool` on PATH, in PATH order.
    static func whichAll(_ tool: String) -> [URL] {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        var seen = Set<String>()
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(tool) }
            .filter { FileManager.default.isExecutableFile(atPath: $0.path) && seen.insert($0.resolvingSymlinksInPath().path).inserted }
    }

    /// `(section, symbol)` of every bind, lazy bind and weak bind `llvm-objdump --macho` lists
    /// from dyld-info opcodes.
    static func bindTables(_ file: URL, arch: String) -> [(section: String, symbol: String)]? {
        var out: [(String, String)] = []
        for flag in ["--bind", "--lazy-bind", "--weak-bind"] {
            guard let text = run("llvm-objdump", ["--macho", flag, "--arch=\(arch)", file.path]) else { return nil }
            for line in text.split(separator: "\n") {
                let cols = line.split(separator: " ", omittingEmptySubsequences: true)
                guard cols.count >= 4, cols[2].hasPrefix("0x"), UInt64(cols[2].dropFirst(2), radix: 16) != nil else { continue }
                let symbol = cols[cols.count - 1] == "(weak_import)" ? cols[cols.count - 2] : cols[cols.count - 1]
                out.append((String(cols[1]), String(symbol)))
            }
        }
        return out
    }

    /// Import names from `llvm-objdump --macho --chained-fixups` (LLVM 15 or later, found
    /// anywhere on PATH); nil when no such tool is available.
    static func chainedImports(_ file: URL, arch: String) -> [String]? {
        for exe in whichAll("llvm-objdump") {
            guard let text = run(exe.path, ["--macho", "--chained-fixups", "--arch=\(arch)", file.path]) else { continue }
            return text.split(separator: "\n").compactMap { line -> String? in
                let t = line.trimmingCharacters(in: .whitespaces)
                guard t.hasPrefix("name_offset = "), let open = t.firstIndex(of: "("), t.hasSuffix(")") else { return nil }
                return String(t[t.index(after: open)..<t.index(before: t.endIndex)])
            }
        }
        return nil
    }

    /// Selector names `llvm-objdump --macho --section=<segment>,__objc_selrefs` resolves
    /// ("<address>  __TEXT:__objc_methname:<name>"); nil when it cannot resolve them all
    /// (it does not decode chained fixups).
    static func selectorRefs(_ file: URL, arch: String, segment: String) -> [String]? {
        guard let text = run("llvm-objdump", ["--macho", "--section=\(segment),__objc_selrefs", "--arch=\(arch)", file.path]) else { return nil }
        var names: [String] = []
        for line in text.split(separator: "\n").dropFirst(2) {
            guard let space = line.firstIndex(of: " ") else { continue }
            let value = line[space...].trimmingCharacters(in: .whitespaces)
            let parts = value.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].hasPrefix("__") else { return nil }
            names.append(String(parts[2]))
        }
        return names
    }

    /// Asserts that `boundSymbols` and `objcClassRefs` agree with llvm-objdump's bind tables
    /// (dyld-info binaries) or chained-fixup imports; returns false when no oracle could run.
    @discardableResult
    static func assertBindsAgree(_ slice: MachOSlice, at url: URL, context: String = "",
                                 file: StaticString = #filePath, line: UInt = #line) -> Bool {
        if slice.hasChainedFixups {
            guard let imports = chainedImports(url, arch: slice.arch) else {
                print("MachOOracle: no llvm-objdump with --chained-fixups (LLVM 15+) on PATH: chained imports of \(url.lastPathComponent) \(context) not compared")
                return false
            }
            XCTAssertEqual(slice.boundSymbols, Set(imports).sorted(by: MachONames.byteOrder),
                           "chained imports \(context) \(slice.arch)", file: file, line: line)
            return true
        }
        guard slice.hasDyldInfo, !missing(["llvm-objdump"], for: "\(url.lastPathComponent) \(context) binds") else { return false }
        guard let binds = bindTables(url, arch: slice.arch) else {
            XCTFail("llvm-objdump bind tables failed on \(url.lastPathComponent) \(slice.arch)", file: file, line: line)
            return false
        }
        XCTAssertEqual(slice.boundSymbols, Set(binds.map(\.symbol)).sorted(by: MachONames.byteOrder),
                       "bind tables \(context) \(slice.arch)", file: file, line: line)
        let prefix = "_OBJC_CLASS_$_"
        let classes = binds.filter { ($0.section == "__objc_classrefs" || $0.section == "__objc_superrefs") && $0.symbol.hasPrefix(prefix) }
            .map { String($0.symbol.dropFirst(prefix.count)) }
        XCTAssertEqual(slice.objcClassRefs, Set(classes).sorted(by: MachONames.byteOrder),
                       "class refs from bind tables \(context) \(slice.arch)", file: file, line: line)
        if let selrefs = slice.section("__objc_selrefs"), !slice.isEncrypted,
           let names = selectorRefs(url, arch: slice.arch, segment: selrefs.segment) {
            XCTAssertEqual(slice.objcSelectorRefs, Set(names).sorted(by: MachONames.byteOrder),
                           "selector refs \(context) \(slice.arch)", file: file, line: line)
        }
        return true
    }

    /// Asserts that a slice agrees with llvm-nm and llvm-objdump; returns false when the tools are missing.
    @discardableResult
    static func assertAgrees(_ slice: MachOSlice, at url: URL, context: String = "",
                             file: StaticString = #filePath, line: UInt = #line) -> Bool {
        guard !missing(["llvm-nm", "llvm-objdump"], for: "\(url.lastPathComponent) \(context)") else { return false }
        guard let nm = undefinedSymbols(url, arch: slice.arch),
              let objdump = privateHeaders(url, arch: slice.arch) else {
            XCTFail("llvm-nm or llvm-objdump failed on \(url.lastPathComponent) \(slice.arch)", file: file, line: line)
            return false
        }
        XCTAssertEqual(slice.importedSymbols, nm, "llvm-nm -u \(context) \(slice.arch)", file: file, line: line)
        XCTAssertEqual(headers(of: slice, oracle: objdump), objdump, "llvm-objdump \(context) \(slice.arch)", file: file, line: line)
        return true
    }
}

/// Little-endian byte writer for synthetic Mach-O inputs.
struct MachOBytes {
    var bytes: [UInt8] = []

    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u16(_ v: UInt16) { bytes += [UInt8(v & 0xff), UInt8(v >> 8)] }
    mutating func u32(_ v: UInt32) { for i in 0..<4 { bytes.append(UInt8((v >> (8 * UInt32(i))) & 0xff)) } }
    mutating func u64(_ v: UInt64) { for i in 0..<8 { bytes.append(UInt8((v >> (8 * UInt64(i))) & 0xff)) } }
    mutating func be32(_ v: UInt32) { for i in (0..<4).reversed() { bytes.append(UInt8((v >> (8 * UInt32(i))) & 0xff)) } }
    mutating func be64(_ v: UInt64) { for i in (0..<8).reversed() { bytes.append(UInt8((v >> (8 * UInt64(i))) & 0xff)) } }
    mutating func name16(_ s: String) { var b = Array(s.utf8.prefix(16)); b += [UInt8](repeating: 0, count: 16 - b.count); bytes += b }
    mutating func cString(_ s: String) { bytes += Array(s.utf8) + [0] }
    mutating func pad(to n: Int) { if bytes.count < n { bytes += [UInt8](repeating: 0, count: n - bytes.count) } }
    mutating func align(_ a: Int) { pad(to: (bytes.count + a - 1) / a * a) }

    mutating func put32(_ v: UInt32, at o: Int) { for i in 0..<4 { bytes[o + i] = UInt8((v >> (8 * UInt32(i))) & 0xff) } }
    mutating func put64(_ v: UInt64, at o: Int) { for i in 0..<8 { bytes[o + i] = UInt8((v >> (8 * UInt64(i))) & 0xff) } }

    var data: Data { Data(bytes) }

    /// A 64-bit little-endian arm64 header followed by `commands` (each already padded).
    static func thin64(fileType: UInt32 = 2, flags: UInt32 = 0x0020_0085, commands: [[UInt8]]) -> MachOBytes {
        var w = MachOBytes()
        w.u32(0xfeed_facf); w.u32(0x0100_000c); w.u32(0); w.u32(fileType)
        w.u32(UInt32(commands.count)); w.u32(UInt32(commands.reduce(0) { $0 + $1.count })); w.u32(flags); w.u32(0)
        for c in commands { w.bytes += c }
        return w
    }

    /// `LC_SEGMENT_64` with no sections.
    static func segment64(_ name: String, vmaddr: UInt64, vmsize: UInt64, fileoff: UInt64, filesize: UInt64, prot: UInt32 = 3) -> [UInt8] {
        var c = MachOBytes()
        c.u32(0x19); c.u32(72); c.name16(name)
        c.u64(vmaddr); c.u64(vmsize); c.u64(fileoff); c.u64(filesize)
        c.u32(prot); c.u32(prot); c.u32(0); c.u32(0)
        return c.bytes
    }

    /// A dylib command (`LC_LOAD_DYLIB` by default) with its name, padded to 8 bytes.
    static func dylib(_ path: String, cmd: UInt32 = 0xc, current: UInt32 = 0x10000, compat: UInt32 = 0x10000) -> [UInt8] {
        var c = MachOBytes()
        let size = (24 + path.utf8.count + 1 + 7) / 8 * 8
        c.u32(cmd); c.u32(UInt32(size)); c.u32(24); c.u32(0); c.u32(current); c.u32(compat)
        c.cString(path); c.pad(to: size)
        return c.bytes
    }

    /// A `linkedit_data_command` (`LC_CODE_SIGNATURE`, `LC_DYLD_CHAINED_FIXUPS`, …).
    static func linkedit(_ cmd: UInt32, dataoff: UInt32, datasize: UInt32) -> [UInt8] {
        var c = MachOBytes()
        c.u32(cmd); c.u32(16); c.u32(dataoff); c.u32(datasize)
        return c.bytes
    }
}

extension XCTestCase {
    /// Asserts that `body` throws a `FormatError` whose description is exactly `expected`.
    func assertMachOError(_ expected: String, file: StaticString = #filePath, line: UInt = #line,
                          _ body: () throws -> Void) {
        do {
            try body()
            XCTFail("expected error: \(expected)", file: file, line: line)
        } catch let error as FormatError {
            XCTAssertEqual(error.description, expected, file: file, line: line)
        } catch {
            XCTFail("unexpected error type: \(error)", file: file, line: line)
        }
    }
}
