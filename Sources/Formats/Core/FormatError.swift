import Foundation

/// A typed error from a reader: which format, what went wrong, and where.
///
/// Messages follow LLVM's object readers: precise, with the offset (binary formats) or the
/// line and column (text formats) of the first byte that could not be accepted.
public struct FormatError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// The bytes do not follow the format.
        case malformed
        /// The data ends before a structure it declares.
        case truncated
        /// The input asks for more than a configured limit allows; the associated value names the limit.
        case limitExceeded(String)
        /// A valid construct that this reader does not support.
        case unsupported
    }

    public var format: String
    public var kind: Kind
    public var reason: String
    public var offset: Int?
    public var line: Int?
    public var column: Int?

    public init(_ kind: Kind, format: String, reason: String,
                offset: Int? = nil, line: Int? = nil, column: Int? = nil) {
        self.kind = kind
        self.format = format
        self.reason = reason
        self.offset = offset
        self.line = line
        self.column = column
    }

    public static func malformed(_ format: String, _ reason: String, offset: Int? = nil) -> FormatError {
        FormatError(.malformed, format: format, reason: reason, offset: offset)
    }

    public static func truncated(_ format: String, _ reason: String, offset: Int? = nil) -> FormatError {
        FormatError(.truncated, format: format, reason: reason, offset: offset)
    }

    public static func limit(_ format: String, _ limitName: String, _ reason: String, offset: Int? = nil) -> FormatError {
        FormatError(.limitExceeded(limitName), format: format, reason: reason, offset: offset)
    }

    public var description: String {
        var place = ""
        if let line {
            place = " at line \(line)" + (column.map { ", column \($0)" } ?? "")
        } else if let offset {
            place = " at offset 0x" + String(offset, radix: 16)
        }
        switch kind {
        case .malformed: return "malformed \(format)\(place): \(reason)"
        case .truncated: return "truncated \(format)\(place): \(reason)"
        case .unsupported: return "unsupported \(format)\(place): \(reason)"
        case .limitExceeded(let name): return "\(format)\(place) exceeds limit \(name): \(reason)"
        }
    }
}
