import XCTest
import Foundation

/// Preflight's scan never executes anything, never opens a network connection and never
/// creates, moves or deletes files (DESIGN §4): the modules that load, read, judge and report
/// do not even import an API that could. `llvm-nm -u` lists what each module's object files
/// import, `swift-demangle` names the Swift ones.
///
/// Batch mode (`preflight batch`, docs/fleet.md) is the one deliberate exception, and it is
/// fenced into the `Fleet` module: it writes a SQLite database, connects to PostgreSQL and
/// starts its own executable as scanning processes. So the executable as a whole may import
/// those powers, but only through `Fleet` and its database libraries; every other module is
/// checked as before, and only the CLI's batch command may import `Fleet`.
final class ProcessSafetyTests: XCTestCase {
    /// The package's modules that must import none of the forbidden APIs: all but `Fleet`.
    static let checkedModules = ["Formats", "Artifacts", "Evidence", "Rules", "Findings", "Reports", "SwiftSourceScan",
                                 "PreflightKit", "PreflightCLI", "preflight"]

    /// What each module's object files import (the build folder sits beside the executable).
    static func moduleImports() throws -> [String: [String]]? {
        let buildDir = CLITests.executable.deletingLastPathComponent()
        var out: [String: [String]] = [:]
        for module in checkedModules {
            let dir = buildDir.appendingPathComponent("\(module).build")
            let objects = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasSuffix(".o") }.sorted()
            guard !objects.isEmpty else { continue }
            guard let nm = try InspectOracleTests.tool("llvm-nm", ["-u"] + objects.map { dir.appendingPathComponent($0).path }) else { return nil }
            out[module] = nm.split(separator: "\n").compactMap { line -> String? in
                guard !line.hasSuffix(":"), let name = line.split(separator: " ").last else { return nil }
                return String(name)
            }
        }
        return out
    }

    /// Batch mode (stores, worker processes) is fenced: only the batch and serve commands and
    /// the server module, which is built on it, import it — never a scanning module.
    func testOnlyTheBatchAndServerCodeImportsFleet() throws {
        let sources = CLITests.packageRoot.appendingPathComponent("Sources")
        var importers: [String] = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let url = files?.nextObject() as? URL {
            guard url.pathExtension == "swift", !url.path.contains("/Sources/Fleet/") else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            if text.split(separator: "\n").contains(where: { $0.hasPrefix("import Fleet") || $0.hasPrefix("@testable import Fleet") }) {
                importers.append(String(url.path.dropFirst(sources.path.count + 1)))
            }
        }
        let allowed = importers.filter { $0.hasPrefix("Server/") || $0 == "PreflightCLI/BatchCommand.swift" || $0 == "PreflightCLI/ServeCommand.swift" }
        XCTAssertEqual(importers.sorted(), allowed.sorted(), "modules that must not import Fleet")
        XCTAssertTrue(importers.contains("PreflightCLI/BatchCommand.swift"), "the oracle should see the batch command")
    }
    /// C functions that run programs, load code, reach the network or change the file system.
    static let forbiddenCFunctions: Set<String> = [
        "fork", "vfork", "execv", "execve", "execvp", "execvpe", "execl", "execle", "execlp", "fexecve",
        "posix_spawn", "posix_spawnp", "system", "popen", "dlopen",
        "socket", "socketpair", "connect", "bind", "listen", "accept", "accept4", "sendto", "sendmsg",
        "getaddrinfo", "gethostbyname", "gethostbyname_r",
        "creat", "creat64", "mkstemp", "mkstemps", "mkdtemp", "tmpfile", "tmpnam", "mkfifo", "mknod",
        "unlink", "unlinkat", "rename", "renameat", "remove", "rmdir", "mkdir", "mkdirat",
        "symlink", "symlinkat", "link", "linkat", "chmod", "fchmod", "chown", "truncate", "ftruncate",
    ]

    /// Swift APIs with the same powers, matched in demangled names.
    static let forbiddenSwiftPatterns = [
        #"\bFoundation(Essentials)?\.Process\b"#, #"\bURLSession"#, #"\bURLRequest\b"#, #"\bNSURLConnection\b"#,
        #"\bFoundation\.Host\b"#, #"\b(Input|Output)Stream\b"#, #"\bBundle\.load\b"#,
        #"FileManager\.(createFile|createDirectory|removeItem|moveItem|copyItem|linkItem|createSymbolicLink|replaceItem|trashItem|setAttributes|url\(for)"#,
        #"FileManager\.temporaryDirectory"#, #"\bNSTemporaryDirectory\b"#,
        #"FileHandle\.__allocating_init\((forWriting|forUpdating)"#,
        #"(String|StringProtocol)\.write\((to|toFile|toURL):"#,
        // open(path, flags, mode) is the form that creates files; reading uses open(path, flags).
        #"^Glibc\.open\([^)]*,[^)]*,[^)]*\)"#,
    ]

    func testScanningModulesImportNothingThatRunsProgramsReachesTheNetworkOrChangesFiles() throws {
        guard let modules = try Self.moduleImports() else { throw XCTSkip("llvm-nm is not installed") }
        XCTAssertGreaterThanOrEqual(modules.count, 8, "object files of \(Self.checkedModules) not found beside \(CLITests.executable.path)")
        let imported = Array(Set(modules.values.joined())).sorted()
        XCTAssertGreaterThan(imported.count, 100, "llvm-nm listed too few imports")
        // Mach-O prefixes C names with an underscore; ELF does not.
        let cNames = imported.filter { !$0.hasPrefix("$s") && !$0.hasPrefix("_$s") }
            .map { $0.hasPrefix("_") ? String($0.dropFirst()) : $0 }
        let forbiddenC = cNames.filter { Self.forbiddenCFunctions.contains($0.split(separator: "@").first.map(String.init) ?? $0) }
        XCTAssertEqual(forbiddenC, [], "a scanning module imports C functions it must never call")

        let mangled = imported.filter { $0.hasPrefix("$s") || $0.hasPrefix("_$s") }
        XCTAssertGreaterThan(mangled.count, 100)
        let demangled = try demangle(mangled)
        XCTAssertTrue(demangled.contains { $0.contains("Glibc.open(") || $0.contains("FileHandle") },
                      "the oracle should see how Preflight reads files; demangling failed?")
        let patterns = try Self.forbiddenSwiftPatterns.map { try NSRegularExpression(pattern: $0) }
        let forbiddenSwift = demangled.filter { name in
            patterns.contains { $0.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil }
        }
        XCTAssertEqual(forbiddenSwift, [], "a scanning module imports Swift APIs it must never call")
    }

    /// The files Preflight writes are reports: those `--output` and `--report` name, and GitHub's
    /// step summary when a job names one; all go through one function.
    func testOnlyTheOutputOptionWritesAFile() throws {
        let sources = CLITests.packageRoot.appendingPathComponent("Sources")
        var writers: [String] = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let url = files?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains(".write(to:") || line.contains(".write(toFile:") {
                writers.append("\(url.path.dropFirst(sources.path.count + 1)):\(number + 1)")
            }
        }
        XCTAssertEqual(writers.count, 1, "\(writers)")
        XCTAssertTrue(writers.first?.hasPrefix("PreflightCLI/") == true, "\(writers)")
    }

    private func demangle(_ symbols: [String]) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift-demangle"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = Pipe()
        do { try process.run() } catch { throw XCTSkip("swift-demangle is not installed") }
        // Write from another thread: the demangler's output pipe would fill while we write.
        let text = Data(symbols.map { $0.hasPrefix("_$s") ? String($0.dropFirst()) : $0 }.joined(separator: "\n").utf8)
        let writer = Thread { input.fileHandleForWriting.write(text); try? input.fileHandleForWriting.close() }
        writer.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // `env` exits 127 when it finds no such program.
        guard process.terminationStatus != 127 else { throw XCTSkip("swift-demangle is not installed") }
        guard process.terminationStatus == 0 else { throw XCTSkip("swift-demangle failed (exit \(process.terminationStatus))") }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, symbols.count)
        return lines
    }
}
