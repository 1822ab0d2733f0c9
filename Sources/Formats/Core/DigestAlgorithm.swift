import Foundation

/// The hash a code signature names: a CodeDirectory's `hashType`, a `CodeResources` entry's
/// `hash` (SHA-1) or `hash2` (SHA-256).
public enum DigestAlgorithm: String, Sendable, Equatable {
    case sha1, sha256

    /// The CodeDirectory `hashType` byte: 1 SHA-1, 2 SHA-256, 3 SHA-256 truncated to 20 bytes.
    public init?(codeDirectoryHashType t: UInt8) {
        switch t {
        case 1: self = .sha1
        case 2, 3: self = .sha256
        default: return nil
        }
    }

    public var length: Int { self == .sha1 ? 20 : 32 }

    public func hash(_ bytes: [UInt8]) -> [UInt8] {
        self == .sha1 ? SHA1Digest.hash(bytes) : SHA256Digest.hash(bytes)
    }
}
