import Foundation

/// An `embedded.mobileprovision` / `.mobileprovision` file: the property list signed inside.
public struct ProvisioningProfile: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        /// `get-task-allow` is true in the entitlements.
        case development
        /// Lists devices, no `get-task-allow`.
        case adHoc
        /// `ProvisionsAllDevices` is true (In-House / Enterprise).
        case enterprise
        /// None of the above.
        case appStore
    }

    public var name: String?
    public var uuid: String?
    public var teamIdentifiers: [String]
    public var teamName: String?
    public var appIDName: String?
    public var creationDate: Date?
    public var expirationDate: Date?
    public var platforms: [String]
    public var provisionedDevices: [String]
    public var provisionsAllDevices: Bool
    public var entitlements: PlistNode?
    /// `ApplicationIdentifierPrefix`: the prefixes `application-identifier` may start with.
    public var applicationIdentifierPrefixes: [String]
    /// `DeveloperCertificates`: the DER certificates whose keys may sign with this profile.
    public var developerCertificates: [Data]
    public var kind: Kind
    /// The whole inner property list, with positions.
    public var plist: PlistNode

    /// How Apple's tools name the kind: "development", "ad hoc", "App Store", "enterprise".
    public var kindName: String {
        switch kind {
        case .development: return "development"
        case .adHoc: return "ad hoc"
        case .enterprise: return "enterprise (in-house)"
        case .appStore: return "App Store"
        }
    }

    /// True when the profile has an expiration date at or before `date`.
    public func isExpired(at date: Date) -> Bool {
        expirationDate.map { $0 <= date } ?? false
    }

    public init(plist: PlistNode) {
        self.plist = plist
        name = plist["Name"]?.string
        uuid = plist["UUID"]?.string
        teamIdentifiers = plist["TeamIdentifier"]?.strings ?? []
        teamName = plist["TeamName"]?.string
        appIDName = plist["AppIDName"]?.string
        if case .date(let d)? = plist["CreationDate"]?.value { creationDate = d }
        if case .date(let d)? = plist["ExpirationDate"]?.value { expirationDate = d }
        platforms = plist["Platform"]?.strings ?? []
        provisionedDevices = plist["ProvisionedDevices"]?.strings ?? []
        provisionsAllDevices = plist["ProvisionsAllDevices"]?.bool ?? false
        entitlements = plist["Entitlements"]
        applicationIdentifierPrefixes = plist["ApplicationIdentifierPrefix"]?.strings ?? []
        developerCertificates = (plist["DeveloperCertificates"]?.array ?? []).compactMap {
            if case .data(let d) = $0.value { return d } else { return nil }
        }
        if entitlements?["get-task-allow"]?.bool == true {
            kind = .development
        } else if provisionsAllDevices {
            kind = .enterprise
        } else if !provisionedDevices.isEmpty {
            kind = .adHoc
        } else {
            kind = .appStore
        }
    }
}

/// Reads a provisioning profile: a CMS ContentInfo whose SignedData encapsulates an XML
/// property list. The signature is not verified (that needs a trust store; the profile is
/// evidence, not a credential). BER constructed OCTET STRINGs and indefinite lengths are
/// accepted; nesting is bounded.
public enum ProvisioningProfileParser {
    public static let formatName = "provisioning profile"
    static let signedData = "1.2.840.113549.1.7.2"
    static let data = "1.2.840.113549.1.7.1"

    public static func parse(_ data: Data, limits: ReaderLimits = .default) throws -> ProvisioningProfile {
        let content = try signedContent(data, limits: limits)
        let plist: PlistNode
        do {
            plist = try PropertyListReader.read(Data(content), limits: limits).root
        } catch let e as FormatError {
            throw FormatError(e.kind, format: formatName, reason: "signed content is not a property list (\(e))")
        }
        guard plist.dictionary != nil else {
            throw FormatError.malformed(formatName, "signed property list is a \(plist.value.typeName), expected a dictionary")
        }
        return ProvisioningProfile(plist: plist)
    }

    /// The encapsulated content bytes of a CMS SignedData.
    public static func signedContent(_ bytes: Data, limits: ReaderLimits = .default) throws -> [UInt8] {
        try limits.checkInputSize(bytes.count, format: formatName)
        let der = DERReader(ByteReader(bytes, format: formatName), maxDepth: min(limits.maxNestingDepth, 64))
        let format = formatName
        func expect(_ e: DERReader.Element, _ tag: UInt8, _ what: String) throws {
            guard e.tag == tag else {
                throw FormatError.malformed(format, "\(what): expected tag 0x\(String(tag, radix: 16)), found 0x\(String(e.tag, radix: 16))", offset: e.offset)
            }
        }
        guard !bytes.isEmpty else { throw FormatError.truncated(format, "empty file", offset: 0) }
        let contentInfo = try der.element(at: 0, limit: bytes.count)
        try expect(contentInfo, 0x30, "ContentInfo")
        let ci = try der.children(of: contentInfo)
        guard ci.count >= 2 else { throw FormatError.malformed(format, "ContentInfo has \(ci.count) fields, expected 2", offset: 0) }
        let type = try der.oid(ci[0])
        guard type == signedData else {
            throw FormatError.malformed(format, "content type \(type) is not signedData (\(signedData))", offset: ci[0].offset)
        }
        try expect(ci[1], 0xA0, "ContentInfo content")
        let explicit = try der.children(of: ci[1], depth: 1)
        guard let sd = explicit.first else { throw FormatError.malformed(format, "ContentInfo content is empty", offset: ci[1].offset) }
        try expect(sd, 0x30, "SignedData")
        let sdFields = try der.children(of: sd, depth: 2)
        guard sdFields.count >= 3 else { throw FormatError.malformed(format, "SignedData has \(sdFields.count) fields, expected at least 3", offset: sd.offset) }
        try expect(sdFields[0], 0x02, "SignedData version")
        let encap = sdFields[2]
        try expect(encap, 0x30, "EncapsulatedContentInfo")
        let ec = try der.children(of: encap, depth: 3)
        guard let ecType = ec.first else { throw FormatError.malformed(format, "EncapsulatedContentInfo is empty", offset: encap.offset) }
        let eType = try der.oid(ecType)
        guard eType == data else {
            throw FormatError.malformed(format, "encapsulated content type \(eType) is not data (\(data))", offset: ecType.offset)
        }
        guard ec.count >= 2 else { throw FormatError.malformed(format, "profile has no encapsulated content (detached signature)", offset: encap.offset) }
        try expect(ec[1], 0xA0, "eContent")
        let inner = try der.children(of: ec[1], depth: 4)
        guard let octets = inner.first else { throw FormatError.malformed(format, "eContent is empty", offset: ec[1].offset) }
        let content = try der.octets(octets, depth: 5)
        guard content.count <= limits.maxFileBytes else {
            throw FormatError.limit(format, "max-file-bytes", "signed content of \(content.count) bytes", offset: octets.offset)
        }
        return content
    }
}
