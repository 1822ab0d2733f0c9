import Foundation

/// A kind of credential with a recognisable format, and how bad shipping it is.
public enum SecretKind: String, Sendable, Hashable, CaseIterable {
    case privateKey = "private-key"
    case encryptedPrivateKey = "encrypted-private-key"
    case pkcs12 = "pkcs12"
    case awsAccessKeyID = "aws-access-key-id"
    case stripeLiveSecretKey = "stripe-live-secret-key"
    case stripeTestSecretKey = "stripe-test-secret-key"
    case slackToken = "slack-token"
    case slackWebhook = "slack-webhook"
    case githubToken = "github-token"
    case sendGridKey = "sendgrid-api-key"
    case googleAPIKey = "google-api-key"
    /// The value beside an environment-style name such as `PAYMENT_API_KEY` among a binary's
    /// C strings: what react-native-config and similar tools compile into an app.
    case namedSecret = "named-secret"

    /// How a reader names it.
    public var label: String {
        switch self {
        case .privateKey: return "private key"
        case .encryptedPrivateKey: return "passphrase-encrypted private key"
        case .pkcs12: return "PKCS#12 key store"
        case .awsAccessKeyID: return "AWS access key ID"
        case .stripeLiveSecretKey: return "Stripe live secret key"
        case .stripeTestSecretKey: return "Stripe test secret key"
        case .slackToken: return "Slack token"
        case .slackWebhook: return "Slack incoming-webhook URL"
        case .githubToken: return "GitHub token"
        case .sendGridKey: return "SendGrid API key"
        case .googleAPIKey: return "Google API key"
        case .namedSecret: return "secret-named configuration value"
        }
    }

    /// How bad it is to ship one.
    public enum Gravity: Sendable, Comparable {
        /// An identifier meant to be public (usable only with restrictions set elsewhere).
        case identifier
        /// Half of a credential, or one for a test environment.
        case partial
        /// Grants access by itself.
        case credential
    }

    public var gravity: Gravity {
        switch self {
        case .privateKey, .stripeLiveSecretKey, .slackToken, .slackWebhook, .githubToken, .sendGridKey: return .credential
        case .awsAccessKeyID, .stripeTestSecretKey, .encryptedPrivateKey, .pkcs12, .namedSecret: return .partial
        case .googleAPIKey: return .identifier
        }
    }

    /// Why shipping it matters, one sentence.
    public var why: String {
        switch self {
        case .privateKey: return "anyone who unzips the app can sign or decrypt as its owner"
        case .encryptedPrivateKey: return "its passphrase is needed too, but an app that uses the key ships the passphrase as well"
        case .pkcs12: return "it holds a private key that anyone who unzips the app can extract (its password ships too, or it is guessable)"
        case .awsAccessKeyID: return "an IAM user key ID; its secret half is usually shipped beside it, and together they act as that user"
        case .stripeLiveSecretKey: return "a live secret key moves money and reads customer data on the Stripe account"
        case .stripeTestSecretKey: return "a test-mode key grants full access to the Stripe account's test data"
        case .slackToken: return "it acts as the Slack user or bot it was issued to"
        case .slackWebhook: return "anyone can post to the workspace channel with it"
        case .githubToken: return "it acts as the GitHub account it was issued to"
        case .sendGridKey: return "it sends mail as the account's verified senders"
        case .googleAPIKey: return "it identifies a Google Cloud project; billed APIs are open to anyone unless the key is restricted to this app"
        case .namedSecret: return "a build-time configuration value whose name says it is a secret or an API key; whoever reads the binary has it"
        }
    }
}

/// One secret found in a file, already masked: no value of this type holds the secret itself.
public struct FoundSecret: Sendable, Hashable {
    public var kind: SecretKind
    /// `AKIA…Z5M (20 characters)`: the first four and last two characters and the length.
    public var masked: String
    /// 1-based, when the file is text.
    public var line: Int?
    public var column: Int?

    public init(kind: SecretKind, masked: String, line: Int? = nil, column: Int? = nil) {
        self.kind = kind
        self.masked = masked
        self.line = line
        self.column = column
    }
}

public enum SecretMask {
    /// The first four and the last two characters, with the length; a value of ten characters
    /// or fewer shows nothing of itself.
    public static func mask<S: StringProtocol>(_ secret: S) -> String {
        let chars = Array(secret)
        guard chars.count > 10 else { return "\(String(repeating: "•", count: 4)) (\(chars.count) characters)" }
        return "\(String(chars.prefix(4)))…\(String(chars.suffix(2))) (\(chars.count) characters)"
    }
}
