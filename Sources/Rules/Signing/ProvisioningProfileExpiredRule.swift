import Foundation
import Artifacts
import Formats

public struct ProvisioningProfileExpiredRule: Rule {
    public init() {}

    /// A profile that expires within this many days is noted.
    static let soonDays = 30

    public static let description = RuleDescription(
        identifier: "provisioning_profile_expired",
        name: "Expired provisioning profile",
        summary: "A bundle's embedded provisioning profile has expired, or expires within 30 days.",
        rationale: """
        Every provisioning profile has an `ExpirationDate` (a year for distribution profiles, \
        less for development ones). Once it passes, iOS no longer launches a development, ad \
        hoc or enterprise build on devices, and the build can no longer be exported or \
        uploaded with it. An App Store build is re-signed by Apple, so users are not affected \
        by its profile's expiry once it is on the store, but the upload needs a valid profile.

        - **warning**: the profile expired (the finding says when, and which kind it is: \
        development, ad hoc, App Store or enterprise);
        - **note**: it expires within 30 days of the scan.

        Fix: renew or regenerate the profile in the developer portal (Xcode's automatic signing \
        does it), then archive and export again.
        """,
        area: .entitlements, severity: .warning, tags: ["signing"],
        references: ["https://developer.apple.com/help/account/manage-profiles/edit-download-or-delete-profiles"],
        triggering: [
            RuleExample(["Info.plist": EntitlementsNotInProfileRule.info],
                        binaryFixtures: ["Demo": "signing/Release", "embedded.mobileprovision↓": "signing/adhoc-expired.mobileprovision"],
                        kind: .app, note: "An ad hoc profile that expired on 2025-01-14."),
            RuleExample(["Info.plist": EntitlementsNotInProfileRule.info,
                         "PlugIns/Share.appex/Info.plist": InvalidCodeSignatureRule.info("Share", "com.example.demo.share")],
                        binaryFixtures: ["Demo": "signing/Release", "embedded.mobileprovision": "signing/appstore.mobileprovision",
                                         "PlugIns/Share.appex/Share": "signing/Release",
                                         "PlugIns/Share.appex/embedded.mobileprovision↓": "signing/adhoc-expired.mobileprovision"],
                        kind: .app, note: "The app's profile is current, its extension's expired."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": EntitlementsNotInProfileRule.info],
                        binaryFixtures: ["Demo": "signing/Release", "embedded.mobileprovision": "signing/appstore.mobileprovision"], kind: .app),
            RuleExample(["Info.plist": EntitlementsNotInProfileRule.info],
                        binaryFixtures: ["Demo": "signing/Debug", "embedded.mobileprovision": "signing/development.mobileprovision"], kind: .app),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        check(context, now: Date())
    }

    func check(_ context: RuleContext, now: Date) -> [Finding] {
        var out: [Finding] = []
        for b in context.product.bundles where b.kind.ships {
            guard let profile = b.provisioningProfile, let path = b.provisioningProfilePath, let expiry = profile.expirationDate else { continue }
            let team = profile.teamIdentifiers.first.map { ", team \($0)" } ?? ""
            let fix = "Renew or regenerate the profile in the developer portal, then archive and export again."
            if expiry <= now {
                out.append(finding("\(b.name): \(Signing.name(profile))\(team) expired on \(Signing.day(expiry)): iOS no longer launches a build signed with it, and it cannot be exported or uploaded",
                                   bundle: b.name, at: FileLocation(path: path), fix: fix, fingerprint: ["expired"]))
            } else if expiry.timeIntervalSince(now) < Double(Self.soonDays) * 86_400 {
                let days = Int(expiry.timeIntervalSince(now) / 86_400)
                var f = finding("\(b.name): \(Signing.name(profile))\(team) expires on \(Signing.day(expiry)), in \(days) day\(days == 1 ? "" : "s")",
                                bundle: b.name, at: FileLocation(path: path), fix: fix, fingerprint: ["expires-soon"])
                f.severity = .note
                out.append(f)
            }
        }
        return out
    }
}
