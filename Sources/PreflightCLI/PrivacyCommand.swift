import ArgumentParser
import Foundation
import PreflightKit

struct PrivacyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "privacy",
        abstract: "Privacy manifests: draft the declarations the code needs, and the privacy report.",
        subcommands: [PrivacyManifestCommand.self, PrivacyReportCommand.self])
}

struct PrivacyManifestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "manifest",
        abstract: "Print, per bundle, the PrivacyInfo.xcprivacy that declares the required-reason APIs its code uses (ITMS-91053), merged with the existing one; --write updates a project's files.")

    @Argument(help: "An .ipa, .app, .xcarchive or project folder.", completion: .file())
    var path: String

    @Option(help: "Only this bundle (its name as `preflight inspect` shows it).")
    var bundle: String?

    @Flag(help: "Write the manifests into the project folder (never into a built app).")
    var write = false

    @OptionGroup var common: CommonScanOptions

    func run() throws {
        let config = try common.makeConfiguration()
        let loaded = try loadInput(path, configuration: config)
        if let bundle, !loaded.product.bundles.contains(where: { $0.name == bundle }) {
            printError("no bundle named \(bundle) in \(path)")
            throw Exit.failure
        }
        let drafts = PrivacyManifestDrafting.drafts(loaded, configuration: config, bundle: bundle)
        var wrote = Set<String>()
        if write {
            guard [ProductKind.project, .folder].contains(loaded.product.kind) else {
                printError("--write changes project folders only; \(path) is a built app: copy the printed manifest into the project instead")
                throw Exit.failure
            }
            let root = URL(fileURLWithPath: path).standardizedFileURL.path
            for d in drafts {
                guard let text = d.text else { continue }
                try emit(text, to: root + "/" + d.path)
                wrote.insert(d.path)
            }
        }
        try emit(PrivacyManifestDrafting.text(drafts, wrote: wrote), to: nil)
    }
}

struct PrivacyReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Aggregate every privacy manifest, tracking domain and purpose string, like Xcode's privacy report: a draft of the App Store \"App Privacy\" answers.")

    @Argument(help: "An .ipa, .app, .xcarchive or project folder.", completion: .file())
    var path: String

    @Option(name: .shortAndLong, help: "Output format: text, json or markdown.")
    var format: String = "text"

    @Option(name: .shortAndLong, help: "Write to a file instead of standard output.")
    var output: String?

    @OptionGroup var common: CommonScanOptions

    func validate() throws {
        guard ["text", "json", "markdown"].contains(format) else { throw ValidationError("--format must be text, json or markdown") }
    }

    func run() throws {
        let config = try common.makeConfiguration()
        let loaded = try loadInput(path, configuration: config, jsonCommand: format == "json" ? "privacy report" : nil, output: output)
        let report = PrivacyReport(loaded.product)
        try emit(format == "json" ? try report.json() : report.render(markdown: format == "markdown"), to: output)
    }
}
