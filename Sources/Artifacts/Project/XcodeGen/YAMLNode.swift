import Foundation
import Formats

/// A YAML value as the XcodeGen reader sees it: scalars keep their text and whether they were
/// quoted, collections keep their order, every node keeps the file and position it came from.
struct YAMLNode: Sendable {
    indirect enum Value: Sendable {
        case scalar(String, quoted: Bool)
        case sequence([YAMLNode])
        case mapping([(key: String, keyPosition: SourcePosition, value: YAMLNode)])
    }
    var value: Value
    var file: String
    /// The folder relative paths in this node start from (the spec file's folder, or the
    /// including spec's for an `include` with `relativePaths: false`).
    var baseDir: String
    var position: SourcePosition

    var string: String? {
        if case .scalar(let s, _) = value { return s }
        return nil
    }
    var sequence: [YAMLNode]? {
        if case .sequence(let s) = value { return s }
        return nil
    }
    var mapping: [(key: String, keyPosition: SourcePosition, value: YAMLNode)]? {
        if case .mapping(let m) = value { return m }
        return nil
    }
    subscript(key: String) -> YAMLNode? { mapping?.last { $0.key == key }?.value }
    func entry(_ key: String) -> (key: String, keyPosition: SourcePosition, value: YAMLNode)? {
        mapping?.last { $0.key == key }
    }
    var location: FileLocation { FileLocation(path: file, position: position) }

    /// A plain scalar YAML 1.1 reads as a boolean (`true`, `yes`, `on`…), as XcodeGen's Yams does.
    var bool: Bool? {
        guard case .scalar(let s, let quoted) = value, !quoted else { return nil }
        switch s {
        case "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON": return true
        case "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF": return false
        default: return nil
        }
    }

    /// A list of strings: a sequence of scalars, or one scalar.
    var strings: [String] {
        if let s = string { return [s] }
        return sequence?.compactMap(\.string) ?? []
    }

    /// Nodes in this tree (one per scalar, collection and mapping key).
    var nodeCount: Int {
        switch value {
        case .scalar: return 1
        case .sequence(let items): return items.reduce(1) { $0 + $1.nodeCount }
        case .mapping(let pairs): return pairs.reduce(1) { $0 + 1 + $1.value.nodeCount }
        }
    }

    /// The same node with `transform` applied to every scalar (keys included).
    func mapScalars(_ transform: (String) -> String) -> YAMLNode {
        var copy = self
        switch value {
        case .scalar(let s, let q): copy.value = .scalar(transform(s), quoted: q)
        case .sequence(let items): copy.value = .sequence(items.map { $0.mapScalars(transform) })
        case .mapping(let pairs):
            copy.value = .mapping(pairs.map { (transform($0.key), $0.keyPosition, $0.value.mapScalars(transform)) })
        }
        return copy
    }
}
