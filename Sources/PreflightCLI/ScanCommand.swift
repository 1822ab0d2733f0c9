import ArgumentParser
import Foundation
import Formats
import PreflightKit
import Reports
import Rules

extension Severity: ExpressibleByArgument {}

struct CommonScanOptions: ParsableArguments {
    @Option(name: .long, help: "Configuration file (default: .preflight.yml in the current folder, if any).")
    var config: String?

    @Option(name: .customLong("limit"), help: ArgumentHelp("Override a reader limit (repeatable), e.g. --limit max-file-bytes=104857600. Limits and their defaults: \(ReaderLimits.default.named.map { "\($0.0)=\($0.1)" }.joined(separator: ", ")).", valueName: "name=value"))
    var limits: [String] = []

    @Option(name: .customLong("build-configuration"), help: "Xcode build configuration to read (default: Release).")
    var buildConfiguration: String?

    @Flag(name: .customLong("full-parse"), help: .hidden)
    var fullParse = false

    func makeConfiguration() throws -> Configuration {
        var c = Configuration()
        let path = config ?? (FileManager.default.fileExists(atPath: Configuration.fileName) ? Configuration.fileName : nil)
        if let path {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                printError("cannot read configuration \(path)")
                throw Exit.failure
            }
            do { c = try Configuration.parse(yaml: text, path: path) } catch {
                printError("\(error)")
                throw Exit.failure
            }
        }
        for l in limits {
            let parts = l.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let v = Int(parts[1]) else {
                throw ValidationError("--limit takes name=positive-integer, got '\(l)'")
            }
            do { try c.setLimit(parts[0], to: v) } catch let e as Configuration.Error { throw ValidationError(e.description) }
        }
        if let b = buildConfiguration { c.buildConfiguration = b }
        c.fullSourceParse = fullParse
        return c
    }
}

struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Scan .ipa, .app, .xcarchive files or project folders and report findings.")

    @Argument(help: "Inputs to scan.", completion: .file())
    var paths: [String]

    @Option(name: .shortAndLong, help: ArgumentHelp("Output format: \(Reporters.all.map { "\($0.identifier) (\($0.summary))" }.joined(separator: ", ")).",
                                                    valueName: Reporters.identifiers.joined(separator: "|")))
    var format: String = XcodeReporter.identifier

    @Option(name: .shortAndLong, help: "Write the report to a file instead of standard output.")
    var output: String?

    @Option(name: .customLong("report"), help: ArgumentHelp("A report in a format, to a file or (without a path) standard output; repeatable, several formats in one run. Replaces --format and --output.", valueName: "format[:path]"))
    var reports: [String] = []

    /// The reports to write: `--report`s, else the one `--format`/`--output` give.
    var requests: [ReportRequest] {
        reports.isEmpty ? [ReportRequest(format: format, path: output)] : reports.map(ReportRequest.init(parsing:))
    }

    @Option(name: .customLong("fail-on"), help: "Exit with 2 when a finding is at or above this severity: error, warning or note.")
    var failOn: Severity?

    @Option(name: .customLong("disable"), help: "Disable a rule (repeatable).")
    var disabled: [String] = []

    @Option(name: .customLong("enable"), help: "Enable an opt-in rule (repeatable).")
    var enabled: [String] = []

    @Option(name: .customLong("only"), help: "Run only this rule (repeatable).")
    var only: [String] = []

    @Option(name: .customLong("baseline"), help: "Report only findings this baseline (written by `preflight baseline write`) does not accept.")
    var baseline: String?

    @Flag(name: .customLong("include-tests"), help: "Report findings that concern only unit-test and UI-test targets (as warnings at most).")
    var includeTests = false

    @Flag(name: .customLong("timings"), help: "After the reports, print to standard error where the scan spent its time: loading, each evidence phase, the slowest rules.")
    var timings = false

    @OptionGroup var common: CommonScanOptions

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("give at least one path to scan") }
        for request in requests where Reporters.reporter(request.format) == nil {
            throw ValidationError(UnknownFormat(format: request.format).description)
        }
        guard requests.filter({ $0.path == nil }).count <= 1 else {
            throw ValidationError("only one report can go to standard output; give the others a path (--report json:out.json)")
        }
        for id in disabled + enabled + only where RuleRegistry.rule(id) == nil {
            throw ValidationError("unknown rule '\(id)'; `preflight rules` lists them")
        }
    }

    func run() throws {
        var config = try common.makeConfiguration()
        config.disabledRules.formUnion(disabled)
        config.enabledRules.formUnion(enabled)
        if !only.isEmpty { config.onlyRules = Set(only) }
        if let failOn { config.failOn = failOn }
        if includeTests { config.includeTests = true }

        let report: ScanReport
        var accepted: Baseline?
        if let baseline {
            guard let data = FileManager.default.contents(atPath: baseline) else {
                printError("cannot read baseline \(baseline)")
                throw Exit.failure
            }
            do { accepted = try Baseline(data: data, path: baseline) } catch {
                printError("\(error)")
                throw Exit.failure
            }
        }
        let progress = ProgressLine()
        let measured = timings ? PhaseTimings() : nil
        do {
            // Every input is scanned and every report written, also when one cannot be read:
            // machine formats then say so in a valid document, and the run exits with 1.
            report = try Pipeline.scan(paths, configuration: config, baseline: accepted, continueAfterFailure: true,
                                       timings: measured, progress: progress.start)
            progress.finish()
        } catch let failure as InputFailure {
            progress.finish()
            printError(failure.message)
            throw Exit.failure
        }
        for failure in report.failures { printError(failure.message) }
        for request in requests {
            let colored = request.path == nil && isatty(1) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
            try emit(try report.render(format: request.format, options: ReportOptions(colored: colored)), to: request.path)
        }
        if let measured { FileHandle.standardError.write(Data(TimingsTable.render(measured.all).utf8)) }
        if let baseline, !report.staleBaselineEntries.isEmpty {
            let list = report.staleBaselineEntries.map { "\($0.rule)" + ($0.bundle.map { " in \($0)" } ?? "") + ($0.key.map { " (\($0))" } ?? "") }
            FileHandle.standardError.write(Data("preflight: \(list.count) entr\(list.count == 1 ? "y" : "ies") of baseline \(baseline) no longer found (fixed? write the baseline again): \(list.joined(separator: ", "))\n".utf8))
        }
        // In a GitHub Actions job, the annotations come with a summary of the run.
        if requests.contains(where: { $0.format == GitHubActionsReporter.identifier }),
           let summary = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty {
            try append(try report.render(format: MarkdownReporter.identifier), to: summary)
        }
        if report.exitStatus == .failure { throw Exit.failure }
        if report.exitStatus == .findings { throw Exit.findings }
    }
}
