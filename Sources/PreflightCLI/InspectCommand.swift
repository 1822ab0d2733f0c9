import ArgumentParser
import Foundation
import PreflightKit

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show what Preflight sees: bundles, binaries, entitlements, manifests, languages. Also takes a single Mach-O file.")

    @Argument(help: "An .ipa, .app, .xcarchive, project folder or Mach-O file.", completion: .file())
    var path: String

    @Option(name: .shortAndLong, help: "Output format: text or json.")
    var format: String = "text"

    @Flag(help: "Include imported symbols of every binary slice.")
    var symbols = false

    @Option(name: .shortAndLong, help: "Write to a file instead of standard output.")
    var output: String?

    @OptionGroup var common: CommonScanOptions

    func validate() throws {
        guard ["text", "json"].contains(format) else { throw ValidationError("--format must be text or json") }
    }

    func run() throws {
        let config = try common.makeConfiguration()
        let loaded = try loadInput(path, configuration: config, jsonCommand: format == "json" ? "inspect" : nil, output: output)
        let options = InspectReport.Options(includeSymbols: symbols)
        let pinning = InspectReport.pinning(loaded)
        let domains = InspectReport.contactedDomains(loaded, limits: config.limits)
        let stores = InspectReport.shippedStores(loaded)
        let text = format == "json"
            ? try InspectReport.json(loaded.product, tool: ToolInfo(version: PreflightScanner.version), options: options, pinning: pinning,
                                     domains: domains, stores: stores)
            : InspectReport.text(loaded.product, options: options, pinning: pinning, domains: domains, stores: stores)
        try emit(text, to: output)
    }
}
