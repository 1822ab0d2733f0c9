/// Whether a logged value's name says it is a credential: `SecretNames.isSecret`, less the
/// tokens that name a place or a handle rather than grant access — a chat room's token (an
/// identifier in its URLs), a page or continuation token, a CloudKit change token, a
/// cancellation or observation token.
public enum LoggedCredential {
    static let handleWords: Set<String> = ["room", "conversation", "page", "next", "continuation", "change", "changes", "cursor",
                                           "pagination", "cancellation", "cancel", "observation", "observer", "subscription",
                                           "invalidation", "resume", "bookmark", "sort", "search", "query", "parse", "parser"]

    /// Words of a value derived from a secret that no longer gives it away (`passwordHash`).
    static let derivedWords: Set<String> = ["hash", "hashed", "digest", "encrypted", "masked", "salt", "salted", "verifier"]

    public static func isCredential(_ name: String) -> Bool {
        guard SecretNames.isSecret(name) else { return false }
        let words = SecretNames.words(name)
        let set = Set(words)
        guard set.isDisjoint(with: derivedWords) else { return false }
        // `password`, `apiKey`: a secret whatever else the name says.
        if !set.isDisjoint(with: SecretNames.secretWords) || SecretNames.isSecretPair(words) { return true }
        return set.isDisjoint(with: handleWords)
    }
}
