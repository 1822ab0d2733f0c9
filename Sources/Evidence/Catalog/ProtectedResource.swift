/// Platforms a purpose-string key applies to. iPadOS binaries are iOS binaries.
public enum ApplePlatform: String, Sendable, Hashable, Codable, CaseIterable {
    case iOS, macCatalyst, macOS, tvOS, watchOS, visionOS

    /// From the `platform` field of `LC_BUILD_VERSION`; simulators map to their device
    /// platform, DriverKit and bridgeOS to nil.
    public init?(machOPlatform: UInt32) {
        switch machOPlatform {
        case 1: self = .macOS
        case 2, 7: self = .iOS
        case 3, 8: self = .tvOS
        case 4, 9: self = .watchOS
        case 6: self = .macCatalyst
        case 11, 12: self = .visionOS
        default: return nil
        }
    }
}

public enum FactConfidence: String, Sendable, Hashable, Codable {
    case high, medium, low
}

/// Something besides the purpose string that the resource needs.
public struct RelatedRequirement: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
        /// Another Info.plist key of the same bundle.
        case infoPlistKey
        /// An entitlement in the code signature.
        case entitlement
    }

    public let kind: Kind
    public let name: String
    /// When it is needed, if not always.
    public let condition: String?

    public init(_ kind: Kind, _ name: String, when condition: String? = nil) {
        self.kind = kind
        self.name = name
        self.condition = condition
    }
}

/// One purpose-string key, the resource it protects and the APIs that reach it.
public struct ProtectedResource: Sendable, Hashable, Codable {
    /// The Info.plist key, e.g. `NSCameraUsageDescription`.
    public let key: String
    /// Stable id used in evidence and rules, e.g. `camera`, `location.always`.
    public let capability: String
    /// What the user is asked about.
    public let resource: String
    public let platforms: Set<ApplePlatform>
    /// First OS version that knows the key, when it matters (`"iOS 11.0"`).
    public let minimumOS: String?
    /// Set for superseded keys.
    public let deprecation: String?
    /// For legacy keys: the key is needed only while the iOS deployment target is below this
    /// version (e.g. `"13.0"` for `NSBluetoothPeripheralUsageDescription`).
    public let neededOnlyBelowIOS: String?
    public let related: [RelatedRequirement]
    public let triggers: Triggers
    public let notes: String?
    public let source: String
    public let confidence: FactConfidence

    public init(key: String, capability: String, resource: String, platforms: Set<ApplePlatform>,
                minimumOS: String? = nil, deprecation: String? = nil,
                neededOnlyBelowIOS: String? = nil, related: [RelatedRequirement] = [],
                triggers: Triggers, notes: String? = nil, source: String,
                confidence: FactConfidence) {
        self.key = key
        self.capability = capability
        self.resource = resource
        self.platforms = platforms
        self.minimumOS = minimumOS
        self.deprecation = deprecation
        self.neededOnlyBelowIOS = neededOnlyBelowIOS
        self.related = related
        self.triggers = triggers
        self.notes = notes
        self.source = source
        self.confidence = confidence
    }
}
