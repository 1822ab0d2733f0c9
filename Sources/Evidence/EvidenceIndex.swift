import Foundation
import Artifacts

/// What the code of each bundle uses, with proof. Detectors fill it from binaries and sources.
public struct EvidenceIndex: Sendable {
    public init() {}

    public static func build(_ input: LoadedInput) -> EvidenceIndex {
        EvidenceIndex()
    }
}
