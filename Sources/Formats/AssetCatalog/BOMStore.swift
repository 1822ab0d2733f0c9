import Foundation

/// A BOM ("bill of materials") store, the container of compiled asset catalogs (`Assets.car`)
/// and installer receipts: numbered blocks, named variables that point at blocks, and B-trees
/// of key/value blocks. Integers of the container are big-endian.
///
/// Layout as documented by public readers of the format: Alex Zielenski's and Facebook's
/// `bom.h` (xcbuild's libbom), Timac's CARParser (`Car.h`), and checked here against two
/// `Assets.car` files that Xcode built (see Tests/Fixtures/AssetCatalog/README.md):
/// - header (32 bytes): `BOMStore`, version, block count, index offset and length, variables
///   offset and length;
/// - index: a count, then (offset, length) per block id, block 0 being null;
/// - variables: a count, then (block id, name length, name) per variable;
/// - a tree block: `tree`, version, root block id, node size, path count, one byte;
/// - a node block: is-leaf (u16), count (u16), forward and backward node ids, then
///   (value block id, key block id) per entry; a branch's values are child nodes.
public struct BOMStore: Sendable {
    public static let format = "BOM store"
    public let bytes: [UInt8]
    /// (offset, length) of each block, by id.
    let blocks: [(offset: Int, length: Int)]
    /// Block id of each named variable.
    public let variables: [String: UInt32]
    /// Where each variable is declared, for errors.
    let variableOffsets: [String: Int]
    let limits: ReaderLimits

    public init(_ bytes: [UInt8], limits: ReaderLimits = .default) throws {
        self.bytes = bytes
        self.limits = limits
        let r = ByteReader(bytes, format: Self.format)
        try r.check(0, 32, "header")
        guard bytes.starts(with: Array("BOMStore".utf8)) else {
            throw FormatError.malformed(Self.format, "no BOMStore signature", offset: 0)
        }
        let indexOffset = Int(try r.u32(16, bigEndian: true))
        let indexLength = Int(try r.u32(20, bigEndian: true))
        let varsOffset = Int(try r.u32(24, bigEndian: true))
        let varsLength = Int(try r.u32(28, bigEndian: true))
        try r.check(indexOffset, indexLength, "block index")
        try r.check(varsOffset, varsLength, "variables")

        let count = Int(try r.u32(indexOffset, bigEndian: true, "block count"))
        // Each entry takes 8 bytes of the index: the index's length bounds the count.
        guard indexLength >= 4, count <= (indexLength - 4) / 8 else {
            throw FormatError.malformed(Self.format, "block index declares \(count) blocks but holds \(max(indexLength - 4, 0) / 8)", offset: indexOffset)
        }
        var blocks: [(Int, Int)] = []
        blocks.reserveCapacity(count)
        for i in 0..<count {
            let at = indexOffset + 4 + i * 8
            blocks.append((Int(try r.u32(at, bigEndian: true)), Int(try r.u32(at + 4, bigEndian: true))))
        }
        self.blocks = blocks

        let varCount = Int(try r.u32(varsOffset, bigEndian: true, "variable count"))
        var variables: [String: UInt32] = [:], offsets: [String: Int] = [:]
        var at = varsOffset + 4
        let varsEnd = varsOffset + varsLength
        for i in 0..<varCount {
            guard at + 5 <= varsEnd else {
                throw FormatError.truncated(Self.format, "variable \(i) of \(varCount) lies past the end of the variables (\(varsLength) bytes)", offset: at)
            }
            let id = try r.u32(at, bigEndian: true)
            let length = Int(try r.u8(at + 4))
            guard at + 5 + length <= varsEnd else {
                throw FormatError.truncated(Self.format, "name of variable \(i) lies past the end of the variables", offset: at)
            }
            let name = String(decoding: try r.slice(at + 5, length), as: UTF8.self)
            if variables[name] == nil {
                variables[name] = id
                offsets[name] = at
            }
            at += 5 + length
        }
        self.variables = variables
        variableOffsets = offsets
    }

    /// The bytes of a block, checked against the file.
    /// `at`: where the block id was read, for the error.
    public func block(_ id: UInt32, _ what: @autoclosure () -> String, at: Int? = nil) throws -> ArraySlice<UInt8> {
        guard id != 0, Int(id) < blocks.count else {
            throw FormatError.malformed(Self.format, "\(what()) names block \(id), not one of the \(blocks.count) blocks", offset: at)
        }
        let (offset, length) = blocks[Int(id)]
        return try ByteReader(bytes, format: Self.format).slice(offset, length, "\(what()) (block \(id))")
    }

