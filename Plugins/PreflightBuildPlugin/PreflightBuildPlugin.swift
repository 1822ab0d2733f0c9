import Foundation
import PackagePlugin

/// Runs `preflight scan` on every build of the target it is applied to, so findings appear as
/// build warnings and errors (inline in Xcode's issue navigator). Apply it to the app target
/// only: each target it is applied to scans the whole package or project folder.
///
/// The scan runs again when one of the target's files changes. A build command needs an output
/// for the build system to schedule it, so the command leaves a one-line Swift comment file in
/// the plugin's work folder (compiled into nothing). Errors fail the build, as SwiftLint's do;
/// `fail_on` in the folder's `.preflight.yml` moves that threshold.
@main
struct PreflightBuildPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let inputs = (target as? SourceModuleTarget)?.sourceFiles.map(\.url) ?? []
        return [try Self.command(tool: try context.tool(named: "preflight").url,
                                 folder: context.package.directoryURL,
                                 manifest: context.package.directoryURL.appending(path: "Package.swift"),
                                 inputs: inputs, workFolder: context.pluginWorkDirectoryURL, target: target.name)]
    }

    /// `sh -c` runs the scan, then writes the output file whatever the scan found, and exits with
    /// the scan's status (2 = findings at or above the threshold, which fails the build).
    static func command(tool: URL, folder: URL, manifest: URL, inputs: [URL], workFolder: URL, target: String) throws -> Command {
        let stamp = workFolder.appending(path: "\(target)+Preflight.swift")
        let script = #""$0" scan "$1" --report xcode; status=$?; printf '// preflight scan: exit %s\n' "$status" > "$2"; exit "$status""#
        return .buildCommand(displayName: "Preflight \(folder.lastPathComponent) (\(target))",
                             executable: URL(fileURLWithPath: "/bin/sh"),
                             arguments: ["-c", script, tool.path, folder.path, stamp.path],
                             inputFiles: [tool, manifest] + inputs,
                             outputFiles: [stamp])
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension PreflightBuildPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        let project = context.xcodeProject.directoryURL
        let inputs = target.inputFiles.map(\.url)
        let pbxproj = project.appending(path: "\(context.xcodeProject.displayName).xcodeproj/project.pbxproj")
        return [try Self.command(tool: try context.tool(named: "preflight").url, folder: project,
                                 manifest: pbxproj, inputs: inputs, workFolder: context.pluginWorkDirectoryURL,
                                 target: target.displayName)]
    }
}
#endif
