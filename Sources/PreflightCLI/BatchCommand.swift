import ArgumentParser
import Fleet
import Foundation
import PreflightKit
import Rules

/// `preflight batch`: many inputs, results in a database, sharded, resumable (docs/fleet.md).
struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Scan many apps into a SQLite or PostgreSQL store, sharded and resumable (docs/fleet.md).",
        subcommands: [BatchRunCommand.self, BatchSummaryCommand.self, BatchWorkerCommand.self],
        defaultSubcommand: BatchRunCommand.self)
}

struct BatchRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Scan .ipa files, .app and .xcarchive folders (folders are walked) into a store.")

    @Argument(help: "Inputs, or folders to walk for .ipa, .app and .xcarchive.", completion: .file())
    var inputs: [String] = []

    @Option(name: .customLong("list"), help: "A file with one input path per line (repeatable; # starts a comment).")
    var lists: [String] = []

    @Option(help: "A SQLite file, or postgres://user[:password]@host[:port]/database.")
    var store: String = "preflight-fleet.sqlite"

    @Option(help: ArgumentHelp("This process's share of the inputs: I/N (0 ≤ I < N), or auto (a Kubernetes Indexed Job's JOB_COMPLETION_INDEX, with the count in PREFLIGHT_SHARD_COUNT or JOB_COMPLETIONS).", valueName: "I/N|auto"))
    var shard: String?

    @Option(name: .customLong("max-attempts"), help: "Attempts an input gets when its scan crashes or times out before it is marked failed.")
    var maxAttempts: Int = 3

    @Option(help: "Seconds one input may take; then its scanning process is killed and the attempt fails.")
    var timeout: Double = 300

    @Option(help: "Scanning processes side by side (default: the number of processors).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: ArgumentHelp("Seconds a claim on an input stays valid without a heartbeat (renewed every quarter of it).", visibility: .hidden))
    var lease: Double = 60

    @Flag(name: .customLong("retry-failed"), help: "Scan again the inputs that ended failed in an earlier run.")
    var retryFailed = false

    @Option(name: .shortAndLong, help: "Run statistics on standard output: text or json.")
    var format: String = "text"

    @OptionGroup var common: CommonScanOptions

    func validate() throws {
        guard !inputs.isEmpty || !lists.isEmpty else { throw ValidationError("give inputs, folders or --list FILE") }
        guard maxAttempts >= 1 else { throw ValidationError("--max-attempts must be at least 1") }
        guard timeout > 0, lease > 0, jobs >= 1 else { throw ValidationError("--timeout, --lease and --jobs must be positive") }
        guard ["text", "json"].contains(format) else { throw ValidationError("--format takes text or json") }
        _ = try shardSpec()
    }

    func shardSpec() throws -> (index: Int, count: Int) {
        guard let shard else { return (0, 1) }
        var text = shard
        if shard == "auto" {
            let env = ProcessInfo.processInfo.environment
            guard let index = env["JOB_COMPLETION_INDEX"], let count = env["PREFLIGHT_SHARD_COUNT"] ?? env["JOB_COMPLETIONS"] else {
                throw ValidationError("--shard auto needs JOB_COMPLETION_INDEX and PREFLIGHT_SHARD_COUNT (or JOB_COMPLETIONS) in the environment")
            }
            text = "\(index)/\(count)"
        }
        let parts = text.split(separator: "/").map { Int($0) }
        guard parts.count == 2, let i = parts[0], let n = parts[1], n >= 1, i >= 0, i < n else {
            throw ValidationError("--shard takes I/N with 0 ≤ I < N, got '\(text)'")
        }
        return (i, n)
    }

    func run() throws {
        let configuration = try common.makeConfiguration()
        let (index, count) = try shardSpec()
        let all: [BatchInput]
        do { all = try BatchInputs.collect(paths: inputs, listFiles: lists) } catch {
            printError("\(error)")
            throw Exit.failure
        }
        let mine = all.filter { $0.shard(of: count) == index }
        let store: any FleetStore
        do { store = try FleetStores.open(self.store) } catch {
            printError("\(error)")
            throw Exit.failure
        }
        defer { store.close() }
        let options = BatchOptions(
            executable: Self.executablePath(), workerArguments: ["batch", "worker"] + common.forwarded, jobs: jobs, timeout: timeout,
            policy: ClaimPolicy(maxAttempts: maxAttempts, leaseSeconds: lease, retryFailed: retryFailed),
            preflightVersion: PreflightScanner.version, rulesetVersion: Self.rulesetVersion,
            configHash: Self.configHash(configuration))
        let runner = BatchRunner(store: store, options: options) { line in
            FileHandle.standardError.write(Data("preflight: \(line)\n".utf8))
        }
        let stats: BatchStats
        do { stats = try runner.run(mine) } catch {
            printError("store \(FleetStores.describe(self.store)): \(error)")
            throw Exit.failure
        }
        let shardText = count > 1 ? " (shard \(index)/\(count) of \(all.count))" : ""
        if format == "json" {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try emit(String(decoding: try encoder.encode(stats), as: UTF8.self) + "\n", to: nil)
        } else {
            let rate = stats.seconds > 0 ? Double(stats.scanned) / stats.seconds * 60 : 0
            try emit("""
                \(stats.inputs) input\(stats.inputs == 1 ? "" : "s")\(shardText): \(stats.scanned) scanned, \(stats.alreadyDone) already done, \
                \(stats.failed + stats.alreadyFailed) failed, \(stats.retried) retried\(stats.rolledBack > 0 ? ", \(stats.rolledBack) rolled back" : "") \
                in \(String(format: "%.1f", stats.seconds)) s (\(Int(rate)) inputs/min) → \(FleetStores.describe(self.store))

                """, to: nil)
        }
        if stats.signal != 0 { throw ExitCode(128 + stats.signal) }
    }

    /// This executable, which the workers run.
    static func executablePath() -> String {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if n > 0 { return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        #endif
        return Bundle.main.executablePath ?? CommandLine.arguments[0]
    }

    /// Identifies the registered rules: each one's identifier, default severity and opt-in state.
    static var rulesetVersion: String {
        String(InputDigest.sha256(RuleRegistry.all.map { "\($0.description.identifier):\($0.description.severity.rawValue):\($0.description.optIn)" }
            .sorted().joined(separator: "\n")).prefix(16))
    }

    /// Identifies what the configuration changes in a result.
    static func configHash(_ c: Configuration) -> String {
        var parts = ["rules=" + c.activeRules.map { $0.description.identifier }.sorted().joined(separator: ",")]
        parts.append("overrides=" + c.severityOverrides.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value.rawValue)" }.joined(separator: ","))
        parts.append("limits=" + c.limits.named.map { "\($0.0)=\($0.1)" }.joined(separator: ","))
        parts.append("build=\(c.buildConfiguration ?? "")")
        parts.append("tests=\(c.includeTests)")
        parts.append("fullparse=\(c.fullSourceParse)")
        parts.append("suppressions=" + c.suppressions.map { "\($0)" }.joined(separator: "\u{1f}"))
        return String(InputDigest.sha256(parts.joined(separator: "\n")).prefix(16))
    }
}

struct BatchSummaryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summary",
        abstract: "What a store holds: inputs scanned and failed, findings per rule, common SDKs and permissions, apps with cleartext or tracking issues.")

    @Option(help: "A SQLite file, or postgres://user[:password]@host[:port]/database.")
    var store: String = "preflight-fleet.sqlite"

    @Option(name: .shortAndLong, help: "text, json or markdown.")
    var format: String = "text"

    @Option(name: .shortAndLong, help: "Write the summary to a file instead of standard output.")
    var output: String?

    @Option(help: "Entries in each top list.")
    var top: Int = 20

    func validate() throws {
        guard ["text", "json", "markdown"].contains(format) else { throw ValidationError("--format takes text, json or markdown") }
    }

    func run() throws {
        if !FleetStores.isPostgres(store), !FileManager.default.fileExists(atPath: store) {
            printError("no store at \(store)")
            throw Exit.failure
        }
        let summary: FleetSummary
        do {
            let s = try FleetStores.open(store)
            defer { s.close() }
            summary = try FleetSummary.read(from: s, limit: top)
        } catch {
            printError("\(error)")
            throw Exit.failure
        }
        switch format {
        case "json": try emit(try summary.json(), to: output)
        case "markdown": try emit(summary.markdown(), to: output)
        default: try emit(summary.text(), to: output)
        }
    }
}

/// The scanning process batch mode starts: one request per line in, one result per line out.
struct BatchWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "worker", abstract: "Batch mode's scanning process.", shouldDisplay: false)

    @OptionGroup var common: CommonScanOptions

    func run() throws {
        BatchWorker.serve(configuration: try common.makeConfiguration())
    }
}

extension CommonScanOptions {
    /// The options again, for a worker process to build the same configuration.
    var forwarded: [String] {
        var out: [String] = []
        if let config { out += ["--config", config] }
        for l in limits { out += ["--limit", l] }
        if let buildConfiguration { out += ["--build-configuration", buildConfiguration] }
        if fullParse { out.append("--full-parse") }
        return out
    }
}
