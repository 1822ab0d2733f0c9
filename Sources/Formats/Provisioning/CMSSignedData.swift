import Foundation

/// The certificates of a CMS (PKCS #7) SignedData: those a code signature's CMS blob or a
/// provisioning profile carries. Nothing is verified; certificates are compared as bytes and
/// named by their subject's common name.
public enum CMSSignedData {
    public static let formatName = "CMS signature"
    static let signedData = "1.2.840.113549.1.7.2"

    /// The DER bytes of each certificate in the SignedData's `certificates` field, in order.
    public static func certificates(_ bytes: Data, limits: ReaderLimits = .default) throws -> [Data] {
        let format = formatName
        guard !bytes.isEmpty else { throw FormatError.truncated(format, "empty CMS structure", offset: 0) }
        let der = DERReader(ByteReader(bytes, format: format), maxDepth: min(limits.maxNestingDepth, 64))
        let contentInfo = try der.element(at: 0, limit: bytes.count)
        guard contentInfo.tag == 0x30 else {
            throw FormatError.malformed(format, "ContentInfo: expected a SEQUENCE, found tag 0x\(String(contentInfo.tag, radix: 16))", offset: 0)
        }
        let ci = try der.children(of: contentInfo)
        guard ci.count >= 2 else { throw FormatError.malformed(format, "ContentInfo has \(ci.count) fields, expected 2", offset: 0) }
        let type = try der.oid(ci[0])
        guard type == signedData else {
            throw FormatError.malformed(format, "content type \(type) is not signedData (\(signedData))", offset: ci[0].offset)
        }
        guard ci[1].tag == 0xA0, let sd = try der.children(of: ci[1], depth: 1).first, sd.tag == 0x30 else {
            throw FormatError.malformed(format, "ContentInfo content is not a SignedData SEQUENCE", offset: ci[1].offset)
        }
        let fields = try der.children(of: sd, depth: 2)
        guard fields.count >= 4 else {
            throw FormatError.malformed(format, "SignedData has \(fields.count) fields, expected at least 4", offset: sd.offset)
        }
        // version, digestAlgorithms, encapContentInfo, then [0] IMPLICIT certificates (optional).
        guard let set = fields.dropFirst(3).first(where: { $0.tag == 0xA0 }) else { return [] }
        let certs = try der.children(of: set, depth: 3)
        guard certs.count <= 64 else {
            throw FormatError.limit(format, "max-certificates", "SignedData holds \(certs.count) certificates", offset: set.offset)
        }
        return certs.map { Data(der.r.bytes[$0.offset..<$0.end]) }
    }

    /// The TBSCertificate fields of a DER certificate: [0] version (optional), serial,
    /// signature, issuer, validity, subject, …; `base` is the index of the serial.
    static func tbsFields(_ der: DERReader, _ count: Int) -> (fields: [DERReader.Element], base: Int)? {
        guard let cert = try? der.element(at: 0, limit: count), cert.tag == 0x30,
              let tbs = try? der.children(of: cert).first, tbs.tag == 0x30,
              let fields = try? der.children(of: tbs, depth: 1) else { return nil }
        let base = fields.first?.tag == 0xA0 ? 1 : 0
        guard fields.count > base + 4 else { return nil }
        return (fields, base)
    }

    /// The DER bytes of a certificate's issuer and subject Names.
    static func names(_ certificate: Data) -> (issuer: ArraySlice<UInt8>, subject: ArraySlice<UInt8>)? {
        let der = DERReader(ByteReader(certificate, format: formatName), maxDepth: 16)
        guard let tbs = tbsFields(der, certificate.count) else { return nil }
        let issuer = tbs.fields[tbs.base + 2], subject = tbs.fields[tbs.base + 4]
        return (der.r.bytes[issuer.offset..<issuer.end], der.r.bytes[subject.offset..<subject.end])
    }

    /// The signer's certificate among a signature's: the one that issued none of the others
    /// (the leaf of the chain codesign embeds with it); the first when names cannot be read.
    public static func leaf(_ certificates: [Data]) -> Data? {
        let named = certificates.map(names)
        for (i, cert) in certificates.enumerated() {
            guard let subject = named[i]?.subject else { continue }
            let issuedAnother = named.indices.contains { j in j != i && named[j]?.issuer == subject }
            if !issuedAnother { return cert }
        }
        return certificates.first
    }

    /// The subject common name (OID 2.5.4.3) of a DER certificate, or nil when it has none or
    /// is not shaped like an X.509 certificate.
    public static func subjectCommonName(_ certificate: Data) -> String? {
        let der = DERReader(ByteReader(certificate, format: formatName), maxDepth: 16)
        guard let tbs = tbsFields(der, certificate.count),
              let rdns = try? der.children(of: tbs.fields[tbs.base + 4], depth: 2) else { return nil }
        for rdn in rdns {
            for attribute in (try? der.children(of: rdn, depth: 3)) ?? [] {
                guard let parts = try? der.children(of: attribute, depth: 4), parts.count == 2,
                      (try? der.oid(parts[0])) == "2.5.4.3", [0x0C, 0x13, 0x14, 0x16].contains(parts[1].tag) else { continue }
                return String(decoding: der.r.bytes[parts[1].contentStart..<parts[1].contentEnd], as: UTF8.self)
            }
        }
        return nil
    }
}
