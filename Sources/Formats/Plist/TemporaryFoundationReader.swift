import Foundation
// TEMPORARY until the hand-written readers land from the plists branch; deleted at merge.
public enum PropertyListReader {
    public static func read(_ data: Data, limits: ReaderLimits = .default) throws -> (root: PlistNode, format: PlistFormat) {
        if data.starts(with: Array("bplist".utf8)) || data.range(of: Data("<plist".utf8)) != nil || data.range(of: Data("<?xml".utf8)) != nil {
            var fmt = PropertyListSerialization.PropertyListFormat.xml
            guard let obj = try? PropertyListSerialization.propertyList(from: data, options: [], format: &fmt) else {
                throw FormatError.malformed("property list", "cannot parse")
            }
            return (convert(obj), fmt == .binary ? .binary : .xml)
        }
        return (try OpenStepParser.parse(data, limits: limits), .openStep)
    }
    static func convert(_ o: Any) -> PlistNode {
        switch o {
        case let s as String: return PlistNode(.string(s))
        case let b as Bool where type(of: o) == type(of: true as NSNumber) || o is Bool: return PlistNode(.bool(b))
        case let n as NSNumber: return PlistNode(.integer(n.int64Value))
        case let d as Data: return PlistNode(.data(d))
        case let d as Date: return PlistNode(.date(d))
        case let a as [Any]: return PlistNode(.array(a.map(convert)))
        case let d as [String: Any]: return PlistNode(.dictionary(PlistDictionary(d.sorted { $0.key < $1.key }.map { PlistEntry(key: $0.key, value: convert($0.value)) })))
        default: return PlistNode(.string("\(o)"))
        }
    }
}
