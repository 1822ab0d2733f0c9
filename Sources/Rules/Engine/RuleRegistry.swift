import Foundation

/// Every built-in rule. Add a rule here when you add its file (RuleRegistryTests fails for a
/// `Rule` type under Sources/Rules that is not listed).
public enum RuleRegistry {
    public static let all: [any Rule.Type] = [
        MalformedInfoPlistRule.self,
        MalformedEntitlementsRule.self,
        MalformedPrivacyManifestRule.self,
        UnreadableFileRule.self,
        MalformedStringsFileRule.self,
        MissingInfoPlistRule.self,
        MissingBundleExecutableRule.self,
        SymlinkOutsideBundleRule.self,
        MissingProjectReferenceRule.self,
        PathCaseMismatchRule.self,
        DuplicatePlistKeyRule.self,
        MissingPurposeStringRule.self,
        UnusedPurposeStringRule.self,
        AdvertisingIdentifierWithoutATTRule.self,
        RecordingAtLaunchRule.self,
        UDIDAccessRule.self,
        PlaceholderPurposeStringRule.self,
        GenericPurposeStringRule.self,
        LocationKeysRule.self,
        BackgroundLocationRule.self,
        PurposeStringStyleRule.self,
        DeploymentTargetPurposeKeysRule.self,
        LocalizedPurposeStringWithoutKeyRule.self,
        MissingPurposeStringTranslationRule.self,
        UnknownLocalizedInfoKeyRule.self,
        InfoPlistStringsCaseRule.self,
        PurposeStringsNotLocalizedRule.self,
        ATSMalformedKeyRule.self,
        ATSArbitraryLoadsRule.self,
        ATSExceptionDomainRule.self,
        ATSPinnedDomainsRule.self,
        PrivacyManifestSchemaRule.self,
        PrivacyManifestReasonRule.self,
        PrivacyManifestTrackingRule.self,
        PrivacyManifestDataTypesRule.self,
        RequiredReasonAPIUndeclaredRule.self,
        RequiredReasonUnfitRule.self,
        ATSCleartextURLRule.self,
        ATSStaleExceptionDomainRule.self,
        BonjourServicesRule.self,
        AssociatedDomainsRule.self,
        ListedSDKWithoutManifestRule.self,
        ListedSDKWithoutSignatureRule.self,
    ]

    public static func rule(_ identifier: String) -> (any Rule.Type)? {
        all.first { $0.description.identifier == identifier || $0.description.aliases.contains(identifier) }
    }
}
