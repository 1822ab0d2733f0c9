import Foundation
import Artifacts
import Evidence

/// How rules judge and show a use of an API: whether the bundle certainly runs it, a readable
/// description, and the evidence reference.
enum UsageReading {
    /// Whether the use is certainly code this bundle runs: its binaries, its own sources in its
    /// folder, and linked or embedded code its own code names. Other linked code, frameworks'
    /// own sources and the bundle's sources outside its folder may never run in it, or be
    /// stripped by the linker.
    static func isDirect(_ u: Usage, host: AppBundle) -> Bool {
        switch u.location {
        case .binary: return true
        case .source(let path, _, _):
            switch u.origin {
            case .linked: return u.reached
            case .app, .sdk:
                return u.bundle == host.name && (host.isHome(path) || u.reached)
            }
        }
    }

    /// `UserDefaults at App/Settings.swift:12, in package Prefs`, `_stat in Frameworks/…`.
    static func describe(_ u: Usage) -> String {
        let via: String
        if case .linked = u.origin { via = ", in \(u.origin.label)" } else { via = "" }
        switch u.location {
        case .source(let p, let l, _): return "\(u.api) at \(p):\(l)\(via)"
        case .binary(let p, _): return "\(u.api) in \(p)"
        }
    }

    static func evidenceRef(_ u: Usage) -> EvidenceRef {
        switch u.location {
        case .source(let p, let l, _): return .file(path: p, line: l)
        case .binary(let p, let s): return .symbol(binary: p, symbol: s)
        }
    }
}
