import Foundation

/// PEM private-key blocks: a `-----BEGIN … PRIVATE KEY-----` line, a body that decodes to a
/// DER SEQUENCE (or an `openssh-key-v1` blob) and an `-----END` line. A header alone (crypto
/// libraries carry the label as a constant) or a body of placeholders is not a key.
enum PEMBlock {
    static let labels = ["PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY", "DSA PRIVATE KEY", "OPENSSH PRIVATE KEY",
                         "ENCRYPTED PRIVATE KEY"]
    /// Bytes looked at for the end line.
    static let maxBlock = 64 << 10

    /// The end of the block at `i` and its masked form, when it is a private key.
    static func privateKey(_ b: UnsafeRawBufferPointer, at i: Int) -> (end: Int, masked: String, encrypted: Bool)? {
        var j = i + 11
        var label = ""
        while j < b.count, j - i < 60, b[j] != 0x2d { label.append(Character(UnicodeScalar(b[j]))); j += 1 }
        guard labels.contains(label), SecretScanner.hasPrefix(b, j, "-----") else { return nil }
        j += 5
        var body: [UInt8] = [], line: [UInt8] = []
        var lineIsHeader = false, sawHeader = false
        func endLine() {
            if !lineIsHeader { body += line } else { sawHeader = true }
            line.removeAll(keepingCapacity: true)
            lineIsHeader = false
        }
        let limit = min(b.count, i + maxBlock)
        while j < limit {
            let c = b[j]
            if c == 0x2d, SecretScanner.hasPrefix(b, j, "-----END ") {
                endLine()
                var end = j + 9
                while end < limit, b[end] != 0x2d, end - j < 60 { end += 1 }
                end = min(limit, end + 5)
                guard body.count >= 64, decodesToKey(body, label: label) else { return nil }
                return (end, "-----BEGIN \(label)----- block (\(body.count) base64 characters)", label.hasPrefix("ENCRYPTED") || sawHeader)
            }
            if c == 0x5c, j + 1 < limit, b[j + 1] == 0x6e || b[j + 1] == 0x72 { endLine(); j += 2; continue }
            if c == 0x0a || c == 0x0d { endLine(); j += 1; continue }
            if c == 0x20 || c == 0x09 || c == 0x22 { j += 1; continue }
            if isBase64(c) { line.append(c); j += 1; continue }
            // Encrypted PKCS#1 header lines (`Proc-Type: 4,ENCRYPTED`, `DEK-Info: …`).
            if c == 0x3a || c == 0x2c || c == 0x2d { lineIsHeader = true; j += 1; continue }
            return nil
        }
        return nil
    }

    static func isBase64(_ c: UInt8) -> Bool { SecretScanner.isAlnum(c) || c == 0x2b || c == 0x2f || c == 0x3d }

    static func decodesToKey(_ body: [UInt8], label: String) -> Bool {
        let head = String(decoding: body.prefix(24), as: UTF8.self)
        if label == "OPENSSH PRIVATE KEY" { return head.hasPrefix("b3BlbnNzaC1rZXktdjE") }
        guard let der = Data(base64Encoded: String(head.prefix(24))), der.count >= 4 else { return false }
        // SEQUENCE with a long-form or short-form length: every DER key starts so.
        return der[der.startIndex] == 0x30 && (der[der.startIndex + 1] & 0x80 == 0 || (0x81...0x84).contains(der[der.startIndex + 1]))
    }
}
