import Foundation
import Formats

public enum ProductKind: String, Sendable, Codable {
    case ipa, app, xcarchive, project, folder, machO, xcframework
    /// A Swift package folder: `Package.swift` at the root, no Xcode project.
    case package
}

/// Everything Preflight loaded from one input: its bundles, and the problems met while
/// loading that rules turn into findings.
/// Built by the loaders of this module; every other module reads it as an immutable value.
public struct Product: Sendable {
    public internal(set) var kind: ProductKind
    /// The input as the user named it.
    public internal(set) var input: String
    public internal(set) var bundles: [AppBundle]
    public internal(set) var problems: [LoadProblem]
    /// Xcode projects found (project inputs only), as paths relative to the input.
    public internal(set) var projects: [String]
    /// True when the input uses code Preflight cannot read: CocoaPods, Carthage, remote Swift
    /// packages or prebuilt frameworks in a project; such code may use any API.
    public internal(set) var usesExternalCode = false
    /// Mach-O files given directly (not inside a bundle).
    public internal(set) var looseBinaries: [BinaryFile] = []
    /// The third-party SDKs the product ships or links, as its files show them.
    public internal(set) var sdks: [SDKComponent] = []
    /// Resource files read only when a rule asks (icons: PNG headers, asset catalogs).
    public internal(set) var resources: ResourceFiles?
    /// Projects a committed workspace names but the input does not hold (generated), each
    /// with the XcodeGen spec that generates it (`mail.xcodeproj` → `mail-project.yml`).
    public internal(set) var generatedProjects: [String: String] = [:]
    /// `.entitlements` files of a project folder that no target uses (`UnreferencedEntitlements`).
    public internal(set) var unreferencedEntitlementsFiles: [String] = []
    /// Remote Swift packages the projects reference (read by the SDK inventory).
    var remotePackageReferences: [RemotePackageReference] = []

    public init(kind: ProductKind, input: String, bundles: [AppBundle] = [], problems: [LoadProblem] = [], projects: [String] = []) {
        self.kind = kind
        self.input = input
        self.bundles = bundles
        self.problems = problems
        self.projects = projects
    }

    public func bundle(named name: String) -> AppBundle? { bundles.first { $0.name == name } }
    public func bundle(id: String) -> AppBundle? { bundles.first { $0.id == id } }
    /// The bundle that contains or embeds this one.
    public func parent(of bundle: AppBundle) -> AppBundle? { bundle.parentID.flatMap { self.bundle(id: $0) } }
}

/// Something that went wrong while loading, kept for the rules (a reader knows no rules).
public struct LoadProblem: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A file that should be a property list, strings file, manifest or binary could not be read.
        case unreadable(FormatError)
        /// A file could not be read from the input at all (archive or file-system error).
        case inaccessible(String)
        /// A build setting names a file that does not exist.
        case missingReference(setting: String)
        /// A build setting names a file that exists only with other letter case.
        case caseMismatch(setting: String, actualPath: String)
        /// A bundle folder without an Info.plist.
        case missingInfoPlist
        /// `CFBundleExecutable` names a file the bundle does not contain.
        case missingExecutable(name: String)
        /// A symlink that points outside the scanned tree (never followed).
        case symlinkOutsideTree(target: String)
        /// An `.ipa` whose `Payload` folder is not at the root of the archive, or not spelled
        /// `Payload` (the path is the folder as found); the app was read from it.
        case payloadNotAtRoot
    }

    public var kind: Kind
    /// The file concerned, relative to the input root.
    public var path: String
    /// The bundle concerned, by name, when known.
    public var bundle: String?
    /// Where in another file the problem was written (e.g. the build setting's line in project.pbxproj).
    public var referencedFrom: FileLocation?

    public init(_ kind: Kind, path: String, bundle: String? = nil, referencedFrom: FileLocation? = nil) {
        self.kind = kind
        self.path = path
        self.bundle = bundle
        self.referencedFrom = referencedFrom
    }
}

extension LoadProblem {
    /// A read failure as a problem: format errors keep their position, others their text.
    public init(unreadable error: Error, path: String, bundle: String?) {
        if let e = error as? FormatError {
            self.init(.unreadable(e), path: path, bundle: bundle)
        } else if let e = error as? SourceError, e.path == path || e.path.isEmpty {
            self.init(.inaccessible(e.reason), path: path, bundle: bundle)
        } else {
            self.init(.inaccessible("\(error)"), path: path, bundle: bundle)
        }
    }
}

public struct FileLocation: Sendable, Equatable, Hashable {
    public var path: String
    public var position: SourcePosition?
    public init(path: String, position: SourcePosition? = nil) {
        self.path = path
        self.position = position
    }
}

extension Array where Element == AppBundle {
    /// The name of the bundle among these that contains or embeds `bundle`.
    public func parentName(of bundle: AppBundle) -> String? {
        bundle.parentID.flatMap { id in first { $0.id == id }?.name }
    }
}
