import ArgumentParser
import Foundation
import PreflightKit

struct BaselineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "baseline",
        abstract: "Accept the findings an app has today, so later scans report only new ones.",
        subcommands: [BaselineWriteCommand.self])
}

struct BaselineWriteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write",
        abstract: "Scan the inputs and write every finding's fingerprint to FILE (then: preflight scan --baseline FILE …).")

    @Argument(help: "The baseline file to write.")
    var file: String

    @Argument(help: "Inputs to scan.", completion: .file())
    var paths: [String]

    @OptionGroup var common: CommonScanOptions

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("give at least one path to scan") }
    }

    func run() throws {
        let config = try common.makeConfiguration()
        let report: ScanReport
        do { report = try Pipeline.scan(paths, configuration: config) } catch let failure as InputFailure {
            printError(failure.message)
            throw Exit.failure
        }
        let baseline = Baseline(findings: report.results.flatMap(\.findings))
        try emit(String(decoding: try baseline.data(), as: UTF8.self), to: file)
        let count = baseline.entries.reduce(0) { $0 + $1.count }
        FileHandle.standardError.write(Data("preflight: baseline \(file): \(count) finding\(count == 1 ? "" : "s") accepted\n".utf8))
    }
}
