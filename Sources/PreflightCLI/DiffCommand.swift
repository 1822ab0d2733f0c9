import ArgumentParser
import Foundation
import PreflightKit

struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "What changed between two versions of an app: permissions, SDKs, entitlements, ATS, privacy manifests, sizes, findings.")

    @Argument(help: "The earlier version (an .ipa, .app, .xcarchive or project folder).", completion: .file())
    var old: String

    @Argument(help: "The later version.", completion: .file())
    var new: String

    @Option(name: .shortAndLong, help: "Output format: text, json or markdown.")
    var format: String = "text"

    @Option(name: .shortAndLong, help: "Write to a file instead of standard output.")
    var output: String?

    @Flag(name: .customLong("fail-on-new-permission"), help: "Exit with 2 when the later version asks for a permission the earlier one did not.")
    var failOnNewPermission = false

    @Flag(name: .customLong("fail-on-new-finding"), help: "Exit with 2 when the later version has a finding the earlier one did not.")
    var failOnNewFinding = false

    @OptionGroup var common: CommonScanOptions

    func validate() throws {
        guard ["text", "json", "markdown"].contains(format) else { throw ValidationError("--format must be text, json or markdown") }
    }

    func run() throws {
        let config = try common.makeConfiguration()
        func scan(_ path: String) throws -> (input: LoadedInput, findings: [Finding]) {
            do {
                let loaded = try PreflightScanner.load(path, configuration: config)
                return (loaded, PreflightScanner.scan(loaded, configuration: config).findings)
            } catch {
                let failure = InputFailure(path: path, error: error)
                printError(failure.message)
                if format == "json" { try? emit(errorDocument(command: "diff", inputs: [old, new], errors: [failure.message]), to: output) }
                throw Exit.failure
            }
        }
        let diff = ReleaseDiff.compare(old: try scan(old), new: try scan(new))
        let text = format == "json" ? try diff.json() : format == "markdown" ? diff.markdown() : diff.text()
        try emit(text, to: output)
        if (failOnNewPermission && !diff.addedPermissions.isEmpty) || (failOnNewFinding && !diff.newFindings.isEmpty) {
            throw Exit.findings
        }
    }
}
