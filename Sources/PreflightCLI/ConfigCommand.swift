import ArgumentParser
import Foundation
import PreflightKit

struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Work with .preflight.yml.", subcommands: [ConfigCheckCommand.self])
}

struct ConfigCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a configuration file: unknown keys or rules, wrong types and suppressions without a reason are errors with their line.")

    @Argument(help: "The file to check (default: .preflight.yml in the current folder).")
    var file: String = Configuration.fileName

    func run() throws {
        guard let data = FileManager.default.contents(atPath: file) else {
            printError("cannot read \(file)")
            throw Exit.failure
        }
        do {
            let c = try Configuration.parse(yaml: String(decoding: data, as: UTF8.self), path: file)
            print("\(file): valid (\(c.activeRules.count) rules run, \(c.suppressions.count) suppression\(c.suppressions.count == 1 ? "" : "s"), fail on \(c.failOn.rawValue))")
        } catch {
            printError("\(error)")
            throw Exit.failure
        }
    }
}
