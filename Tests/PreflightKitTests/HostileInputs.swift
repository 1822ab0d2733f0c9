import Foundation
import TestSupport

/// Builds hostile inputs at test time: ZIP archives written byte by byte (every field can lie),
/// malformed property lists, strings files, string catalogs, Mach-O files and project folders.
/// Nothing here is a committed binary; every case is a few lines of construction.
enum HostileInputs {
    // MARK: - Little- and big-endian writers

    static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xff), UInt8(v >> 8)] }
    static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * UInt32($0))) & 0xff) } }
    static func le64(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8((v >> (8 * UInt64($0))) & 0xff) } }
    static func be32(_ v: UInt32) -> [UInt8] { le32(v).reversed() }

    struct HostileError: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }

    // MARK: - ZIP writer (TestSupport)

    typealias Zip = ZipWriter
    static func crc32(_ data: Data) -> UInt32 { ZipWriter.crc32(data) }
    static func deflate(_ data: Data = Data(), zeros: Int = 0) throws -> (compressed: Data, crc: UInt32) {
        try ZipWriter.deflate(data, zeros: zeros)
    }

    /// Patches the (comment-less) end of central directory record of a built archive.
    static func patchEOCD(_ zip: Data, count: UInt16? = nil, cdSize: UInt32? = nil, cdOffset: UInt32? = nil) -> Data {
        var d = [UInt8](zip)
        let e = d.count - 22
        func put(_ at: Int, _ bytes: [UInt8]) { for (i, b) in bytes.enumerated() { d[at + i] = b } }
        if let count { put(e + 8, le16(count)); put(e + 10, le16(count)) }
        if let cdSize { put(e + 12, le32(cdSize)) }
        if let cdOffset { put(e + 16, le32(cdOffset)) }
        return Data(d)
    }

    // MARK: - The app every archive case is built around

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// A real iOS executable linked by ld64.lld (Tests/Fixtures/MachO/make-fixtures.sh).
    static var realExecutable: Data { (try? Data(contentsOf: packageRoot.appendingPathComponent("Tests/Fixtures/MachO/App"))) ?? Data() }

    static let app = "Payload/Demo.app/"

    static func infoPlist(executable: String = "Demo") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
          <key>CFBundleIdentifier</key><string>com.example.demo</string>
          <key>CFBundleExecutable</key><string>\(executable)</string>
          <key>CFBundleShortVersionString</key><string>1.0</string>
          <key>CFBundleVersion</key><string>1</string>
          <key>MinimumOSVersion</key><string>15.0</string>
        </dict>
        </plist>
        """
    }

    /// A valid `.ipa`: Info.plist, a real executable and a strings table.
    static func baseApp(executable: Data? = nil, infoPlist plist: Data? = nil) -> Zip {
        var z = Zip()
        z.add(app + "Info.plist", data: plist ?? Data(infoPlist().utf8))
        z.add(app + "Demo", data: executable ?? realExecutable)
        z.add(app + "en.lproj/Localizable.strings", "\"hello\" = \"Hello\";\n")
        return z
    }

    // MARK: - Property lists

    /// The "billion laughs" entity expansion, as an XML Info.plist.
    static var billionLaughsPlist: Data {
        var doctype = "<!DOCTYPE plist [\n  <!ENTITY lol0 \"lol\">\n"
        for i in 1...9 {
            doctype += "  <!ENTITY lol\(i) \"" + String(repeating: "&lol\(i - 1);", count: 10) + "\">\n"
        }
        doctype += "]>\n"
        return Data(("<?xml version=\"1.0\"?>\n" + doctype + """
        <plist version="1.0"><dict>
        <key>CFBundleIdentifier</key><string>&lol9;</string>
        <key>CFBundleExecutable</key><string>Demo</string>
        </dict></plist>
        """).utf8)
    }

    static func deepXMLPlist(depth: Int) -> Data {
        Data(("<?xml version=\"1.0\"?>\n<plist version=\"1.0\">" + String(repeating: "<array>", count: depth)
              + String(repeating: "</array>", count: depth) + "</plist>").utf8)
    }

    /// A valid XML Info.plist whose `Deep` value nests arrays so that the whole document is
    /// `depth` levels deep (the root dictionary is the first).
    static func deepValueXMLInfoPlist(depth: Int) -> Data {
        let plist = infoPlist()
        let deep = "<key>Deep</key>" + String(repeating: "<array>", count: depth - 1) + String(repeating: "</array>", count: depth - 1)
        return Data(plist.replacingOccurrences(of: "</dict>", with: deep + "</dict>").utf8)
    }

    /// The same in OpenStep form.
    static func deepValueOpenStepInfoPlist(depth: Int) -> Data {
        Data(("{ CFBundleIdentifier = com.example.demo; CFBundleExecutable = Demo; CFBundleVersion = 1; "
              + "CFBundleShortVersionString = \"1.0\"; MinimumOSVersion = \"15.0\"; Deep = "
              + String(repeating: "(", count: depth - 1) + String(repeating: ")", count: depth - 1) + "; }").utf8)
    }

    /// The same in binary form: object 0 is the dictionary, its `Deep` value a chain of
    /// one-element arrays ending in an empty one.
    static func deepValueBinaryInfoPlist(depth: Int) -> Data {
        let pairs = [("CFBundleIdentifier", "com.example.demo"), ("CFBundleExecutable", "Demo"), ("CFBundleVersion", "1"),
                     ("CFBundleShortVersionString", "1.0"), ("MinimumOSVersion", "15.0")]
        // Objects: 0 dict; then keys and values of `pairs`; then the key "Deep"; then the arrays.
        let keysAt = 1, deepKey = 1 + 2 * pairs.count, firstArray = deepKey + 1
        let count = firstArray + depth - 1
        func ascii(_ text: String) -> [UInt8] {
            let n = text.utf8.count
            return (n < 15 ? [0x50 | UInt8(n)] : [0x5F, 0x10, UInt8(n)]) + Array(text.utf8)
        }
        var b: [UInt8] = Array("bplist00".utf8)
        var offsets: [Int] = []
        let entries = pairs.count + 1
        offsets.append(b.count)
        b += [0xD0 | UInt8(entries)]
        for i in 0..<pairs.count { b += Array(le32(UInt32(keysAt + 2 * i)).reversed()) }
        b += Array(le32(UInt32(deepKey)).reversed())
        for i in 0..<pairs.count { b += Array(le32(UInt32(keysAt + 2 * i + 1)).reversed()) }
        b += Array(le32(UInt32(firstArray)).reversed())
        for (key, value) in pairs {
            offsets.append(b.count); b += ascii(key)
            offsets.append(b.count); b += ascii(value)
        }
        offsets.append(b.count); b += ascii("Deep")
        for object in firstArray..<count {
            offsets.append(b.count)
            b += object == count - 1 ? [0xA0] : [0xA1] + Array(le32(UInt32(object + 1)).reversed())
        }
        let tableAt = b.count
        for o in offsets { b += Array(le32(UInt32(o)).reversed()) }
        b += [0, 0, 0, 0, 0, 0, 4, 4]
        b += Array(le64(UInt64(count)).reversed()) + Array(le64(0).reversed()) + Array(le64(UInt64(tableAt)).reversed())
        return Data(b)
    }

    /// `bplist00` with a dictionary whose only value is the dictionary itself.
    static var cyclicBinaryPlist: Data {
        var b: [UInt8] = Array("bplist00".utf8)
        let dictAt = b.count
        b += [0xD1, 0x01, 0x00] // dict, 1 entry: key object 1, value object 0 (itself)
        let keyAt = b.count
        b += [0x51, 0x61]       // ASCII string "a"
        let tableAt = b.count
        b += [UInt8(dictAt), UInt8(keyAt)]
        b += [0, 0, 0, 0, 0, 0]  // trailer: unused, sort version
        b += [1, 1]              // offset int size, object ref size
        b += Array(le64(2).reversed()) + Array(le64(0).reversed()) + Array(le64(UInt64(tableAt)).reversed())
        return Data(b)
    }

    /// `bplist00` whose trailer declares 2^40 objects in a file of a few dozen bytes.
    static var hugeCountBinaryPlist: Data {
        var b: [UInt8] = Array("bplist00".utf8)
        b += [0x08] // false
        let tableAt = b.count
        b += [8]
        b += [0, 0, 0, 0, 0, 0, 1, 8]
        b += Array(le64(1 << 40).reversed()) + Array(le64(0).reversed()) + Array(le64(UInt64(tableAt)).reversed())
        return Data(b)
    }

    /// A binary plist with many small objects that are all valid: an array of `count` integers.
    static func manyObjectsBinaryPlist(count: Int) -> Data {
        var b: [UInt8] = Array("bplist00".utf8)
        var offsets: [Int] = []
        offsets.append(b.count)
        b += [0xAF, 0x12] + Array(le32(UInt32(count)).reversed()) // array, count as a 4-byte int
        for i in 1...count { b += Array(le32(UInt32(i)).reversed()) } // object refs (4 bytes each)
        for _ in 0..<count { offsets.append(b.count); b += [0x10, 0x07] } // int 7
        let tableAt = b.count
        for o in offsets { b += Array(le32(UInt32(o)).reversed()) }
        b += [0, 0, 0, 0, 0, 0, 4, 4]
        b += Array(le64(UInt64(count + 1)).reversed()) + Array(le64(0).reversed()) + Array(le64(UInt64(tableAt)).reversed())
        return Data(b)
    }

    // MARK: - Strings and string catalogs

    /// UTF-16LE with a BOM and a lone high surrogate inside a value.
    static var invalidUTF16Strings: Data {
        var d = Data([0xFF, 0xFE])
        for u in "\"a\" = \"".utf16 { d += le16(u) }
        d += le16(0xD800)
        for u in "x\";\n".utf16 { d += le16(u) }
        return d
    }

    static let unterminatedStrings = Data("\"a\" = \"b\";\n\"c\" = \"never closed;\n".utf8)

    static func deepXCStrings(depth: Int) -> Data {
        Data(("{\"sourceLanguage\":\"en\",\"version\":\"1.0\",\"strings\":{\"k\":" + String(repeating: "[", count: depth)
              + String(repeating: "]", count: depth) + "}}").utf8)
    }

    /// A valid catalog with an extra top-level value nested so that the document is `depth`
    /// levels deep.
    static func deepValueXCStrings(depth: Int) -> Data {
        Data(("{\"sourceLanguage\":\"en\",\"version\":\"1.0\",\"strings\":{},\"deep\":" + String(repeating: "[", count: depth - 1)
              + String(repeating: "]", count: depth - 1) + "}").utf8)
    }

    static func hugeXCStrings(keys: Int) -> Data {
        var s = "{\"sourceLanguage\":\"en\",\"version\":\"1.0\",\"strings\":{"
        s.reserveCapacity(keys * 110)
        for i in 0..<keys {
            if i > 0 { s += "," }
            s += "\"key\(i)\":{\"localizations\":{\"en\":{\"stringUnit\":{\"state\":\"translated\",\"value\":\"v\(i)\"}}}}"
        }
        s += "}}"
        return Data(s.utf8)
    }

    // MARK: - Mach-O

    /// A 64-bit arm64 executable header followed by `commands` (raw load command bytes).
    static func machO(ncmds: UInt32? = nil, sizeofcmds: UInt32? = nil, commands: [[UInt8]], trailing: Int = 0) -> Data {
        let cmds = commands.flatMap { $0 }
        var b: [UInt8] = le32(0xfeedfacf) + le32(0x0100000c) + le32(0) + le32(2)
        b += le32(ncmds ?? UInt32(commands.count)) + le32(sizeofcmds ?? UInt32(cmds.count)) + le32(0) + le32(0)
        b += cmds
        b += [UInt8](repeating: 0, count: trailing)
        return Data(b)
    }

    static func loadCommand(_ cmd: UInt32, size: UInt32? = nil, body: [UInt8]) -> [UInt8] {
        le32(cmd) + le32(size ?? UInt32(8 + body.count)) + body
    }

    static func segment64(name: String, fileoff: UInt64, filesize: UInt64, nsects: UInt32, cmdsize: UInt32? = nil) -> [UInt8] {
        var seg = Array(name.utf8) + [UInt8](repeating: 0, count: 16 - name.utf8.count)
        seg += le64(0x1_0000_0000) + le64(filesize) + le64(fileoff) + le64(filesize) + le32(5) + le32(5) + le32(nsects) + le32(0)
        return loadCommand(0x19, size: cmdsize, body: seg)
    }

    /// Fat header with `archs` (offset, size) entries, padded to `fileSize` with a thin Mach-O at 0x1000.
    static func fat(nfat: UInt32, archs: [(UInt32, UInt32)], fileSize: Int = 0x2000) -> Data {
        var b: [UInt8] = be32(0xcafebabe) + be32(nfat)
        for (offset, size) in archs { b += be32(0x0100000c) + be32(0) + be32(offset) + be32(size) + be32(12) }
        let thin = [UInt8](machO(commands: []))
        if fileSize > b.count {
            b += [UInt8](repeating: 0, count: 0x1000 - b.count)
            b += thin
            b += [UInt8](repeating: 0, count: max(0, fileSize - b.count))
        }
        return Data(b)
    }

    // MARK: - Xcode project

    /// A project whose groups contain each other and whose build settings reference themselves.
    static var cyclicPbxproj: String {
        """
        // !$*UTF8*$!
        {
        \tarchiveVersion = 1;
        \tobjectVersion = 56;
        \tobjects = {
        \t\tGA = {isa = PBXGroup; children = (GB, FI); path = A; sourceTree = "<group>"; };
        \t\tGB = {isa = PBXGroup; children = (GA); path = B; sourceTree = "<group>"; };
        \t\tGM = {isa = PBXGroup; children = (GA); sourceTree = "<group>"; };
        \t\tFI = {isa = PBXFileReference; path = Info.plist; sourceTree = "<group>"; };
        \t\tC1 = {isa = XCBuildConfiguration; name = Release; buildSettings = {
        \t\t\tINFOPLIST_FILE = "App/Info.plist"; PRODUCT_BUNDLE_IDENTIFIER = "com.example.$(LOOP)";
        \t\t\tLOOP = "$(LOOP)$(LOOP)"; SELF = "$(SELF)"; PRODUCT_NAME = "$(TARGET_NAME)"; }; };
        \t\tL1 = {isa = XCConfigurationList; buildConfigurations = (C1); defaultConfigurationName = Release; };
        \t\tB1 = {isa = PBXBuildFile; fileRef = FI; };
        \t\tR1 = {isa = PBXResourcesBuildPhase; files = (B1); };
        \t\tT1 = {isa = PBXNativeTarget; name = App; buildConfigurationList = L1; buildPhases = (R1); productType = "com.apple.product-type.application"; };
        \t\tP1 = {isa = PBXProject; mainGroup = GM; targets = (T1); buildConfigurationList = L1; };
        \t};
        \trootObject = P1;
        }
        """
    }
}
