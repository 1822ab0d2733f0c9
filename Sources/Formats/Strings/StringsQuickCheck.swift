import Foundation

/// A fast check of the common `.strings` file, for tables Preflight only needs to know are
/// readable (iOS stops at the first error): UTF-8 text, an optional byte-order mark, and
/// `"key" = "value";` or `"key";` pairs between white space and comments. It answers true
/// only when `StringsFileParser.parse` accepts the file too; anything else it meets (UTF-16,
/// property-list formats, unquoted words, `\U` escapes, a syntax error) means "parse it".
/// A byte loop over megabytes of tables in dozens of languages is several times faster than
/// building every entry.
public enum StringsQuickCheck {
    public static func isCertainlyReadable(_ data: Data, limits: ReaderLimits = .default) -> Bool {
        guard (try? limits.checkInputSize(data.count, format: StringsFileParser.formatName)) != nil,
              PropertyListReader.detect(data) == .openStep else { return false }
        return data.withUnsafeBytes { raw -> Bool in
            let b = raw.bindMemory(to: UInt8.self)
            var i = 0
            let n = b.count
            if n >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { i = 3 }
            // UTF-16, with or without a byte-order mark, goes to the full parser.
            if n >= 2, (b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF) { return false }
            if n >= 4, n % 2 == 0, (b[1] == 0 && b[3] == 0) || (b[0] == 0 && b[2] == 0) { return false }
            guard String(validating: UnsafeBufferPointer(rebasing: b[i...]), as: UTF8.self) != nil else { return false }

            func skipTrivia() -> Bool {
                while i < n {
                    let c = b[i]
                    if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0B || c == 0x0C {
                        i += 1
                    } else if c == 0x2F, i + 1 < n, b[i + 1] == 0x2F {
                        while i < n, b[i] != 0x0A { i += 1 }
                    } else if c == 0x2F, i + 1 < n, b[i + 1] == 0x2A {
                        i += 2
                        while i + 1 < n, !(b[i] == 0x2A && b[i + 1] == 0x2F) { i += 1 }
                        guard i + 1 < n else { return false }
                        i += 2
                    } else {
                        return true
                    }
                }
                return true
            }
            func quoted() -> Bool {
                guard i < n, b[i] == 0x22 else { return false }
                i += 1
                while i < n {
                    let c = b[i]
                    if c == 0x22 { i += 1; return true }
                    if c == 0x5C {
                        guard i + 1 < n, b[i + 1] != 0x55 else { return false }  // `\U`: the full parser decides
                        i += 2
                        continue
                    }
                    i += 1
                }
                return false
            }

            var entries = 0
            let maxEntries = limits.maxPlistObjects / 4
            while true {
                guard skipTrivia() else { return false }
                if i >= n { return true }
                guard quoted(), skipTrivia(), i < n else { return false }
                if b[i] == 0x3D {  // =
                    i += 1
                    guard skipTrivia(), quoted(), skipTrivia(), i < n else { return false }
                }
                guard b[i] == 0x3B else { return false }  // ;
                i += 1
                entries += 1
                if entries > maxEntries { return false }
            }
        }
    }
}
