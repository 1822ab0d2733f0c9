import Foundation
import TestSupport

/// Writes ZIP archives byte by byte (stored entries), so tests can build both valid `.ipa`
/// files and every malformed variant a hostile archive could contain.
struct TestZip {
    struct Entry {
        var name: String
        var data: Data
        var flags: UInt16 = 0x0800
        var method: UInt16 = 0
        var externalAttributes: UInt32 = 0
        var madeBy: UInt16 = 0x0314 // Unix, version 2.0
        /// Overrides of what the central directory declares (for lying archives).
        var declaredCompressed: UInt32?
        var declaredUncompressed: UInt32?
        var localOffsetOverride: UInt32?
        var rawName: [UInt8]?
    }

    var entries: [Entry] = []

    mutating func add(_ name: String, _ text: String) { entries.append(Entry(name: name, data: Data(text.utf8))) }
    mutating func add(_ name: String, data: Data) { entries.append(Entry(name: name, data: data)) }
    mutating func addSymlink(_ name: String, target: String) {
        entries.append(Entry(name: name, data: Data(target.utf8), externalAttributes: UInt32(0o120777) << 16))
    }

    static func crc32(_ data: Data) -> UInt32 {
        var table = [UInt32](repeating: 0, count: 256)
        for i in 0..<256 {
            var c = UInt32(i)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB88320 ^ (c >> 1) : c >> 1 }
            table[i] = c
        }
        var crc: UInt32 = 0xFFFFFFFF
        for b in data { crc = table[Int((crc ^ UInt32(b)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFFFFFF
    }

    func build() -> Data {
        var out = Data(), central = Data()
        func u16(_ v: UInt16, _ d: inout Data) { d.append(UInt8(v & 0xff)); d.append(UInt8(v >> 8)) }
        func u32(_ v: UInt32, _ d: inout Data) { for i in 0..<4 { d.append(UInt8((v >> (8 * UInt32(i))) & 0xff)) } }
        for e in entries {
            let name = e.rawName ?? Array(e.name.utf8)
            let offset = UInt32(out.count)
            let crc = Self.crc32(e.data)
            u32(0x04034b50, &out); u16(20, &out); u16(e.flags, &out); u16(e.method, &out)
            u16(0, &out); u16(0, &out); u32(crc, &out)
            u32(UInt32(e.data.count), &out); u32(UInt32(e.data.count), &out)
            u16(UInt16(name.count), &out); u16(0, &out)
            out.append(contentsOf: name); out.append(e.data)

            u32(0x02014b50, &central); u16(e.madeBy, &central); u16(20, &central); u16(e.flags, &central); u16(e.method, &central)
            u16(0, &central); u16(0, &central); u32(crc, &central)
            u32(e.declaredCompressed ?? UInt32(e.data.count), &central)
            u32(e.declaredUncompressed ?? UInt32(e.data.count), &central)
            u16(UInt16(name.count), &central); u16(0, &central); u16(0, &central)
            u16(0, &central); u16(0, &central); u32(e.externalAttributes, &central)
            u32(e.localOffsetOverride ?? offset, &central)
            central.append(contentsOf: name)
        }
        let cdOffset = UInt32(out.count)
        out.append(central)
        u32(0x06054b50, &out); u16(0, &out); u16(0, &out)
        u16(UInt16(entries.count), &out); u16(UInt16(entries.count), &out)
        u32(UInt32(central.count), &out); u32(cdOffset, &out); u16(0, &out)
        return out
    }

    /// Writes the archive to a fresh temporary file.
    func write(name: String = "App.ipa") throws -> URL {
        let url = try Scratch.file(name)
        try build().write(to: url)
        return url
    }
}

let minimalInfoPlist = """
<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0">
<dict>
  <key>CFBundleIdentifier</key>
  <string>com.example.demo</string>
  <key>CFBundleExecutable</key>
  <string>Demo</string>
  <key>CFBundleShortVersionString</key>
  <string>1.2</string>
  <key>CFBundleVersion</key>
  <string>42</string>
  <key>MinimumOSVersion</key>
  <string>15.0</string>
</dict>
</plist>
"""
