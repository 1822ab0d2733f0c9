import Foundation
import Artifacts

/// What the code of each bundle uses, with proof. Filled by the detectors.
public struct EvidenceIndex: Sendable {
    public init() {}
}
