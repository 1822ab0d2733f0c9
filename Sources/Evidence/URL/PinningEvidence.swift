import Foundation
import Artifacts
import Formats

/// Certificate pinning implemented in a bundle's code: a positive fact `preflight inspect`
/// shows (OWASP MASVS-NETWORK-2), never a finding. Found by name, so it says what the code
/// *has*, not that every connection uses it.
public struct PinningFact: Sendable, Hashable {
    /// What implements it: `TrustKit`, `Alamofire ServerTrustManager`, `AFNetworking pinning
    /// mode`, `URLSession challenge handling`.
    public var kind: String
    /// The source file or binary that shows it.
    public var path: String

    public init(kind: String, path: String) {
        self.kind = kind
        self.path = path
    }
}

public enum PinningEvidence {
    /// Names that show a pinning library in use, in sources or among a binary's symbols.
    static let libraryMarkers: [(marker: String, kind: String)] = [
        ("TrustKit", "TrustKit"), ("TSKPinningValidator", "TrustKit"), ("kTSKPinnedDomains", "TrustKit"),
        ("PinnedCertificatesTrustEvaluator", "Alamofire ServerTrustManager"),
        ("PublicKeysTrustEvaluator", "Alamofire ServerTrustManager"),
        ("ServerTrustManager", "Alamofire ServerTrustManager"),
        ("pinCertificates", "Alamofire ServerTrustPolicy"), ("pinPublicKeys", "Alamofire ServerTrustPolicy"),
        ("AFSSLPinningModeCertificate", "AFNetworking pinning mode"), ("AFSSLPinningModePublicKey", "AFNetworking pinning mode"),
    ]
    /// A delegate that answers server-trust challenges and reads the server's certificate or
    /// key: all three must occur in one source file (answering the challenge alone is as often
    /// code that accepts any certificate, the opposite of pinning).
    static let challenge = ["didReceive challenge", "didReceiveChallenge"]
    static let trust = "serverTrust"
    static let comparison = ["SecCertificateCopyData", "SecTrustCopyKey", "SecTrustCopyPublicKey", "SecKeyCopyExternalRepresentation",
                             "SecTrustCopyCertificateChain", "SecTrustGetCertificateAtIndex"]
    static let sourceExtensions: Set<String> = ["swift", "m", "mm"]

    /// Folders of the libraries themselves: their own sources name the markers whether or not
    /// the app pins (AFNetworking's `AFHTTPSessionManager.m` names its pinning modes).
    static let libraryFolders = ["TrustKit", "Alamofire", "AFNetworking"]

    /// What one source file's text shows.
    public static func facts(inSource text: String, path: String) -> [PinningFact] {
        var kinds: [String] = []
        let components = path.split(separator: "/")
        let isLibrary = libraryFolders.contains { components.dropLast().contains(Substring($0)) }
        for (marker, kind) in libraryMarkers where !isLibrary && !kinds.contains(kind) && text.contains(marker) { kinds.append(kind) }
        if challenge.contains(where: text.contains), text.contains(trust), comparison.contains(where: text.contains) {
            kinds.append("URLSession challenge handling")
        }
        return kinds.map { PinningFact(kind: $0, path: path) }
    }

    /// What a binary's imported symbols and Objective-C class references show.
    public static func facts(inBinary binary: BinaryFile) -> [PinningFact] {
        var kinds: [String] = []
        for slice in binary.macho?.slices ?? [] {
            for name in slice.objcClassRefs + slice.importedSymbols {
                for (marker, kind) in libraryMarkers where !kinds.contains(kind) && name.contains(marker) { kinds.append(kind) }
            }
        }
        return kinds.map { PinningFact(kind: $0, path: binary.path) }
    }

    /// Per bundle id: the pinning its own sources, the code it links, and its binaries show.
    public static func scan(_ input: LoadedInput, maxFileBytes: Int = 4 << 20) -> [String: [PinningFact]] {
        var out: [String: [PinningFact]] = [:]
        for b in input.product.bundles where b.kind.ships {
            var facts: [PinningFact] = []
            let files = (b.sourceFiles + b.linkedCode.flatMap(\.files)).filter { sourceExtensions.contains(PathUtil.pathExtension($0)) }
            for path in Set(files).sorted() {
                guard let data = try? input.source.read(path), data.count <= maxFileBytes else { continue }
                facts += Self.facts(inSource: String(decoding: data, as: UTF8.self), path: path)
            }
            for binary in b.binaries { facts += Self.facts(inBinary: binary) }
            // One line per kind: the first place that shows it.
            var seen = Set<String>()
            facts = facts.filter { seen.insert($0.kind).inserted }
            if !facts.isEmpty { out[b.id] = facts }
        }
        return out
    }
}
