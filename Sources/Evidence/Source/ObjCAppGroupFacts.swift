/// App groups an Objective-C file names in `initWithSuiteName:@"group.x"` and
/// `containerURLForSecurityApplicationGroupIdentifier:@"group.x"` (a literal argument only;
/// `ProtectedResourceCatalog.Security.appGroup`).
enum ObjCAppGroupFacts {
    typealias Security = ProtectedResourceCatalog.Security

    static let selectors: [String: String] = [
        "initWithSuiteName": "-[NSUserDefaults initWithSuiteName:]",
        "containerURLForSecurityApplicationGroupIdentifier": "-[NSFileManager containerURLForSecurityApplicationGroupIdentifier:]",
    ]

    static let needles: [[UInt8]] = ["WithSuiteName", "SecurityApplicationGroupIdentifier"].map { Array($0.utf8) }

    /// Whether the bytes name one of the selectors.
    static func mayFind(_ bytes: [UInt8]) -> Bool {
        needles.contains { needle in
            guard bytes.count >= needle.count else { return false }
            var i = 0
            while i + needle.count <= bytes.count {
                if bytes[i] == needle[0], bytes[i..<(i + needle.count)].elementsEqual(needle) { return true }
                i += 1
            }
            return false
        }
    }

    /// The group and API when the literal at `literal` is the argument of a selector part:
    /// `initWithSuiteName:` `@"group.x"`, with casts between them skipped by `previous`.
    static func fact(at literal: Int, texts: [String], tokens: [ObjCToken], previous: (Int) -> Int?) -> (group: String, api: String)? {
        guard let colon = previous(literal), tokens[colon].kind == .colon, let name = previous(colon),
              tokens[name].kind == .identifier, let api = selectors[texts[name]],
              let group = ObjCSecurityFacts.objcString(texts[literal]), Security.isAppGroupIdentifier(group) else { return nil }
        return (group, api)
    }
}
