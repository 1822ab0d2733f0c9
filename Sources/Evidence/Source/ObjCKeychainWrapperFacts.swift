/// The keychain accessibility and access group an Objective-C file gives through the public
/// API of a widely used keychain wrapper, as the `kSecAttrAccessible…` class the wrapper
/// passes to the keychain (`ProtectedResourceCatalog.Security`):
/// - SAMKeychain and its predecessor SSKeychain: `[SAMKeychain setAccessibilityType:kSecAttrAccessibleAlways]`
///   (each class of a conditional expression counts);
/// - UICKeyChainStore: `store.accessibility = UICKeyChainStoreAccessibilityAlways`,
///   `[store setAccessibility:… authenticationPolicy:…]`, and a literal group given to
///   `…WithService:accessGroup:`;
/// - Valet 2 and 3: `accessibility:VALAccessibilityAlways` (`VALValet`'s initializers and factories);
/// - SimpleKeychain before 1.0: `keychain.defaultAccessiblity = A0SimpleKeychainItemAccessibleAlways`.
/// The wrappers' own mapping tables (`case UICKeyChainStoreAccessibilityAlways: return
/// kSecAttrAccessibleAlways;`) pass a parameter, not a constant, and give nothing here.
enum ObjCKeychainWrapperFacts {
    typealias Security = ProtectedResourceCatalog.Security

    /// Wrapper enumeration prefixes, and the selector keywords or properties that take them.
    static let enumerations: [(prefix: String, keywords: Set<String>, wrapper: String)] = [
        ("UICKeyChainStoreAccessibility", ["accessibility", "setAccessibility"], "UICKeyChainStore"),
        ("VALAccessibility", ["accessibility"], "VALValet"),
        ("A0SimpleKeychainItemAccessible", ["defaultAccessiblity", "setDefaultAccessiblity"], "A0SimpleKeychain"),
    ]
    static let accessibilityTypeClasses: Set<String> = ["SAMKeychain", "SSKeychain"]
    static let accessGroupClasses: Set<String> = ["UICKeyChainStore", "A0SimpleKeychain"]

    static let triggers = ["SAMKeychain", "SSKeychain", "UICKeyChainStore", "VALAccessibility", "A0SimpleKeychain"].map { Array($0.utf8) }

    static func scan(_ t: ObjCFactTokens, positions: inout ObjCSourcePositions) -> [SourceUsage] {
        var out: [SourceUsage] = []
        func emit(_ capability: String, _ key: String, _ api: String, at i: Int) {
            let (line, column) = positions.lineAndColumn(t.tokens[i].start)
            out.append(SourceUsage(capability: capability, key: key, api: api, line: line, column: column,
                                   strength: .definite, ships: t.tokens[i].ships))
        }
        for i in 0..<t.count {
            switch t.kind(i) {
            case .identifier:
                let name = t.texts[i]
                if name == "setAccessibilityType", i + 1 < t.count, t.kind(i + 1) == .colon, let open = t.messageStart(of: i),
                   let receiver = t.receiverClass(ofMessageAt: open), accessibilityTypeClasses.contains(receiver) {
                    // Every class the argument may be: `flag ? kSecAttrAccessibleAfterFirstUnlock : kSecAttrAccessibleAlways`.
                    for j in (i + 2)..<max(i + 2, t.messageEnd(of: open))
                    where t.kind(j) == .identifier && Security.accessibilityConstants.contains(t.texts[j]) {
                        emit(Security.keychainAccessible, t.texts[j], "+[\(receiver) setAccessibilityType:\(t.texts[j])]", at: j)
                    }
                } else if let (constant, api) = wrapperConstant(t, i) {
                    emit(Security.keychainAccessible, constant, api, at: i)
                }
            case .literal:
                guard let (keyword, _) = t.keyword(before: i), keyword == "accessGroup", let group = ObjCSecurityFacts.objcString(t.texts[i]),
                      let open = t.messageStart(of: i), let receiver = t.receiverClass(ofMessageAt: open),
                      accessGroupClasses.contains(receiver) else { continue }
                emit(Security.keychainAccessGroup, group, "\(receiver) accessGroup:@\"\(group)\"", at: i)
            default: continue
            }
        }
        return out
    }

    /// `UICKeyChainStoreAccessibilityAlways` given to `accessibility` → `kSecAttrAccessibleAlways`.
    static func wrapperConstant(_ t: ObjCFactTokens, _ i: Int) -> (String, String)? {
        let name = t.texts[i]
        for e in enumerations where name.hasPrefix(e.prefix) {
            let constant = "kSecAttrAccessible" + name.dropFirst(e.prefix.count)
            guard Security.accessibilityConstants.contains(constant), let (keyword, assigned) = t.keyword(before: i),
                  e.keywords.contains(keyword) else { return nil }
            return (constant, assigned ? "\(e.wrapper).\(keyword) = \(name)" : "\(e.wrapper) \(keyword):\(name)")
        }
        return nil
    }
}
