/// Names of values that must be unpredictable: what a random generator may not produce unless
/// it is cryptographic. A wider set than `isSecret` (which judges what may be stored in
/// preferences): it adds the crypto inputs (nonce, salt, IV, key material) and one-time codes,
/// and keeps `isSecret`'s own answers unchanged.
extension SecretNames {
    /// Words that name an unpredictable value alone.
    static let generatedWords: Set<String> = ["nonce", "nonces", "salt", "iv", "otp", "totp", "hotp", "pin", "passcode", "passphrase",
                                              "csrf", "xsrf", "cnonce", "noncestr"]
    /// Words that make a following `key` key material (`encryptionKey`, `aesKey`), not a
    /// dictionary or cache key.
    static let keyQualifiers: Set<String> = ["encryption", "crypto", "cipher", "aes", "des", "hmac", "symmetric", "signing",
                                             "master", "secret", "private", "session", "wrapping", "shared", "api", "auth", "access",
                                             "license", "derived", "decryption", "mac"]
    /// Verbs that make a following `key` a new key (`generateKey`, `randomKey`), not a lookup.
    static let keyMakers: Set<String> = ["generate", "gen", "make", "create", "random"]
    /// Pairs that name an unpredictable value: `session id`, `verification code`, `key bytes`.
    static let generatedPairs: Set<String> = ["sessionid", "sessionidentifier", "sessiontoken", "sessionsecret", "keydata", "keybytes",
                                              "keymaterial", "verificationcode", "authcode", "authorizationcode", "activationcode",
                                              "confirmationcode", "securitycode", "accesscode", "pincode", "onetime",
                                              "initializationvector", "resettoken", "requesttoken"]
    /// Words of things a PIN may also be (a map pin).
    static let pinPlaces: Set<String> = ["map", "annotation", "location", "coordinate", "drop", "color", "image", "view", "x", "y"]

    /// Whether a variable, property, label or function name says its value must be
    /// unpredictable: a secret (`isSecret`, `id` allowed for a session id), a nonce, salt, IV,
    /// PIN or one-time code, or key material (`encryptionKey`, `keyBytes`, `generateKey`; `cacheKey` is not).
    public static func isUnpredictable(_ name: String) -> Bool {
        if isSecret(name) { return true }
        let words = self.words(name)
        guard !words.isEmpty, words.count <= 8 else { return false }
        let set = Set(words)
        guard set.isDisjoint(with: metadataWords.subtracting(["id", "identifier"])) else { return false }
        if !set.isDisjoint(with: pushWords) { return false }
        if set.contains("pin"), !set.isDisjoint(with: pinPlaces) { return false }
        if !set.isDisjoint(with: generatedWords) { return true }
        for (a, b) in zip(words, words.dropFirst()) {
            if generatedPairs.contains(a + b) { return true }
            if b == "key" || b == "keys", keyQualifiers.contains(a) || keyMakers.contains(a) { return true }
        }
        return false
    }
}
