import ArgumentParser
import Foundation
import PreflightKit

public struct PreflightCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "preflight",
        abstract: "Audit an iOS app (.ipa, .app, .xcarchive or Xcode project) before App Review does.",
        version: PreflightScanner.version,
        subcommands: [ScanCommand.self, InspectCommand.self, RulesCommand.self, ExplainCommand.self, BaselineCommand.self, ConfigCommand.self, DiffCommand.self,
                      PrivacyCommand.self, BatchCommand.self, ServeCommand.self, TokenCommand.self],
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

/// Loads an input for a command that reads one, or prints why it cannot and exits with 1.
/// With `jsonCommand` set (`--format json`), the output also gets a JSON error document, as
/// `scan` writes one, so that a script reading it never finds an empty file.
func loadInput(_ path: String, configuration: Configuration, jsonCommand: String? = nil, output: String? = nil) throws -> LoadedInput {
    do { return try PreflightScanner.load(path, configuration: configuration) } catch {
        let failure = InputFailure(path: path, error: error)
        printError(failure.message)
        if let jsonCommand { try? emit(errorDocument(command: jsonCommand, inputs: [path], errors: [failure.message]), to: output) }
        throw Exit.failure
    }
}

/// The JSON document a `--format json` command writes when an input cannot be read:
/// `{"schemaVersion": 1, "tool": …, "command": …, "inputs": […], "errors": […]}`.
func errorDocument(command: String, inputs: [String], errors: [String]) -> String {
    let document: [String: Any] = ["schemaVersion": 1, "tool": ["name": "preflight", "version": PreflightScanner.version],
                                   "command": command, "inputs": inputs, "errors": errors]
    guard let data = try? JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]) else {
        return "{\"errors\": [], \"schemaVersion\": 1}\n"
    }
    return String(decoding: data, as: UTF8.self) + "\n"
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

/// Adds a report to the end of a file that collects them (GitHub's step summary, which every
/// step of a job adds to), through `emit`, the one place Preflight writes a file.
func append(_ text: String, to path: String) throws {
    let earlier = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
    try emit(earlier + text, to: path)
}
