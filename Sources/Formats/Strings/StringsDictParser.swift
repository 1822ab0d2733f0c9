import Foundation

/// One key of a `.stringsdict` file.
public struct StringsDictEntry: Sendable, Equatable {
    public var key: String
    /// `NSStringLocalizedFormatKey`, e.g. `%#@files@`.
    public var formatKey: String?
    /// Variables referenced by the format key: name → plural category (`zero`, `one`, `two`,
    /// `few`, `many`, `other`) → format string.
    public var variables: [String: [String: String]]
    /// `NSStringFormatValueTypeKey` of each variable, e.g. `d`.
    public var valueTypes: [String: String]
    /// Widths of an `NSStringVariableWidthRuleType` entry, if it is one.
    public var widthVariants: [String: String]
    /// Devices of an `NSStringDeviceSpecificRuleType` entry (`iphone`, `ipad`, `mac`…), if it is one.
    public var deviceVariants: [String: String] = [:]
    public var position: SourcePosition?

    public init(key: String, formatKey: String? = nil, variables: [String: [String: String]] = [:],
                valueTypes: [String: String] = [:], widthVariants: [String: String] = [:], position: SourcePosition? = nil) {
        self.key = key
        self.formatKey = formatKey
        self.variables = variables
        self.valueTypes = valueTypes
        self.widthVariants = widthVariants
        self.position = position
    }
}

/// A `.stringsdict` file (a property list): entries in file order and the structural
/// problems found, each prefixed with the key path and position when known.
public struct StringsDict: Sendable, Equatable {
    public var entries: [StringsDictEntry]
    /// Structural problems that iOS would silently mishandle (missing `other`, missing
    /// `NSStringFormatSpecTypeKey`, a format key naming an undefined variable…).
    public var issues: [String]

    public init(entries: [StringsDictEntry] = [], issues: [String] = []) {
        self.entries = entries
        self.issues = issues
    }

    public subscript(key: String) -> StringsDictEntry? { entries.last(where: { $0.key == key }) }
}

/// Reads `.stringsdict` files (XML, binary or OpenStep property lists). Wrong types where
/// the format requires a dictionary are errors; missing pieces are `issues`.
public enum StringsDictParser {
    public static let formatName = "stringsdict file"
    static let categories: Set<String> = ["zero", "one", "two", "few", "many", "other"]

    public static func parse(_ data: Data, limits: ReaderLimits = .default) throws -> StringsDict {
        let root = try PropertyListReader.read(data, limits: limits).root
        guard let dict = root.dictionary else {
            throw error("the top level is a \(root.value.typeName), expected a dictionary", root.position)
        }
        var result = StringsDict()
        func issue(_ text: String, _ pos: SourcePosition?) {
            result.issues.append(pos.map { "\($0): \(text)" } ?? text)
        }
        for e in dict.entries {
            guard let body = e.value.dictionary else {
                throw error("value of key \"\(e.key)\" is a \(e.value.value.typeName), expected a dictionary", e.value.position ?? e.keyPosition)
            }
            var entry = StringsDictEntry(key: e.key, position: e.keyPosition)
            var isVariantRule = false
            for rule in ["NSStringVariableWidthRuleType", "NSStringDeviceSpecificRuleType"] {
                guard let node = body[rule] else { continue }
                isVariantRule = true
                guard let wd = node.dictionary else {
                    throw error("\(e.key).\(rule) is a \(node.value.typeName), expected a dictionary", node.position)
                }
                for w in wd.entries {
                    guard let s = w.value.string else {
                        issue("\(e.key).\(rule).\(w.key) is a \(w.value.value.typeName), expected a string", w.value.position)
                        continue
                    }
                    if rule == "NSStringVariableWidthRuleType" { entry.widthVariants[w.key] = s } else { entry.deviceVariants[w.key] = s }
                }
            }
            if isVariantRule {
                result.entries.append(entry)
                continue
            }
            if let fk = body["NSStringLocalizedFormatKey"] {
                if let s = fk.string { entry.formatKey = s }
                else { issue("\(e.key).NSStringLocalizedFormatKey is a \(fk.value.typeName), expected a string", fk.position) }
            } else {
                issue("\(e.key): missing NSStringLocalizedFormatKey", e.keyPosition)
            }
            for v in body.entries where v.key != "NSStringLocalizedFormatKey" {
                let path = "\(e.key).\(v.key)"
                guard let vd = v.value.dictionary else {
                    issue("\(path) is a \(v.value.value.typeName), expected a dictionary", v.value.position)
                    continue
                }
                var forms: [String: String] = [:]
                var specType: String?
                for f in vd.entries {
                    switch f.key {
                    case "NSStringFormatSpecTypeKey":
                        specType = f.value.string
                        if specType == nil { issue("\(path).NSStringFormatSpecTypeKey is a \(f.value.value.typeName), expected a string", f.value.position) }
                    case "NSStringFormatValueTypeKey":
                        if let s = f.value.string { entry.valueTypes[v.key] = s }
                        else { issue("\(path).NSStringFormatValueTypeKey is a \(f.value.value.typeName), expected a string", f.value.position) }
                    default:
                        guard let s = f.value.string else {
                            issue("\(path).\(f.key) is a \(f.value.value.typeName), expected a string", f.value.position)
                            continue
                        }
                        if !categories.contains(f.key) { issue("\(path): unknown plural category \"\(f.key)\"", f.keyPosition) }
                        forms[f.key] = s
                    }
                }
                if vd["NSStringFormatSpecTypeKey"] == nil {
                    issue("\(path): missing NSStringFormatSpecTypeKey", v.keyPosition)
                } else if let specType, specType != "NSStringPluralRuleType" {
                    issue("\(path): unknown NSStringFormatSpecTypeKey \"\(specType)\"", vd.entry("NSStringFormatSpecTypeKey")?.value.position)
                }
                if vd["NSStringFormatValueTypeKey"] == nil {
                    issue("\(path): missing NSStringFormatValueTypeKey", v.keyPosition)
                }
                if forms["other"] == nil {
                    issue("\(path): missing plural category \"other\"", v.keyPosition)
                }
                entry.variables[v.key] = forms
            }
            if let fk = entry.formatKey {
                for name in variableReferences(in: fk) where entry.variables[name] == nil {
                    issue("\(e.key): NSStringLocalizedFormatKey references undefined variable \"\(name)\"", body.entry("NSStringLocalizedFormatKey")?.value.position)
                }
            }
            result.entries.append(entry)
        }
        return result
    }

    /// Names in `%#@name@` (and positional `%1$#@name@`) references.
    static func variableReferences(in format: String) -> [String] {
        var out: [String] = []
        let s = Array(format.unicodeScalars)
        var k = 0
        while k < s.count {
            guard s[k] == "%" else { k += 1; continue }
            var j = k + 1
            while j < s.count, ("0"..."9").contains(s[j]) || s[j] == "$" { j += 1 }
            if j + 1 < s.count, s[j] == "#", s[j + 1] == "@" {
                var e = j + 2
                var name = String.UnicodeScalarView()
                while e < s.count, s[e] != "@" { name.append(s[e]); e += 1 }
                if e < s.count, !out.contains(String(name)) { out.append(String(name)) }
                k = e + 1
            } else {
                // `%%` is a literal percent sign; otherwise continue after the flags read.
                k = j < s.count && s[j] == "%" && j == k + 1 ? j + 1 : j
            }
        }
        return out
    }

    private static func error(_ reason: String, _ pos: SourcePosition?) -> FormatError {
        FormatError(.malformed, format: formatName, reason: reason, line: pos?.line, column: pos?.column)
    }
}
