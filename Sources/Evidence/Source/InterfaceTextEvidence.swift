import Foundation

/// Storyboard and xib texts that code replaces at run time: an object connected to an outlet
/// (`<outlet property="titleLabel" destination="abc-12-xyz"/>`) whose property the code
/// assigns a text (`titleLabel.text = …`, `button.setTitle(…)`, `[self.titleLabel setText:…]`).
/// Their storyboard text is a placeholder; its translation is never seen.
public enum InterfaceTextEvidence {
    /// `(property, destination id)` of each outlet connection of an interface file.
    static func outlets(in bytes: UnsafeRawBufferPointer) -> [(property: String, destination: String)] {
        let tag = Array("<outlet property=\"".utf8)
        let dest = Array("destination=\"".utf8)
        var out: [(String, String)] = []
        var i = 0
        let n = bytes.count
        while let start = find(tag, in: bytes, from: i) {
            let nameStart = start + tag.count
            var j = nameStart
            while j < n, bytes[j] != 0x22, bytes[j] != 0x0A { j += 1 }
            let property = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[nameStart..<j]), as: UTF8.self)
            var end = j
            while end < n, bytes[end] != 0x3E { end += 1 }  // the tag's `>`
            if let d = find(dest, in: bytes, from: j, before: end) {
                let idStart = d + dest.count
                var k = idStart
                while k < end, bytes[k] != 0x22 { k += 1 }
                if k > idStart, k - idStart <= 64 {
                    out.append((property, String(decoding: UnsafeRawBufferPointer(rebasing: bytes[idStart..<k]), as: UTF8.self)))
                }
            }
            i = end
        }
        return out
    }

    /// Member or setter → the kind of text it replaces: a label's or field's `text`, a
    /// button's or bar item's `title` (every state: `normalTitle`…), a field's `placeholder`.
    static let assignedMembers = ["text": "text", "attributedText": "text", "title": "title",
                                  "placeholder": "placeholder", "attributedPlaceholder": "placeholder"]
    static let settingMethods = ["setTitle": "title", "setAttributedTitle": "title", "setText": "text",
                                 "setAttributedText": "text", "setPlaceholder": "placeholder"]

    /// The kind of text a storyboard strings key names (`abc-12-xyz.normalTitle` → `title`).
    public static func textKind(ofKeyProperty property: Substring) -> String? {
        switch property {
        case "text": return "text"
        case "title", "normalTitle", "selectedTitle", "highlightedTitle", "disabledTitle": return "title"
        case "placeholder": return "placeholder"
        default: return nil
        }
    }

    /// Names a source assigns a text to, with the kind of text: `name.text = …`,
    /// `name?.title = …`, `name.setTitle(…)`, `[name setText:…]`, `[self.name setTitle:…]`
    /// (`_name` as `name`).
    static func assignedNames(in bytes: UnsafeRawBufferPointer) -> [String: Set<String>] {
        var out: [String: Set<String>] = [:]
        let n = bytes.count
        var i = 0
        while i < n {
            let c = bytes[i]
            // `.member =` or `.setX(`
            if c == 0x2E, let (word, after) = identifier(bytes, from: i + 1) {
                var j = after
                while j < n, bytes[j] == 0x20 || bytes[j] == 0x09 { j += 1 }
                let assigns = assignedMembers[word] != nil && j < n && bytes[j] == 0x3D && (j + 1 >= n || bytes[j + 1] != 0x3D)
                let calls = settingMethods[word] != nil && after < n && bytes[after] == 0x28
                if assigns || calls, let name = identifier(bytes, endingBefore: i),
                   let kind = assigns ? assignedMembers[word] : settingMethods[word] {
                    out[name, default: []].insert(kind)
                }
                i = after
                continue
            }
            // `[receiver setText:`
            if c == 0x20, let (word, after) = identifier(bytes, from: i + 1), let kind = settingMethods[word], after < n, bytes[after] == 0x3A,
               let name = identifier(bytes, endingBefore: i) {
                out[name, default: []].insert(kind)
                i = after
                continue
            }
            i += 1
        }
        return out
    }

    /// Lengths and first bytes of the members and setters above: most words are skipped
    /// without making a string of them (every `.` of every source is looked at).
    static let wordLengths: Set<Int> = Set((Array(assignedMembers.keys) + Array(settingMethods.keys)).map(\.utf8.count))
    static let wordStarts: Set<UInt8> = Set((Array(assignedMembers.keys) + Array(settingMethods.keys)).compactMap(\.utf8.first))

    /// The identifier starting at `from` and the index after it, when it may be one of the
    /// members or setters (its length and first byte are theirs).
    static func identifier(_ bytes: UnsafeRawBufferPointer, from: Int) -> (String, Int)? {
        guard from < bytes.count, wordStarts.contains(bytes[from]) else { return nil }
        var j = from
        while j < bytes.count, isIdentifierByte(bytes[j]) { j += 1 }
        guard j > from, wordLengths.contains(j - from) else { return nil }
        return (String(decoding: UnsafeRawBufferPointer(rebasing: bytes[from..<j]), as: UTF8.self), j)
    }

    /// The identifier ending just before `index` (skipping `?`/`!` of optional chaining), with
    /// a leading `_` removed (an Objective-C instance variable names its property).
    static func identifier(_ bytes: UnsafeRawBufferPointer, endingBefore index: Int) -> String? {
        var end = index
        while end > 0, bytes[end - 1] == 0x3F || bytes[end - 1] == 0x21 { end -= 1 }
        var start = end
        while start > 0, isIdentifierByte(bytes[start - 1]), end - start < 128 { start -= 1 }
        guard start < end else { return nil }
        var name = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        if name.hasPrefix("_") { name.removeFirst() }
        guard let first = name.first, !first.isNumber, name != "self" else { return nil }
        return name
    }

    static func isIdentifierByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
    }

    static func find(_ needle: [UInt8], in bytes: UnsafeRawBufferPointer, from: Int, before limit: Int? = nil) -> Int? {
        let end = min(limit ?? bytes.count, bytes.count) - needle.count
        guard let first = needle.first, from <= end else { return nil }
        var i = from
        while i <= end {
            if bytes[i] == first {
                var k = 1
                while k < needle.count, bytes[i + k] == needle[k] { k += 1 }
                if k == needle.count { return i }
            }
            i += 1
        }
        return nil
    }
}
