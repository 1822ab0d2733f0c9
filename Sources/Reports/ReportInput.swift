import Foundation
import Artifacts
import Rules

/// What every reporter receives: the findings of one or more scanned inputs.
public struct ReportInput: Sendable {
    public struct Scanned: Sendable {
        public var product: Product
        /// Where files of this input live, for absolute paths in Xcode output (nil for archives).
        public var rootDirectory: String?
        public var findings: [Finding]
        public init(product: Product, rootDirectory: String?, findings: [Finding]) {
            self.product = product
            self.rootDirectory = rootDirectory
            self.findings = findings
        }
    }
    public var tool: ToolInfo
    public var scans: [Scanned]
    public var rules: [RuleDescription]

    public init(tool: ToolInfo, scans: [Scanned], rules: [RuleDescription]) {
        self.tool = tool
        self.scans = scans
        self.rules = rules
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

public protocol Reporter {
    static var identifier: String { get }
    static func render(_ input: ReportInput) throws -> String
}

public enum Reporters {
    public static let all: [any Reporter.Type] = [XcodeReporter.self, JSONReporter.self, SARIFReporter.self]
    public static func reporter(_ id: String) -> (any Reporter.Type)? { all.first { $0.identifier == id } }
}

extension ReportInput.Scanned {
    /// A path a person (or Xcode) can open: absolute for folders, `archive/entry` for archives.
    func displayPath(_ file: String) -> String {
        if let root = rootDirectory { return root.hasSuffix("/") ? root + file : root + "/" + file }
        return product.input + "/" + file
    }
}
