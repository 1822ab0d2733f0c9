import Foundation

/// The tables of an SQLite database file, read from the schema on page 1 and the first page
/// of each table; nothing more. Every offset is checked: a damaged or unusual file gives nil
/// (or tables with unknown row counts), never a crash.
public struct SQLiteSchema: Sendable, Equatable {
    public struct Table: Sendable, Equatable {
        public var name: String
        /// Rows on the table's root page, or nil when the table spans several pages (then it
        /// has rows) or its page is not in the file.
        public var rowsOnRootPage: Int?
        /// True when the table certainly holds at least one row.
        public var populated: Bool
    }

    public var tables: [Table]
    /// The schema did not fit on page 1, so only part of it (or none) was read.
    public var partial: Bool

    static let magic = Array("SQLite format 3\u{0}".utf8)

    public static func isSQLite(_ b: [UInt8]) -> Bool { b.count >= 16 && Array(b[0..<16]) == magic }

    public static func read(_ b: [UInt8]) -> SQLiteSchema? {
        guard isSQLite(b), b.count >= 112 else { return nil }
        let raw = Int(b[16]) << 8 | Int(b[17])
        let pageSize = raw == 1 ? 65536 : raw
        guard pageSize >= 512, pageSize & (pageSize - 1) == 0 else { return nil }
        let usable = pageSize - Int(b[20])
        guard usable >= 480 else { return nil }
        let pageEnd = min(b.count, pageSize)
        let type = b[100]
        guard type == 0x0d else { return SQLiteSchema(tables: [], partial: true) }
        let cells = Int(b[103]) << 8 | Int(b[104])
        var tables: [Table] = []
        var partial = false
        for k in 0..<min(cells, 4096) {
            let p = 108 + 2 * k
            guard p + 2 <= pageEnd else { partial = true; break }
            let cell = Int(b[p]) << 8 | Int(b[p + 1])
            guard let entry = schemaEntry(b, cell: cell, pageEnd: pageEnd, usable: usable) else { partial = true; continue }
            guard entry.type == "table", !entry.name.hasPrefix("sqlite_") else { continue }
            tables.append(table(b, name: entry.name, rootPage: entry.rootPage, pageSize: pageSize))
        }
        return SQLiteSchema(tables: tables, partial: partial)
    }

    static func table(_ b: [UInt8], name: String, rootPage: Int64, pageSize: Int) -> Table {
        guard rootPage >= 1, rootPage <= Int64(b.count / pageSize) else { return Table(name: name, rowsOnRootPage: nil, populated: false) }
        let start = Int(rootPage - 1) * pageSize + (rootPage == 1 ? 100 : 0)
        guard start + 5 <= b.count else { return Table(name: name, rowsOnRootPage: nil, populated: false) }
        switch b[start] {
        case 0x0d:
            let rows = Int(b[start + 3]) << 8 | Int(b[start + 4])
            return Table(name: name, rowsOnRootPage: rows, populated: rows > 0)
        case 0x05: return Table(name: name, rowsOnRootPage: nil, populated: true)
        default: return Table(name: name, rowsOnRootPage: nil, populated: false)
        }
    }

    /// A big-endian SQLite varint at `o` and the offset after it.
    static func varint(_ b: [UInt8], _ o: Int, end: Int) -> (Int64, Int)? {
        var v: Int64 = 0
        var i = o
        while i < end, i - o < 9 {
            let c = b[i]
            if i - o == 8 { return (v << 8 | Int64(c), i + 1) }
            v = v << 7 | Int64(c & 0x7f)
            i += 1
            if c & 0x80 == 0 { return (v, i) }
        }
        return nil
    }

    /// `type`, `name` and `rootpage` of one sqlite_master row whose record is on page 1.
    static func schemaEntry(_ b: [UInt8], cell: Int, pageEnd: Int, usable: Int) -> (type: String, name: String, rootPage: Int64)? {
        guard cell >= 108, cell < pageEnd, let (payload, afterSize) = varint(b, cell, end: pageEnd),
              let (_, afterRowID) = varint(b, afterSize, end: pageEnd), payload >= 0 else { return nil }
        // Only the part of the record stored on this page is read.
        let local = payload <= Int64(usable - 35) ? Int(payload) : (usable - 12) * 32 / 255 - 23
        let recordEnd = min(pageEnd, afterRowID + max(local, 0))
        guard let (headerSize, afterHeaderSize) = varint(b, afterRowID, end: recordEnd), headerSize > 0,
              Int64(afterRowID) + headerSize <= Int64(recordEnd) else { return nil }
        let headerEnd = afterRowID + Int(headerSize)
        var types: [Int64] = []
        var o = afterHeaderSize
        while o < headerEnd, types.count < 5 {
            guard let (t, next) = varint(b, o, end: headerEnd) else { return nil }
            types.append(t)
            o = next
        }
        guard types.count == 5 else { return nil }
        var values: [Any?] = []
        var v = headerEnd
        for t in types.prefix(4) {
            let size = serialSize(t)
            guard size >= 0, v + size <= recordEnd else { return nil }
            if t >= 13, t % 2 == 1 {
                values.append(String(decoding: b[v..<(v + size)], as: UTF8.self))
            } else if (1...6).contains(t) {
                var n: Int64 = b[v] & 0x80 != 0 ? -1 : 0
                for k in 0..<size { n = n << 8 | Int64(b[v + k]) }
                values.append(n)
            } else if t == 8 || t == 9 {
                values.append(Int64(t - 8))
            } else {
                values.append(nil)
            }
            v += size
        }
        guard let type = values[0] as? String, let name = values[1] as? String, let root = values[3] as? Int64 else { return nil }
        return (type, name, root)
    }

    static func serialSize(_ t: Int64) -> Int {
        switch t {
        case 0, 8, 9: return 0
        case 1, 2, 3, 4: return Int(t)
        case 5: return 6
        case 6, 7: return 8
        case 10, 11: return -1
        default: return t > (1 << 40) ? -1 : Int((t - (t % 2 == 0 ? 12 : 13)) / 2)
        }
    }
}