    /// The block a variable points at; nil when the store has no such variable.
    public func variable(_ name: String) throws -> ArraySlice<UInt8>? {
        guard let id = variables[name] else { return nil }
        return try block(id, "variable \(name)", at: variableOffsets[name])
    }

    /// Every (key, value) of the tree a variable points at, in leaf order. Follows the leftmost
    /// branch down, then the leaves' forward links; a node seen twice (a cycle), a branch deeper
    /// than `maxNestingDepth` or more than `maxPlistObjects` entries is an error.
    public func treeEntries(_ name: String) throws -> [(key: ArraySlice<UInt8>, value: ArraySlice<UInt8>)]? {
        guard let tree = try variable(name) else { return nil }
        let base = tree.startIndex
        guard tree.count >= 21 else {
            throw FormatError.truncated(Self.format, "tree \(name) has \(tree.count) bytes, fewer than a tree header (21)", offset: base)
        }
        guard tree.starts(with: Array("tree".utf8)) else {
            throw FormatError.malformed(Self.format, "variable \(name) is not a tree", offset: base)
        }
        var nodeID = try ByteReader(bytes, format: Self.format).u32(base + 8, bigEndian: true)
        var nodeAt = base + 8
        var seen = Set<UInt32>()
        var depth = 0
        var node = try self.node(nodeID, of: name, at: nodeAt)
        while !node.isLeaf {
            guard seen.insert(nodeID).inserted else { throw cycle(name, nodeID, at: nodeAt) }
            depth += 1
            guard depth <= limits.maxNestingDepth else {
                throw FormatError.limit(Self.format, "max-nesting-depth", "tree \(name) is deeper than \(limits.maxNestingDepth) levels")
            }
            guard let first = node.entries.first else {
                throw FormatError.malformed(Self.format, "branch node \(nodeID) of tree \(name) has no entries", offset: nodeAt)
            }
            nodeID = first.value
            nodeAt = first.offset
            node = try self.node(nodeID, of: name, at: nodeAt)
        }
        var out: [(ArraySlice<UInt8>, ArraySlice<UInt8>)] = []
        while true {
            guard seen.insert(nodeID).inserted else { throw cycle(name, nodeID, at: nodeAt) }
            for e in node.entries {
                guard out.count < limits.maxPlistObjects else {
                    throw FormatError.limit(Self.format, "max-plist-objects", "tree \(name) has more than \(limits.maxPlistObjects) entries")
                }
                out.append((try block(e.key, "key of an entry of tree \(name)", at: e.offset + 4),
                            try block(e.value, "value of an entry of tree \(name)", at: e.offset)))
            }
            guard node.forward != 0 else { break }
            nodeID = node.forward
            nodeAt = node.forwardOffset
            node = try self.node(nodeID, of: name, at: nodeAt)
            guard node.isLeaf else {
                throw FormatError.malformed(Self.format, "leaf of tree \(name) links to branch node \(nodeID)", offset: nodeAt)
            }
        }
        return out
    }

    struct Node {
        var isLeaf: Bool
        var forward: UInt32
        var forwardOffset: Int
        /// Value and key block ids, and where the entry is.
        var entries: [(value: UInt32, key: UInt32, offset: Int)]
    }

    /// Reads a node in place (a node block may be as large as the file: nothing is copied).
    func node(_ id: UInt32, of tree: String, at: Int) throws -> Node {
        let bytes = try block(id, "node of tree \(tree)", at: at)
        let r = ByteReader(self.bytes, format: Self.format)
        let base = bytes.startIndex
        guard bytes.count >= 12 else {
            throw FormatError.truncated(Self.format, "node \(id) of tree \(tree) has \(bytes.count) bytes, fewer than a node header (12)", offset: base)
        }
        let isLeaf = try r.u16(base, bigEndian: true) != 0
        let count = Int(try r.u16(base + 2, bigEndian: true))
        guard 12 + count * 8 <= bytes.count else {
            throw FormatError.truncated(Self.format, "node \(id) of tree \(tree) declares \(count) entries but has room for \((bytes.count - 12) / 8)", offset: base)
        }
        var entries: [(UInt32, UInt32, Int)] = []
        entries.reserveCapacity(count)
        for i in 0..<count {
            let at = base + 12 + i * 8
            entries.append((try r.u32(at, bigEndian: true), try r.u32(at + 4, bigEndian: true), at))
        }
        return Node(isLeaf: isLeaf, forward: try r.u32(base + 4, bigEndian: true), forwardOffset: base + 4, entries: entries)
    }

    func cycle(_ tree: String, _ id: UInt32, at: Int) -> FormatError {
        FormatError.malformed(Self.format, "tree \(tree) reaches node \(id) twice (a cycle)", offset: at)
    }
}
