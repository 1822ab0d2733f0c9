import Foundation

/// A position in a text file, 1-based.
public struct SourcePosition: Hashable, Sendable, Codable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
    public var description: String { "\(line):\(column)" }
}

public enum PlistFormat: String, Sendable, Equatable {
    case xml, binary, openStep
}

/// A property-list value with the position it was read from (text formats only).
public struct PlistNode: Sendable, Equatable {
    public var value: PlistValue
    public var position: SourcePosition?

    public init(_ value: PlistValue, position: SourcePosition? = nil) {
        self.value = value
        self.position = position
    }
}

public indirect enum PlistValue: Sendable, Equatable {
    case string(String)
    case integer(Int64)
    case real(Double)
    case bool(Bool)
    case date(Date)
    case data(Data)
    case array([PlistNode])
    case dictionary(PlistDictionary)

    public var typeName: String {
        switch self {
        case .string: return "string"
        case .integer: return "integer"
        case .real: return "real"
        case .bool: return "boolean"
        case .date: return "date"
        case .data: return "data"
        case .array: return "array"
        case .dictionary: return "dictionary"
        }
    }
}

/// One key of a dictionary, with where the key itself was written.
public struct PlistEntry: Sendable, Equatable {
    public var key: String
    public var keyPosition: SourcePosition?
    public var value: PlistNode

    public init(key: String, keyPosition: SourcePosition? = nil, value: PlistNode) {
        self.key = key
        self.keyPosition = keyPosition
        self.value = value
    }
}

/// An ordered dictionary that keeps duplicate keys (a finding, not something to hide).
public struct PlistDictionary: Sendable, Equatable {
    public var entries: [PlistEntry]

    public init(_ entries: [PlistEntry] = []) {
        self.entries = entries
    }

    /// The last value written for `key`, which is what CoreFoundation keeps.
    public subscript(key: String) -> PlistNode? {
        entries.last(where: { $0.key == key })?.value
    }

    public func entry(_ key: String) -> PlistEntry? {
        entries.last(where: { $0.key == key })
    }

    public var keys: [String] { entries.map(\.key) }

    /// Keys written more than once, in first-seen order.
    public var duplicateKeys: [String] {
        var seen = Set<String>(), dup: [String] = []
        for e in entries where !seen.insert(e.key).inserted && !dup.contains(e.key) {
            dup.append(e.key)
        }
        return dup
    }
}

extension PlistNode {
    public var string: String? { if case .string(let s) = value { return s } else { return nil } }
    public var bool: Bool? { if case .bool(let b) = value { return b } else { return nil } }
    public var integer: Int64? { if case .integer(let i) = value { return i } else { return nil } }
    public var array: [PlistNode]? { if case .array(let a) = value { return a } else { return nil } }
    public var dictionary: PlistDictionary? { if case .dictionary(let d) = value { return d } else { return nil } }

    /// Dictionary lookup; nil when this node is not a dictionary or lacks the key.
    public subscript(key: String) -> PlistNode? { dictionary?[key] }

    /// Strings of an array of strings (other elements are skipped).
    public var strings: [String] { array?.compactMap(\.string) ?? [] }

    /// Follows a dotted key path such as `NSAppTransportSecurity.NSAllowsArbitraryLoads`.
    public func node(at keyPath: [String]) -> PlistNode? {
        var node: PlistNode? = self
        for k in keyPath { node = node?[k] }
        return node
    }

    /// Converts to Foundation types (for JSON output and Yams); dates as ISO 8601 strings.
    public var foundationValue: Any {
        switch value {
        case .string(let s): return s
        case .integer(let i): return i
        case .real(let d): return d
        case .bool(let b): return b
        case .date(let d): return ISO8601DateFormatter().string(from: d)
        case .data(let d): return d.base64EncodedString()
        case .array(let a): return a.map(\.foundationValue)
        case .dictionary(let d):
            var out: [String: Any] = [:]
            for e in d.entries { out[e.key] = e.value.foundationValue }
            return out
        }
    }
}
