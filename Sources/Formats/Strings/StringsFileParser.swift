import Foundation

/// One `key = value;` pair of a `.strings` file.
public struct StringsEntry: Sendable, Equatable {
    public var key: String
    public var value: String
    /// Where the key and the value were written (text formats only).
    public var keyPosition: SourcePosition?
    public var valuePosition: SourcePosition?

    public init(key: String, value: String, keyPosition: SourcePosition? = nil, valuePosition: SourcePosition? = nil) {
        self.key = key
        self.value = value
        self.keyPosition = keyPosition
        self.valuePosition = valuePosition
    }
}

/// A `.strings` file: entries in file order, duplicates kept.
public struct StringsTable: Sendable, Equatable {
    public var entries: [StringsEntry]
    /// `.openStep` for old-style text, `.xml` or `.binary` when the file is a property list.
    public var format: PlistFormat

    public init(entries: [StringsEntry], format: PlistFormat) {
        self.entries = entries
        self.format = format
    }

    /// The value of the last entry for `key` (what iOS uses).
    public subscript(key: String) -> String? {
        entries.last(where: { $0.key == key })?.value
    }

    public var keys: [String] { entries.map(\.key) }

    /// Keys written more than once, in first-seen order.
    public var duplicateKeys: [String] {
        var seen = Set<String>(), dup: [String] = []
        for e in entries where !seen.insert(e.key).inserted && !dup.contains(e.key) { dup.append(e.key) }
        return dup
    }
}

/// Reads `.strings` files: old-style text (`"key" = "value";`, UTF-8 or UTF-16 with or
/// without BOM, comments, `"key";` shorthand) or a property list (XML or binary) whose root
/// is a dictionary of strings, as some projects ship `InfoPlist.strings`.
public enum StringsFileParser {
    public static let formatName = "strings file"

    public static func parse(_ data: Data, limits: ReaderLimits = .default) throws -> StringsTable {
        try limits.checkInputSize(data.count, format: formatName)
        let root: PlistNode
        let format = PropertyListReader.detect(data)
        switch format {
        case .binary: root = try BinaryPropertyListParser.parse(data, limits: limits)
        case .xml: root = try XMLPropertyListParser.parse(data, limits: limits)
        default: root = try OpenStepParser.parse(data, limits: limits, bracelessDictionary: true, format: formatName)
        }
        guard let dict = root.dictionary else {
            throw error("the top level is a \(root.value.typeName), expected a dictionary of strings", root.position)
        }
        var entries: [StringsEntry] = []
        entries.reserveCapacity(dict.entries.count)
        for e in dict.entries {
            guard let v = e.value.string else {
                throw error("value of key \"\(e.key)\" is a \(e.value.value.typeName), expected a string", e.value.position ?? e.keyPosition)
            }
            entries.append(StringsEntry(key: e.key, value: v, keyPosition: e.keyPosition, valuePosition: e.value.position))
        }
        return StringsTable(entries: entries, format: format)
    }

    private static func error(_ reason: String, _ pos: SourcePosition?) -> FormatError {
        FormatError(.malformed, format: formatName, reason: reason, line: pos?.line, column: pos?.column)
    }
}
