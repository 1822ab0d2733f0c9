import Foundation
import Artifacts
import Findings
import Formats
import Reports
import Rules

/// The whole pipeline, as the command line runs it and a library user can: load each input,
/// gather evidence, run the rules, apply the configuration's policy (rules, severities, test
/// targets, the exit threshold), and render the report with a reporter of the registry.
public enum Pipeline {
    /// Scans every input in order; the first one that cannot be read stops the run. With a
    /// baseline, findings it covers are left out and its stale entries are listed.
    ///
    /// `progress` hears of each input before it is scanned; `onFinding` receives each input's
    /// findings as soon as that input is done (after the baseline), before the next is read.
    /// With `timings`, the phases of every input add up there (`--timings`).
    /// With `continueAfterFailure`, an input that cannot be read is recorded in the report's
    /// `failures` and the others are still scanned.
    public static func scan(_ paths: [String], configuration: Configuration, baseline: Baseline? = nil,
                            continueAfterFailure: Bool = false, timings: PhaseTimings? = nil,
                            progress: ((String) -> Void)? = nil, onFinding: ((Finding) -> Void)? = nil) throws -> ScanReport {
        var failures: [InputFailure] = []
        var results: [ScanResult] = []
        var remaining = baseline.map(BaselineCursor.init)
        for path in paths {
            progress?(path)
            var result: ScanResult
            do { result = try PreflightScanner.scan(path, configuration: configuration, timings: timings) } catch {
                guard continueAfterFailure else { throw InputFailure(path: path, error: error) }
                failures.append(InputFailure(path: path, error: error))
                continue
            }
            if var cursor = remaining {
                result.findings = cursor.take(result.findings)
                remaining = cursor
            }
            if let onFinding {
                for f in result.findings { onFinding(f) }
            }
            results.append(result)
        }
        var report = ScanReport(results: results, failOn: configuration.failOn)
        report.failures = failures
        if let baseline, let remaining { report.staleBaselineEntries = baseline.entries.filter(remaining.untouched) }
        return report
    }
}

/// What a scan of one or more inputs found, ready to render.
public struct ScanReport: Sendable {
    public var results: [ScanResult]
    /// Findings at or above this severity make the run fail (`--fail-on`).
    public var failOn: Severity
    /// Baseline entries no finding of this run matched.
    public var staleBaselineEntries: [Baseline.Entry] = []
    /// Inputs that could not be read (with `continueAfterFailure`).
    public var failures: [InputFailure] = []

    public init(results: [ScanResult], failOn: Severity) {
        self.results = results
        self.failOn = failOn
    }

    /// Whether the run passes or fails by the configuration's threshold.
    public var exitStatus: ExitStatus {
        if !failures.isEmpty { return .failure }
        return results.contains { $0.findings.contains { $0.severity >= failOn } } ? .findings : .clean
    }

    /// What every reporter reads.
    public var reportInput: ReportInput {
        ReportInput(tool: ToolInfo(version: PreflightScanner.version), scans: results.map(\.scannedInput),
                    rules: RuleRegistry.all.map { $0.description.info }, errors: failures.map(\.message))
    }

    /// The report in a registered format (`Reporters.identifiers`).
    public func render(format: String, options: ReportOptions = ReportOptions()) throws -> String {
        guard let reporter = Reporters.reporter(format) else { throw UnknownFormat(format: format) }
        return try reporter.render(reportInput, options: options)
    }
}

extension ScanResult {
    /// The input as reports name it.
    public var scannedInput: ScannedInput {
        ScannedInput(input: product.input, kind: product.kind.rawValue,
                     bundles: product.bundles.map {
                         BundleSummary(name: $0.name, kind: $0.kind.rawValue, identifier: $0.identifier,
                                       path: $0.path, infoPlist: $0.infoPlistPath)
                     },
                     rootDirectory: rootDirectory, findings: findings, suppressed: suppressed)
    }
}

/// One report a run writes: a format of the registry, to a file or (nil) standard output.
public struct ReportRequest: Sendable, Equatable {
    public var format: String
    public var path: String?

    public init(format: String, path: String? = nil) {
        self.format = format
        self.path = path
    }

    /// `FORMAT` or `FORMAT:PATH` (the path may itself hold colons).
    public init(parsing spec: String) {
        if let colon = spec.firstIndex(of: ":") {
            format = String(spec[..<colon])
            let rest = String(spec[spec.index(after: colon)...])
            path = rest.isEmpty ? nil : rest
        } else {
            format = spec
            path = nil
        }
    }
}

/// How a run ends: 0 no findings at or above the threshold, 2 findings at or above it,
/// 1 an input could not be read, 64 a usage error.
public enum ExitStatus: Int32, Sendable {
    case clean = 0
    case failure = 1
    case findings = 2
    case usage = 64
}

/// An input that cannot be loaded, as one line naming it.
public struct InputFailure: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var message: String

    /// Loader errors already start with the path; a reader's error (a ZIP archive's broken
    /// directory, a limit) does not.
    public init(path: String, error: Error) {
        let text = "\(error)".replacingOccurrences(of: "\n", with: " ")
        self.path = path
        message = error is InputError || text.hasPrefix(path + ":") ? text : "\(path): \(text)"
    }

    public var description: String { message }
}

public struct UnknownFormat: Error, CustomStringConvertible, Sendable {
    public var format: String
    public init(format: String) { self.format = format }
    public var description: String {
        "unknown format '\(format)'; one of \(Reporters.identifiers.joined(separator: ", "))"
    }
}
