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
    /// `.stringsdict` plural variables with no `other` form: `key.variable`, with the position.
    public var pluralsWithoutOther: [LocalizedFormat]

    public init(keys: [String] = [], formats: [String: LocalizedFormat] = [:], pluralsWithoutOther: [LocalizedFormat] = []) {
        self.keys = keys
        self.formats = formats
        self.pluralsWithoutOther = pluralsWithoutOther
    }

    /// The summary of a parsed `.strings` table.
    public init(_ table: StringsTable) {
        var seen = Set<String>()
        keys = table.entries.compactMap { seen.insert($0.key).inserted ? $0.key : nil }
        formats = [:]
        pluralsWithoutOther = []
        for e in table.entries {
            if e.value.utf8.contains(UInt8(ascii: "%")) {
                formats[e.key] = LocalizedFormat(e.value, position: e.valuePosition ?? e.keyPosition)
            } else {
                formats[e.key] = nil
            }
        }
    }

    /// The summary of a parsed `.stringsdict` file: its keys and the plurals lacking `other`.
    public init(_ dict: StringsDict) {
        var seen = Set<String>()
        keys = dict.entries.compactMap { seen.insert($0.key).inserted ? $0.key : nil }
        formats = [:]
        pluralsWithoutOther = []
        for e in dict.entries {
            for name in e.variables.keys.sorted() where e.variables[name]?["other"] == nil {
                pluralsWithoutOther.append(LocalizedFormat("\(e.key).\(name)", position: e.position))
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
