import Foundation

/// Finds credentials with a recognisable, validated format in text or a C string. A match
/// needs its prefix, its exact alphabet and length, and token boundaries on both sides;
/// entropy alone never makes a match. Every result is masked before it leaves this type.
public enum SecretScanner {
    /// `skipGoogleAPIKeys`: for `GoogleService-Info.plist`, whose `API_KEY` is a public
    /// identifier of the Firebase project.
    public static func scan(text: String, skipGoogleAPIKeys: Bool = false) -> [FoundSecret] {
        var copy = text
        return copy.withUTF8 { scan(bytes: UnsafeRawBufferPointer($0), skipGoogleAPIKeys: skipGoogleAPIKeys) }
    }

    public static func scan(bytes: UnsafeRawBufferPointer, skipGoogleAPIKeys: Bool = false) -> [FoundSecret] {
        let b = bytes
        let n = b.count
        var out: [FoundSecret] = []
        var lineStart = 0, line = 1, counted = 0
        func position(_ offset: Int) -> (Int, Int) {
            while counted < offset {
                if b[counted] == 0x0a { line += 1; lineStart = counted + 1 }
                counted += 1
            }
            return (line, offset - lineStart + 1)
        }
        func add(_ kind: SecretKind, _ start: Int, _ end: Int, masked: String? = nil) {
            let (l, c) = position(start)
            let value = masked ?? SecretMask.mask(String(decoding: UnsafeRawBufferPointer(rebasing: b[start..<end]), as: UTF8.self))
            out.append(FoundSecret(kind: kind, masked: value, line: l, column: c))
        }
        var i = 0
        while i < n {
            let c = b[i]
            // Quick reject: every format starts with one of these bytes.
            guard c == 0x41 || c == 0x73 || c == 0x72 || c == 0x78 || c == 0x67 || c == 0x53 || c == 0x2d || c == 0x68 else { i += 1; continue }
            if i > 0, isWordByte(b[i - 1]), c != 0x2d { i += 1; continue }
            if let (kind, end, masked) = match(b, at: i, skipGoogleAPIKeys: skipGoogleAPIKeys) {
                add(kind, i, end, masked: masked)
                i = end
                continue
            }
            i += 1
        }
        return out
    }

    static func isWordByte(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c == 0x5f || c == 0x2d
    }
    static func isAlnum(_ c: UInt8) -> Bool { (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) }
    static func isUpperBase32(_ c: UInt8) -> Bool { (c >= 0x41 && c <= 0x5a) || (c >= 0x32 && c <= 0x37) }
    static func isURLSafeBase64(_ c: UInt8) -> Bool { isAlnum(c) || c == 0x5f || c == 0x2d }

    static func hasPrefix(_ b: UnsafeRawBufferPointer, _ i: Int, _ p: StaticString) -> Bool {
        let len = p.utf8CodeUnitCount
        guard i + len <= b.count else { return false }
        let ptr = p.utf8Start
        for k in 0..<len where b[i + k] != ptr[k] { return false }
        return true
    }

    /// Length of the run of bytes from `i` that satisfy `ok`, at most `limit`.
    static func run(_ b: UnsafeRawBufferPointer, _ i: Int, limit: Int = 512, _ ok: (UInt8) -> Bool) -> Int {
        var j = i
        while j < b.count, j - i < limit, ok(b[j]) { j += 1 }
        return j - i
    }

