import ArgumentParser
import Foundation
import PreflightKit

public struct PreflightCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "preflight",
        abstract: "Audit an iOS app (.ipa, .app, .xcarchive or Xcode project) before App Review does.",
        version: Scanner.version,
        subcommands: [ScanCommand.self, InspectCommand.self, RulesCommand.self, ExplainCommand.self],
        defaultSubcommand: ScanCommand.self
    )
    public init() {}
}

/// Exit codes: 0 clean, 2 findings at or above the threshold, 1 input or internal error, 64 usage.
enum Exit {
    static let findings = ExitCode(2)
    static let failure = ExitCode(1)
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data("preflight: error: \(message)\n".utf8))
}

/// An input that cannot be loaded, as one line naming it: loader errors already start with
/// the path; a reader's error (a ZIP archive's broken directory, a limit) does not.
func inputErrorMessage(_ error: Error, path: String) -> String {
    let text = "\(error)".replacingOccurrences(of: "\n", with: " ")
    return error is InputError || text.hasPrefix(path + ":") ? text : "\(path): \(text)"
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
