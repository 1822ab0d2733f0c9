import Foundation
import Formats

/// How a third-party SDK reaches the product.
public enum SDKKind: String, Sendable, Codable, CaseIterable {
    /// A framework embedded in a built app (`Frameworks/X.framework`).
    case framework
    /// A resource bundle of a statically linked SDK in a built app (`X.bundle`).
    case resourceBundle = "resource-bundle"
    /// A CocoaPods pod.
    case pod
    /// A Swift package pinned by `Package.resolved` or referenced by a project.
    case swiftPackage = "swift-package"
    /// A Carthage dependency (`Cartfile.resolved`).
    case carthage
    /// A prebuilt `.xcframework` in a project (a binary dependency).
    case xcframework
}

/// What the product ships of an SDK's code signature (binary dependencies in projects only).
public enum SDKSignature: String, Sendable, Codable {
    /// `_CodeSignature/` or `Signatures/` at the root of the `.xcframework`.
    case signed
    /// An `.xcframework` with neither.
    case unsigned
    /// Not a binary dependency, or a built app (where the app's signing replaces the SDK's).
    case notApplicable = "not-applicable"
}

/// One third-party SDK the product ships or links, as the input shows it. The inventory is
/// what the files say, matched against no list: evidence and rules decide what it means.
public struct SDKComponent: Sendable, Equatable {
    /// The name the SDK goes by where it was found: the framework's folder name, the pod's
    /// name (subspecs folded into it), the package's identity or name, the Carthage repository.
    public internal(set) var name: String
    public internal(set) var version: String?
    public internal(set) var kind: SDKKind
    /// How it was recognised, in words (`Podfile.lock PODS entry`).
    public internal(set) var recognisedBy: String
    /// The file that shows it (with the line when it is written in a lock file).
    public internal(set) var location: FileLocation
    /// Where its code comes from when the input says so (a package's repository URL, a pod's
    /// external source).
    public internal(set) var origin: String?
    /// `CFBundleIdentifier` of an embedded framework.
    public internal(set) var identifier: String?
    /// The folder that holds the SDK's files in the input (the framework, the pod folder, the
    /// package checkout, the `.xcframework`); nil when they are not there (pods not installed,
    /// packages not resolved into the folder) — then what the SDK ships cannot be seen.
    public internal(set) var filesPath: String?
    /// Privacy manifests among the SDK's files (and in resource bundles it ships), relative to
    /// the input.
    public internal(set) var privacyManifests: [String] = []
    public internal(set) var signature: SDKSignature = .notApplicable
    /// Where the signature is (`X.xcframework/_CodeSignature`), when signed.
    public internal(set) var signaturePath: String?
    /// The `id` of the bundle that embeds it (built apps).
    public internal(set) var bundleID: String?

    public init(name: String, version: String? = nil, kind: SDKKind, recognisedBy: String, location: FileLocation,
                origin: String? = nil, identifier: String? = nil, filesPath: String? = nil) {
        self.name = name
        self.version = version
        self.kind = kind
        self.recognisedBy = recognisedBy
        self.location = location
        self.origin = origin
        self.identifier = identifier
        self.filesPath = filesPath
    }

    /// The SDK's files are in the input, so whether it ships a manifest can be seen.
    public var filesPresent: Bool { filesPath != nil }
}
