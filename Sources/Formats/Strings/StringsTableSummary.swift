import Foundation

/// What the localization checks read of a `.strings` table: its keys, and the values that are
/// format strings (they contain `%`) with where each was written. Plain values are not kept.
public struct StringsTableSummary: Sendable, Equatable {
    /// Keys in file order, each once.
    public var keys: [String]
    /// Values that contain a `%`, by key: the last entry for a key, as iOS reads it.
    public var formats: [String: FormatValue]

    /// Keys whose value needs no translation (`TranslationNeed.needsNone`).
    public var untranslatable: Set<String> = []
    /// A digest of each key's value (`TranslationNeed.digest`), to tell which translations
    /// repeat the development language's text (brand names) without keeping every value.
    public var digests: [String: UInt64] = [:]

    public struct FormatValue: Sendable, Equatable {
        public var value: String
        public var position: SourcePosition?
    }

    public init(keys: [String], formats: [String: FormatValue], untranslatable: Set<String> = [], digests: [String: UInt64] = [:]) {
        self.keys = keys
        self.formats = formats
        self.untranslatable = untranslatable
        self.digests = digests
    }

    /// The summary of a fully parsed table.
    public init(_ table: StringsTable) {
        var seen = Set<String>()
        keys = table.entries.compactMap { seen.insert($0.key).inserted ? $0.key : nil }
        formats = [:]
        for e in table.entries {
            formats[e.key] = e.value.utf8.contains(UInt8(ascii: "%")) ? FormatValue(value: e.value, position: e.valuePosition ?? e.keyPosition) : nil
            noteValue(e.key, e.value)
        }
    }

    /// Records a key's value (the last entry of a key wins, as iOS reads it); true when the key is new.
    @discardableResult
    mutating func noteValue(_ key: String, _ value: String) -> Bool {
        let isNew = digests.updateValue(TranslationNeed.digest(value), forKey: key) == nil
        if TranslationNeed.needsNone(value) || TranslationNeed.isInterfacePlaceholder(key: key, value: value) {
            untranslatable.insert(key)
        } else if !isNew {
            untranslatable.remove(key)
        }
        return isNew
    }

    /// The summary of `data`: read at byte speed when the table is the common kind (see
    /// `StringsSummaryScanner`), otherwise through `StringsFileParser`, whose errors it throws.
    public static func read(_ data: Data, limits: ReaderLimits = .default) throws -> StringsTableSummary {
        if let quick = StringsSummaryScanner.summary(data, limits: limits) { return quick }
        return StringsTableSummary(try StringsFileParser.parse(data, limits: limits))
    }
}
