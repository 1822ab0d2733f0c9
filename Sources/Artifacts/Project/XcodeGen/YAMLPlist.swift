import Foundation
import Formats

extension YAMLNode {
    /// The node as a property-list value, typed the way Yams constructs plain scalars for
    /// XcodeGen (booleans, integers, reals; quoted scalars stay strings), keeping positions.
    var plistNode: PlistNode {
        switch value {
        case .scalar(let s, let quoted):
            if !quoted {
                if let b = bool { return PlistNode(.bool(b), position: position) }
                if let i = Int64(s) { return PlistNode(.integer(i), position: position) }
                if s.contains("."), let d = Double(s), d.isFinite { return PlistNode(.real(d), position: position) }
            }
            return PlistNode(.string(s), position: position)
        case .sequence(let items):
            return PlistNode(.array(items.map(\.plistNode)), position: position)
        case .mapping(let pairs):
            return PlistNode(.dictionary(PlistDictionary(pairs.map {
                PlistEntry(key: $0.key, keyPosition: $0.keyPosition, value: $0.value.plistNode)
            })), position: position)
        }
    }

    /// A build setting value as XcodeGen writes it: booleans as YES/NO, lists joined with
    /// spaces (items with spaces quoted); nil for mappings.
    var settingValue: String? {
        switch value {
        case .scalar(let s, _):
            if let b = bool { return b ? "YES" : "NO" }
            return s
        case .sequence(let items):
            return items.compactMap(\.string).map { $0.contains(" ") && !$0.hasPrefix("\"") ? "\"\($0)\"" : $0 }
                .joined(separator: " ")
        case .mapping:
            return nil
        }
    }
}
