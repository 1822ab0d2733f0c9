import Foundation
import Artifacts

/// Load problems with one cause, whatever the number of targets that meet it: the same kind
/// (setting, and actual path for a case mismatch), the same path and the same referencing
/// location. A file reference built by ten targets, an xcconfig shared by every target or a
/// project-level setting is one mistake, reported once with the targets it affects.
struct ProblemGroup {
    /// The first problem met; its bundle is irrelevant, `bundles` lists them all.
    var problem: LoadProblem
    /// Every target concerned, sorted (empty when the problem names none).
    var bundles: [String]

    /// "App", "App and Widget", "3 targets: App, Share and Widget".
    var targetList: String {
        switch bundles.count {
        case 0: return "a target"
        case 1: return bundles[0]
        case 2: return "\(bundles[0]) and \(bundles[1])"
        default: return "\(bundles.count) targets: \(bundles.dropLast().joined(separator: ", ")) and \(bundles.last!)"
        }
    }

    /// Groups `problems` by cause, in the order causes are first met. Identity is structural
    /// (kind, path, referencing file and position), never message text.
    static func group(_ problems: [LoadProblem]) -> [ProblemGroup] {
        struct Cause: Hashable {
            var kind: String
            var setting: String
            var actual: String
            var path: String
            var from: FileLocation?
        }
        func cause(_ p: LoadProblem) -> Cause? {
            switch p.kind {
            case .missingReference(let setting):
                return Cause(kind: "missing", setting: setting, actual: "", path: p.path, from: p.referencedFrom)
            case .caseMismatch(let setting, let actual):
                return Cause(kind: "case", setting: setting, actual: actual, path: p.path, from: p.referencedFrom)
            default:
                return nil
            }
        }
        var out: [ProblemGroup] = []
        var index: [Cause: Int] = [:]
        for p in problems {
            guard let c = cause(p) else { continue }
            if let i = index[c] {
                if let b = p.bundle, !out[i].bundles.contains(b) { out[i].bundles.append(b) }
            } else {
                index[c] = out.count
                out.append(ProblemGroup(problem: p, bundles: p.bundle.map { [$0] } ?? []))
            }
        }
        for i in out.indices { out[i].bundles.sort() }
        return out
    }
}

extension Rule {
    /// A finding for a group: on the first target (sorted), naming the others in
    /// `alsoInBundles`, so that its fingerprint does not depend on the order of targets.
    func finding(for group: ProblemGroup, message: String, key: String, fix: String, fingerprint parts: [String]) -> Finding {
        let p = group.problem
        var f = finding(message, bundle: group.bundles.first, at: p.referencedFrom ?? FileLocation(path: p.path),
                        key: key, fix: fix, fingerprint: parts)
        f.alsoInBundles = Array(group.bundles.dropFirst())
        return f
    }
}
