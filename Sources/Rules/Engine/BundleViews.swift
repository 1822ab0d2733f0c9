import Foundation
import Artifacts
import Formats

/// What several rules read of one bundle, computed once per scan so that every rule sees the
/// same thing (the purpose strings it declares and their translations, from `.strings` tables
/// and `InfoPlist.xcstrings` catalogs alike).
public struct BundleViews: Sendable {
    /// Every purpose string the bundle declares, as the built Info.plist will have it.
    public let declaredPurposeStrings: [DeclaredPurposeString]
    /// Every translation of a purpose string: `xx.lproj/InfoPlist.strings` tables and
    /// `InfoPlist.xcstrings` catalogs.
    public let localizedPurposeStrings: [LocalizedPurposeString]
    /// Every localized table by name and language (the localization completeness rules).
    let localizedTables: LocalizedTables

    public init(_ bundle: AppBundle) {
        declaredPurposeStrings = PurposeStrings.declared(in: bundle).map {
            DeclaredPurposeString(key: $0.key, value: $0.value, location: $0.location)
        }
        localizedPurposeStrings = PurposeStrings.localized(in: bundle).map {
            LocalizedPurposeString(language: $0.language, key: $0.key, value: $0.value, location: $0.location)
        }
        localizedTables = LocalizedTables(bundle)
    }
}

public struct DeclaredPurposeString: Sendable, Equatable {
    public var key: String
    /// Nil when the value is not a string (a dictionary, a number).
    public var value: String?
    /// The value (what is wrong), else the key or the generating build setting.
    public var location: FileLocation
}

public struct LocalizedPurposeString: Sendable, Equatable {
    public var language: String
    public var key: String
    public var value: String
    public var location: FileLocation
}
