import Foundation

/// What every reporter receives: the findings of one or more scanned inputs, what was scanned,
/// and the rules' metadata.
public struct ReportInput: Sendable {
    public var tool: ToolInfo
    public var scans: [ScannedInput]
    public var rules: [RuleInfo]
    /// Inputs that could not be read, one line each: machine formats still write a valid
    /// document that says so.
    public var errors: [String]

    public init(tool: ToolInfo, scans: [ScannedInput], rules: [RuleInfo], errors: [String] = []) {
        self.tool = tool
        self.scans = scans
        self.rules = rules
        self.errors = errors
    }
}

/// One scanned input as reports name it.
public struct ScannedInput: Sendable {
    /// The input as given (`App.ipa`, `MyApp/`).
    public var input: String
    /// `ipa`, `app`, `xcarchive`, `project`, `folder`, `machO`.
    public var kind: String
    public var bundles: [BundleSummary]
    /// Where files of this input live, for absolute paths in Xcode output (nil for archives).
    public var rootDirectory: String?
    public var findings: [Finding]
    /// Findings the configuration accepts on purpose, with its reasons.
    public var suppressed: [SuppressedFinding]

    public init(input: String, kind: String, bundles: [BundleSummary], rootDirectory: String?, findings: [Finding],
                suppressed: [SuppressedFinding] = []) {
        self.input = input
        self.kind = kind
        self.bundles = bundles
        self.rootDirectory = rootDirectory
        self.findings = findings
        self.suppressed = suppressed
    }

    /// A path a person (or Xcode) can open: absolute for folders, `archive/entry` for archives.
    public func displayPath(_ file: String) -> String {
        if let root = rootDirectory { return root.hasSuffix("/") ? root + file : root + "/" + file }
        return input + "/" + file
    }
}

/// A finding left out of the results by a suppression, and the reason the suppression gives.
public struct SuppressedFinding: Sendable, Equatable {
    public var finding: Finding
    public var reason: String

    public init(finding: Finding, reason: String) {
        self.finding = finding
        self.reason = reason
    }
}

/// A bundle of a scanned input, as reports list it.
public struct BundleSummary: Sendable, Equatable {
    public var name: String
    public var kind: String
    public var identifier: String?
    public var path: String
    public var infoPlist: String?

    public init(name: String, kind: String, identifier: String?, path: String, infoPlist: String?) {
        self.name = name
        self.kind = kind
        self.identifier = identifier
        self.path = path
        self.infoPlist = infoPlist
    }
}

public struct ToolInfo: Sendable, Codable {
    public var name: String
    public var version: String
    public var informationURI: String
    public init(name: String = "preflight", version: String, informationURI: String = "https://github.com/preflight-ios/preflight") {
        self.name = name
        self.version = version
        self.informationURI = informationURI
    }
}

/// How a report is written beyond its format.
public struct ReportOptions: Sendable {
    /// ANSI colours, for a terminal.
    public var colored: Bool
    public init(colored: Bool = false) { self.colored = colored }
}

/// Renders findings in one format. Reporters read only this module.
public protocol Reporter {
    static var identifier: String { get }
    /// One line for `--help`.
    static var summary: String { get }
    static func render(_ input: ReportInput, options: ReportOptions) throws -> String
}
