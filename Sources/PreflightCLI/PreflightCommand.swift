import ArgumentParser
import PreflightKit

public struct PreflightCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "preflight",
        abstract: "Audit an iOS app (.ipa, .app, .xcarchive or Xcode project) before App Review does."
    )
    public init() {}
}
