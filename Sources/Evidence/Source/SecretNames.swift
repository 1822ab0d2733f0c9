/// Whether a preference key or a stored value's name says it holds a secret (a password, a
/// token, a private key): the words of the name, not a substring search, so `passwordEnabled`,
/// `lastTokenRefresh` and `pushToken` are not secrets and `tokenizer` is not a token.
public enum SecretNames {
    /// Words that make a name a secret alone.
    static let secretWords: Set<String> = ["password", "passwords", "passwd", "passphrase", "passcode", "secret", "credential", "credentials",
                                           "privatekey", "accesstoken", "refreshtoken", "authtoken", "apikey", "jwt"]
    /// Words that make `token` a secret (an `authToken`, not a push `deviceToken`).
    static let tokenWords: Set<String> = ["token", "tokens"]
    /// Tokens that identify a device for push, not a user.
    static let pushWords: Set<String> = ["push", "device", "apns", "fcm", "notification", "notifications", "voip", "firebase",
                                         "registration", "pushkit", "messaging", "gcm"]
    /// Words of flags and metadata about a secret rather than the secret itself.
    static let metadataWords: Set<String> = [
        "enabled", "disabled", "enable", "disable", "is", "has", "should", "did", "will", "can", "show", "shown", "hide",
        "hidden", "set", "saved", "save", "remember", "remembered", "date", "time", "timestamp", "expiry", "expiration", "expires",
        "expire", "expired", "count", "length", "period", "algorithm", "hint", "policy", "type", "required", "changed", "updated", "prompt", "prompted",
        "reminder", "visible", "last", "attempts", "attempt", "failed", "migrated", "migration", "version", "style",
        "strength", "mode", "url", "id", "keychain", "biometric", "biometrics", "lock", "locked", "use", "uses", "using", "ask",
        "asked", "skip", "needs", "need", "require", "requires", "allow", "allowed", "option", "options", "setting", "settings",
        "configured", "exists", "present", "available", "format", "rule", "rules", "generator", "manager", "field", "label",
        "placeholder", "title", "message", "screen", "view", "controller", "reset", "forgot", "recovery", "change", "status",
        "state", "flag", "on", "off", "timeout", "interval", "duration", "delay", "size", "identifier", "kind", "source",
        "provider", "storage", "stored", "store", "location", "path", "file", "cache", "cached", "validator", "validation",
    ]

    /// Whether the name (camelCase, snake_case, dotted, dashed) names a secret.
    public static func isSecret(_ name: String) -> Bool {
        let words = self.words(name)
        guard !words.isEmpty, words.count <= 8 else { return false }
        let set = Set(words)
        guard set.isDisjoint(with: metadataWords) else { return false }
        if !set.isDisjoint(with: secretWords) { return true }
        if isSecretPair(words) { return true }
        if !set.isDisjoint(with: tokenWords) { return set.isDisjoint(with: pushWords) }
        return false
    }

    /// Whether the name says it holds something other than a secret: a push token, or a flag
    /// or date about one.
    public static func saysNotSecret(_ name: String) -> Bool {
        let set = Set(words(name))
        return !set.isDisjoint(with: metadataWords) || !set.isDisjoint(with: pushWords)
    }

    /// Two words that together name a secret: `private key`, `api key`, `access token`.
    static func isSecretPair(_ words: [String]) -> Bool {
        for (a, b) in zip(words, words.dropFirst()) where secretWords.contains(a + b) { return true }
        return false
    }

    /// Lower-case words of an identifier or key.
    public static func words(_ name: String) -> [String] {
        var out: [String] = []
        var current = ""
        var previousLower = false
        for scalar in name.unicodeScalars {
            let isUpper = scalar.properties.isUppercase
            let isAlnum = scalar.properties.isAlphabetic || ("0"..."9").contains(Character(scalar))
            if !isAlnum {
                if !current.isEmpty { out.append(current) }
                current = ""
                previousLower = false
                continue
            }
            if isUpper && previousLower, !current.isEmpty {
                out.append(current)
                current = ""
            }
            current.unicodeScalars.append(scalar)
            previousLower = !isUpper
        }
        if !current.isEmpty { out.append(current) }
        return out.map { $0.lowercased() }
    }
}
