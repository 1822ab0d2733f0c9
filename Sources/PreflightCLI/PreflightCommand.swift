import ArgumentParser
import Foundation
import PreflightKit

public struct PreflightCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "preflight",
        abstract: "Audit an iOS app (.ipa, .app, .xcarchive or Xcode project) before App Review does.",
        version: PreflightScanner.version,
        subcommands: [ScanCommand.self, InspectCommand.self, RulesCommand.self, ExplainCommand.self],
        defaultSubcommand: ScanCommand.self
    )
    public init() {}
}

/// Exit codes (`ExitStatus`): 0 clean, 2 findings at or above the threshold, 1 input or
/// internal error, 64 usage.
enum Exit {
    static let findings = ExitCode(ExitStatus.findings.rawValue)
    static let failure = ExitCode(ExitStatus.failure.rawValue)
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data("preflight: error: \(message)\n".utf8))
}

/// Writes output to a file or standard output.
func emit(_ text: String, to output: String?) throws {
    if let output {
        do { try Data(text.utf8).write(to: URL(fileURLWithPath: output)) } catch {
            printError("cannot write \(output): \(error.localizedDescription)")
            throw Exit.failure
        }
    } else {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
