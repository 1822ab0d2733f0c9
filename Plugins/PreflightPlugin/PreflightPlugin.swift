import Foundation
import PackagePlugin

/// `swift package preflight [scan options]`: builds `preflight` and scans the package folder it
/// runs in (an app's Xcode project beside its `Package.swift` included). Findings are printed
/// as Xcode diagnostics unless the options ask for another report; the command fails when
/// findings reach the `--fail-on` threshold.
@main
struct PreflightPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "preflight")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = ["scan", context.package.directoryURL.path] + arguments
        try process.run()
        process.waitUntilExit()
        switch process.terminationStatus {
        case 0: break
        case 2: Diagnostics.error("preflight found problems at or above the --fail-on threshold")
        default: Diagnostics.error("preflight exited with status \(process.terminationStatus)")
        }
    }
}
