import Foundation

/// Environment-style configuration compiled into a binary (react-native-config's
/// `GeneratedDotEnv`, generated `Secrets` enums): a C string that is an upper-case name ending
/// in `SECRET`, `API_KEY`, `ACCESS_TOKEN`, `PASSWORD`… followed by the C string of its value.
/// The name gives the intent, so the value needs no known format, but it must look like a
/// credential: 16 to 200 characters of one token alphabet with letters and digits, not a URL,
/// not another name, not a placeholder.
public enum NamedSecretPairs {
    static let suffixes = ["SECRET", "SECRET_KEY", "API_KEY", "APIKEY", "ACCESS_KEY", "ACCESS_TOKEN", "AUTH_TOKEN", "PRIVATE_KEY",
                           "PASSWORD", "CLIENT_SECRET"]

    /// True for `PAYMENT_API_KEY`, `SECRET_KEY`; false for `apiKey`, `KEY`, `API_KEY_NAME`.
    public static func isSecretName(_ s: String) -> Bool {
        guard s.utf8.count <= 64, let first = s.utf8.first, first >= 0x41, first <= 0x5a,
              s.utf8.allSatisfy({ ($0 >= 0x41 && $0 <= 0x5a) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5f }) else { return false }
        return suffixes.contains { s == $0 || s.hasSuffix("_" + $0) }
    }

    /// True when `s` has the shape of a credential value.
    public static func isSecretValue(_ s: String) -> Bool {
        let u = Array(s.utf8)
        guard (16...200).contains(u.count), !s.hasPrefix("http"), !isSecretName(s) else { return false }
        guard u.allSatisfy({ SecretScanner.isAlnum($0) || $0 == 0x2b || $0 == 0x2f || $0 == 0x3d || $0 == 0x5f || $0 == 0x2d || $0 == 0x2e }) else { return false }
        let letters = u.contains { ($0 >= 0x41 && $0 <= 0x5a) || ($0 >= 0x61 && $0 <= 0x7a) }
        let digits = u.contains { $0 >= 0x30 && $0 <= 0x39 }
        // An upper-case identifier with underscores is another name, not a value.
        let nameLike = u.allSatisfy { ($0 >= 0x41 && $0 <= 0x5a) || $0 == 0x5f || ($0 >= 0x30 && $0 <= 0x39) } && u.contains(0x5f)
        return letters && digits && !nameLike && !u.withUnsafeBytes { SecretScanner.isPlaceholder($0, 0, u.count) }
    }

    /// The secret of the pair `name`, `value` (adjacent C strings), masked, or nil.
    public static func secret(name: String, value: String) -> FoundSecret? {
        guard isSecretName(name), isSecretValue(value) else { return nil }
        return FoundSecret(kind: .namedSecret, masked: "\(name) = \(SecretMask.mask(value))")
    }
}
