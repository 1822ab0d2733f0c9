import Foundation
import Formats

/// What the localization rules need of one `.strings` or `.stringsdict` table: its keys, the
/// values that are format strings (they contain `%`), and plural rules without an `other`
/// form. Plain values are not kept: an app's tables in dozens of languages are megabytes.
public struct LocalizedTable: Sendable, Equatable {
    /// Keys in file order, each once.
    public var keys: [String]
    /// Values that contain a `%`, by key (the last entry for a key, as iOS reads it).
    public var formats: [String: LocalizedFormat]
    /// `.stringsdict` plural variables with no `other` form.
    public var pluralsWithoutOther: [PluralWithoutOther]
    /// Keys whose value needs no translation (numbers, URLs, format specifiers alone).
    public var untranslatable: Set<String> = []
    /// A digest of each `.strings` value, by key (equal texts, equal digests).
    public var digests: [String: UInt64] = [:]

    public init(keys: [String] = [], formats: [String: LocalizedFormat] = [:], pluralsWithoutOther: [PluralWithoutOther] = []) {
        self.keys = keys
        self.formats = formats
        self.pluralsWithoutOther = pluralsWithoutOther
    }

    /// The summary of a parsed `.strings` table.
    public init(_ table: StringsTable) {
        self.init(StringsTableSummary(table))
    }

    /// A `.strings` table's keys and format values.
    public init(_ summary: StringsTableSummary) {
        keys = summary.keys
        formats = summary.formats.mapValues { LocalizedFormat($0.value, position: $0.position) }
        pluralsWithoutOther = []
        untranslatable = summary.untranslatable
        digests = summary.digests
    }

    /// The summary of a parsed `.stringsdict` file: its keys and the plurals lacking `other`.
    public init(_ dict: StringsDict) {
        var seen = Set<String>()
        keys = dict.entries.compactMap { seen.insert($0.key).inserted ? $0.key : nil }
        formats = [:]
        pluralsWithoutOther = []
        for e in dict.entries {
            for name in e.variables.keys.sorted() {
                guard let forms = e.variables[name], forms["other"] == nil else { continue }
                pluralsWithoutOther.append(PluralWithoutOther(name: "\(e.key).\(name)", categories: forms.keys.sorted(),
                                                              valueType: e.valueTypes[name], position: e.position))
            }
        }
    }
}

/// A value (or name) and where it was written.
public struct LocalizedFormat: Sendable, Equatable {
    public var value: String
    public var position: SourcePosition?

    public init(_ value: String, position: SourcePosition? = nil) {
        self.value = value
        self.position = position
    }
}

/// A `.stringsdict` plural variable without an `other` form: which forms it has instead.
public struct PluralWithoutOther: Sendable, Equatable {
    /// `key.variable`.
    public var name: String
    /// The plural categories it defines (`one`, `few`, `many`…), sorted.
    public var categories: [String]
    /// `NSStringFormatValueTypeKey` (`d`, `ld`, `f`…), if given.
    public var valueType: String?
    public var position: SourcePosition?

    public init(name: String, categories: [String], valueType: String?, position: SourcePosition?) {
        self.name = name
        self.categories = categories
        self.valueType = valueType
        self.position = position
    }
}
