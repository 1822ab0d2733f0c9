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

/// Appends to a file (GitHub's step summary is one file every step adds to).
func append(_ text: String, to path: String) throws {
    guard let handle = FileHandle(forWritingAtPath: path) ?? {
        FileManager.default.createFile(atPath: path, contents: nil)
        return FileHandle(forWritingAtPath: path)
    }() else {
        printError("cannot write \(path)")
        throw Exit.failure
    }
    defer { try? handle.close() }
    handle.seekToEndOfFile()
    handle.write(Data(text.utf8))
}