    /// True when `s` looks like a placeholder: one character four times in a row, or a
    /// documented example value.
    static func isPlaceholder(_ b: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Bool {
        var repeatCount = 1
        var k = start + 1
        while k < end {
            repeatCount = b[k] == b[k - 1] ? repeatCount + 1 : 1
            if repeatCount >= 4 { return true }
            k += 1
        }
        let s = String(decoding: UnsafeRawBufferPointer(rebasing: b[start..<end]), as: UTF8.self)
        return s.contains("EXAMPLE") || s.contains("example") || s.contains("YOUR") || s.contains("your")
    }

    static func match(_ b: UnsafeRawBufferPointer, at i: Int, skipGoogleAPIKeys: Bool) -> (SecretKind, Int, String?)? {
        // AWS access key ID: AKIA/ASIA + 16 base32 characters.
        if hasPrefix(b, i, "AKIA") || hasPrefix(b, i, "ASIA") {
            let len = run(b, i + 4, limit: 17, isUpperBase32)
            let end = i + 4 + len
            if len == 16, end == b.count || !isAlnum(b[end]), !isPlaceholder(b, i, end) { return (.awsAccessKeyID, end, nil) }
            return nil
        }
        // Google API key: AIza + 35 URL-safe base64 characters.
        if hasPrefix(b, i, "AIza") {
            let len = run(b, i + 4, limit: 36, isURLSafeBase64)
            let end = i + 4 + len
            if len == 35, !isPlaceholder(b, i, end) { return skipGoogleAPIKeys ? nil : (.googleAPIKey, end, nil) }
            return nil
        }
        // Stripe secret and restricted keys.
        for (prefix, kind) in [("sk_live_", SecretKind.stripeLiveSecretKey), ("rk_live_", .stripeLiveSecretKey),
                               ("sk_test_", .stripeTestSecretKey), ("rk_test_", .stripeTestSecretKey)] {
            var p = prefix
            let matches = p.withUTF8 { u in i + u.count <= b.count && (0..<u.count).allSatisfy { b[i + $0] == u[$0] } }
            guard matches else { continue }
            let len = run(b, i + 8, limit: 248, isAlnum)
            let end = i + 8 + len
            if len >= 24, end == b.count || !isWordByte(b[end]), !isPlaceholder(b, i + 8, end) { return (kind, end, nil) }
            return nil
        }
        // Slack tokens: xoxb-/xoxp-/xoxa-/xoxr-/xoxs- + digit groups and a tail, dash separated.
        if hasPrefix(b, i, "xox"), i + 4 < b.count, [0x62, 0x70, 0x61, 0x72, 0x73].contains(b[i + 3]), b[i + 4] == 0x2d {
            let len = run(b, i + 5, limit: 255) { isAlnum($0) || $0 == 0x2d }
            let end = i + 5 + len
            let body = UnsafeRawBufferPointer(rebasing: b[(i + 5)..<end])
            let groups = body.split(separator: 0x2d)
            if len >= 30, groups.count >= 3, groups[0].count >= 8, groups[0].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
               !isPlaceholder(b, i + 5, end) {
                return (.slackToken, end, nil)
            }
            return nil
        }
        // Slack incoming webhooks.
        if hasPrefix(b, i, "hooks.slack.com/services/T") {
            let start = i + 25
            let len = run(b, start, limit: 120) { isAlnum($0) || $0 == 0x2f }
            let parts = UnsafeRawBufferPointer(rebasing: b[start..<(start + len)]).split(separator: 0x2f)
            if parts.count == 3, parts[0].count >= 8, parts[1].count >= 8, parts[1].first == 0x42, parts[2].count >= 20,
               !isPlaceholder(b, start, start + len) {
                return (.slackWebhook, start + len, "hooks.slack.com/services/T…/B…/" + SecretMask.mask(String(decoding: parts[2], as: UTF8.self)))
            }
            return nil
        }
        // GitHub tokens: ghp_/gho_/ghu_/ghs_/ghr_ + 36 alphanumerics; github_pat_ + 82.
        if hasPrefix(b, i, "gh"), i + 3 < b.count, [0x70, 0x6f, 0x75, 0x73, 0x72].contains(b[i + 2]), b[i + 3] == 0x5f {
            let len = run(b, i + 4, limit: 37, isAlnum)
            let end = i + 4 + len
            if len == 36, end == b.count || !isWordByte(b[end]), !isPlaceholder(b, i + 4, end) { return (.githubToken, end, nil) }
            return nil
        }
        if hasPrefix(b, i, "github_pat_") {
            let len = run(b, i + 11, limit: 83) { isAlnum($0) || $0 == 0x5f }
            let end = i + 11 + len
            if len == 82, !isPlaceholder(b, i + 11, end) { return (.githubToken, end, nil) }
            return nil
        }
        // SendGrid: SG. + 22 + . + 43 URL-safe base64 characters.
        if hasPrefix(b, i, "SG.") {
            let a = run(b, i + 3, limit: 23, isURLSafeBase64)
            guard a == 22, i + 25 < b.count, b[i + 25] == 0x2e else { return nil }
            let c = run(b, i + 26, limit: 44, isURLSafeBase64)
            let end = i + 26 + c
            if c == 43, !isPlaceholder(b, i + 3, end) { return (.sendGridKey, end, nil) }
            return nil
        }
        if hasPrefix(b, i, "-----BEGIN "), let key = PEMBlock.privateKey(b, at: i) {
            return (key.encrypted ? .encryptedPrivateKey : .privateKey, key.end, key.masked)
        }
        return nil
    }
}
