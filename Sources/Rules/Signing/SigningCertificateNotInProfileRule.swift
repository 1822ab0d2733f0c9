import Foundation
import Artifacts
import Formats

public struct SigningCertificateNotInProfileRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "signing_certificate_not_in_profile",
        name: "Certificate not in profile",
        summary: "The certificate in a binary's code signature is not one of the certificates its embedded provisioning profile lists.",
        rationale: """
        A provisioning profile names the certificates allowed to sign with it \
        (`DeveloperCertificates`): an App Store or ad hoc profile lists distribution \
        certificates, a development profile development certificates. The certificate in the \
        signature's CMS blob must be one of them; otherwise iOS does not install the app and \
        App Store Connect rejects the upload ("Invalid Code Signing. The executable … must be \
        signed with the certificate that is contained in the provisioning profile", ITMS-90179). \
        The usual cause is a development certificate ("Apple Development: …") with a \
        distribution profile, or a profile regenerated after the certificate was renewed.

        Preflight compares the certificates byte for byte and names them by their subject; it \
        does not check that a certificate is Apple's, unexpired or unrevoked (that needs Apple's \
        trust store). Binaries without a CMS blob (ad hoc signatures) are left to \
        `invalid_code_signature`.

        Fix: export the archive with the distribution certificate the profile lists, or \
        regenerate the profile to include the certificate you sign with (Xcode's automatic \
        signing does this).
        """,
        area: .entitlements, severity: .error, tags: ["signing", "app-review"],
        references: ["https://developer.apple.com/documentation/technotes/tn3125-inside-code-signing-provisioning-profiles"],
        itms: ["ITMS-90179"],
        triggering: [
            RuleExample(["Info.plist": EntitlementsNotInProfileRule.info],
                        binaryFixtures: ["Demo↓": "signing/DevCertRelease", "embedded.mobileprovision": "signing/appstore.mobileprovision"],
                        kind: .app, note: "Signed with a development certificate, with an App Store profile that lists the distribution certificate."),
            RuleExample(["Info.plist": EntitlementsNotInProfileRule.info],
                        binaryFixtures: ["Demo↓": "signing/Release", "embedded.mobileprovision": "signing/development.mobileprovision"],
                        kind: .app, note: "Signed with the distribution certificate, with a development profile."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": EntitlementsNotInProfileRule.info],
                        binaryFixtures: ["Demo": "signing/Release", "embedded.mobileprovision": "signing/appstore.mobileprovision"], kind: .app),
            RuleExample(["Info.plist": EntitlementsNotInProfileRule.info],
                        binaryFixtures: ["Demo": "signing/Debug", "embedded.mobileprovision": "signing/development.mobileprovision"], kind: .app),
        ])

    static func named(_ certificate: Data) -> String {
        CMSSignedData.subjectCommonName(certificate).map { "'\($0)'" } ?? "a certificate without a common name"
    }

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        for b in context.product.bundles where b.kind.ships {
            guard let profile = b.provisioningProfile, !profile.developerCertificates.isEmpty,
                  let binary = Signing.executable(of: b), let sig = Signing.signature(of: b),
                  let signer = CMSSignedData.leaf(sig.cmsCertificates) else { continue }
            let allowed = Set(profile.developerCertificates)
            guard !sig.cmsCertificates.contains(where: allowed.contains) else { continue }
            let listed = profile.developerCertificates.prefix(3).map(Self.named).joined(separator: ", ")
                + (profile.developerCertificates.count > 3 ? ", …" : "")
            var message = "\(b.name): \(binary.path) is signed by \(Self.named(signer)), which is not among the certificates of \(Signing.name(profile)) (\(listed))"
            let cn = CMSSignedData.subjectCommonName(signer) ?? ""
            if profile.kind != .development, cn.hasPrefix("Apple Development") || cn.hasPrefix("iPhone Developer") {
                message += "; a development certificate cannot sign for \(profile.kindName) distribution"
            }
            out.append(finding(message + ": iOS does not install it and App Store Connect rejects the upload (ITMS-90179)",
                               bundle: b.name, at: FileLocation(path: binary.path),
                               fix: "Export with the certificate the profile lists, or regenerate the profile with the certificate you sign with.",
                               fingerprint: [binary.path]))
        }
        return out
    }
}
