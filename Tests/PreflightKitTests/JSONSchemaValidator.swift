import Foundation

/// A JSON Schema validator for the test suite: enough of drafts 04, 07 and 2020-12 for
/// `docs/json-schema.json` and the official SARIF 2.1.0 schema. A keyword it does not know is an
/// error, never silently ignored, so a schema that needs more fails the test instead of passing it.
struct JSONSchemaValidator {
    let root: [String: Any]

    /// Keywords that only annotate: they never reject a value.
    static let annotations: Set<String> = ["$schema", "$id", "id", "title", "description", "default", "examples", "$comment",
                                           "definitions", "$defs", "deprecated", "readOnly", "writeOnly"]
    /// Keywords that are checked.
    static let assertions: Set<String> = ["$ref", "type", "const", "enum", "required", "properties", "patternProperties",
                                          "additionalProperties", "minProperties", "maxProperties", "dependencies",
                                          "items", "minItems", "maxItems", "uniqueItems", "minimum", "maximum",
                                          "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength",
                                          "pattern", "format", "anyOf", "oneOf", "allOf", "not"]
    static let formats: Set<String> = ["uri", "uri-reference", "date-time"]

    func errors(_ value: Any) -> [String] { errors(value, root, at: "$") }

    /// Keywords or formats in the schema that this validator would not check.
    func unsupported() -> [String] {
        var out: Set<String> = []
        func walk(_ node: Any, isMap: Bool) {
            if let object = node as? [String: Any] {
                for (key, sub) in object {
                    if isMap { walk(sub, isMap: false); continue }
                    if !Self.annotations.contains(key) && !Self.assertions.contains(key) { out.insert("keyword \(key)") }
                    if key == "format", let f = sub as? String, !Self.formats.contains(f) { out.insert("format \(f)") }
                    if ["enum", "const", "default", "examples", "required"].contains(key) { continue }
                    walk(sub, isMap: ["properties", "patternProperties", "definitions", "$defs", "dependencies"].contains(key))
                }
            } else if let list = node as? [Any] {
                for sub in list { walk(sub, isMap: false) }
            }
        }
        walk(root, isMap: false)
        return out.sorted()
    }

    /// The schema a local reference (`#`, `#/definitions/x`, `#/$defs/x`, any JSON pointer) names.
    func resolve(_ ref: String) -> [String: Any]? {
        guard ref.hasPrefix("#") else { return nil }
        var node: Any = root
        for token in ref.dropFirst().split(separator: "/", omittingEmptySubsequences: true) {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            if let object = node as? [String: Any], let next = object[key] {
                node = next
            } else if let list = node as? [Any], let i = Int(key), list.indices.contains(i) {
                node = list[i]
            } else {
                return nil
            }
        }
        return node as? [String: Any]
    }

    func errors(_ value: Any, _ schema: [String: Any], at path: String) -> [String] {
        if let ref = schema["$ref"] as? String {
            guard let target = resolve(ref) else { return ["\(path): unknown \(ref)"] }
            // Drafts before 2019-09 ignore a $ref's siblings; 2020-12 applies them too. Neither
            // schema here puts assertions beside a $ref, so both are checked.
            var rest = schema
            rest["$ref"] = nil
            return errors(value, target, at: path) + errors(value, rest, at: path)
        }
        var out: [String] = []
        if let types = (schema["type"] as? [String]) ?? (schema["type"] as? String).map({ [$0] }),
           !types.contains(where: { Self.kind(of: value, is: $0) }) {
            return ["\(path): \(Self.describe(value)) is not \(types.joined(separator: " or "))"]
        }
        if let c = schema["const"], !Self.equal(c, value) { out.append("\(path): \(Self.describe(value)) is not \(Self.describe(c))") }
        if let options = schema["enum"] as? [Any], !options.contains(where: { Self.equal($0, value) }) {
            out.append("\(path): \(Self.describe(value)) is not one of \(options.map(Self.describe))")
        }
        if let s = value as? String {
            out += stringErrors(s, schema, at: path)
        }
        if let n = Self.number(value) {
            out += numberErrors(n, schema, at: path)
        }
        if let object = value as? [String: Any] {
            out += objectErrors(object, schema, at: path)
        }
        if let array = value as? [Any] {
            out += arrayErrors(array, schema, at: path)
        }
        if let all = schema["allOf"] as? [[String: Any]] {
            for sub in all { out += errors(value, sub, at: path) }
        }
        if let any = schema["anyOf"] as? [[String: Any]] {
            let branches = any.map { errors(value, $0, at: path) }
            if !branches.contains(where: \.isEmpty) {
                out.append("\(path): matches none of anyOf (\(branches.map { $0.first ?? "" }.joined(separator: "; ")))")
            }
        }
        if let one = schema["oneOf"] as? [[String: Any]] {
            let branches = one.map { errors(value, $0, at: path) }
            let matching = branches.filter(\.isEmpty).count
            if matching != 1 {
                out.append("\(path): matches \(matching) of oneOf, not exactly one (\(branches.map { $0.first ?? "ok" }.joined(separator: "; ")))")
            }
        }
        if let not = schema["not"] as? [String: Any], errors(value, not, at: path).isEmpty {
            out.append("\(path): matches a schema under not")
        }
        return out
    }

    func stringErrors(_ s: String, _ schema: [String: Any], at path: String) -> [String] {
        var out: [String] = []
        let length = s.unicodeScalars.count
        if let min = schema["minLength"] as? Int, length < min { out.append("\(path): \(Self.describe(s)) shorter than \(min)") }
        if let max = schema["maxLength"] as? Int, length > max { out.append("\(path): \(Self.describe(s)) longer than \(max)") }
        if let pattern = schema["pattern"] as? String, s.range(of: pattern, options: .regularExpression) == nil {
            out.append("\(path): \(s) does not match \(pattern)")
        }
        if let format = schema["format"] as? String, !Self.conforms(s, to: format) {
            out.append("\(path): \(Self.describe(s)) is not a \(format)")
        }
        return out
    }

    func numberErrors(_ n: Double, _ schema: [String: Any], at path: String) -> [String] {
        var out: [String] = []
        // Draft 04: exclusiveMinimum/Maximum are booleans beside minimum/maximum; later, numbers.
        if let min = Self.number(schema["minimum"] as Any) {
            if schema["exclusiveMinimum"] as? Bool == true ? n <= min : n < min { out.append("\(path): \(n) below the minimum \(min)") }
        }
        if let max = Self.number(schema["maximum"] as Any) {
            if schema["exclusiveMaximum"] as? Bool == true ? n >= max : n > max { out.append("\(path): \(n) above the maximum \(max)") }
        }
        if !Self.isBoolean(schema["exclusiveMinimum"] as Any), let min = Self.number(schema["exclusiveMinimum"] as Any), n <= min {
            out.append("\(path): \(n) not above \(min)")
        }
        if !Self.isBoolean(schema["exclusiveMaximum"] as Any), let max = Self.number(schema["exclusiveMaximum"] as Any), n >= max {
            out.append("\(path): \(n) not below \(max)")
        }
        if let m = Self.number(schema["multipleOf"] as Any), m > 0, (n / m).rounded() != n / m {
            out.append("\(path): \(n) is not a multiple of \(m)")
        }
        return out
    }

    func objectErrors(_ object: [String: Any], _ schema: [String: Any], at path: String) -> [String] {
        var out: [String] = []
        for key in schema["required"] as? [String] ?? [] where object[key] == nil { out.append("\(path): no \(key)") }
        if let min = schema["minProperties"] as? Int, object.count < min { out.append("\(path): fewer than \(min) properties") }
        if let max = schema["maxProperties"] as? Int, object.count > max { out.append("\(path): more than \(max) properties") }
        let properties = schema["properties"] as? [String: Any] ?? [:]
        let patterns = schema["patternProperties"] as? [String: Any] ?? [:]
        for key in object.keys.sorted() {
            let v = object[key]!
            let at = "\(path).\(key)"
            var matched = false
            if let sub = properties[key] as? [String: Any] {
                matched = true
                out += errors(v, sub, at: at)
            }
            for (pattern, sub) in patterns where key.range(of: pattern, options: .regularExpression) != nil {
                matched = true
                if let sub = sub as? [String: Any] { out += errors(v, sub, at: at) }
            }
            if matched { continue }
            if let additional = schema["additionalProperties"], Self.isBoolean(additional), (additional as? NSNumber)?.boolValue == false {
                out.append("\(path): unexpected \(key)")
            } else if let sub = schema["additionalProperties"] as? [String: Any] {
                out += errors(v, sub, at: at)
            }
        }
        for (key, dependency) in schema["dependencies"] as? [String: Any] ?? [:] where object[key] != nil {
            if let names = dependency as? [String] {
                for name in names where object[name] == nil { out.append("\(path): \(key) needs \(name)") }
            } else if let sub = dependency as? [String: Any] {
                out += errors(object, sub, at: path)
            }
        }
        return out
    }

    func arrayErrors(_ array: [Any], _ schema: [String: Any], at path: String) -> [String] {
        var out: [String] = []
        if let min = schema["minItems"] as? Int, array.count < min { out.append("\(path): fewer than \(min) items") }
        if let max = schema["maxItems"] as? Int, array.count > max { out.append("\(path): more than \(max) items") }
        if schema["uniqueItems"] as? Bool == true {
            for i in array.indices {
                for j in array.indices where j > i && Self.equal(array[i], array[j]) {
                    out.append("\(path): items \(i) and \(j) are equal")
                }
            }
        }
        if let items = schema["items"] as? [String: Any] {
            for (i, v) in array.enumerated() { out += errors(v, items, at: "\(path)[\(i)]") }
        } else if let tuple = schema["items"] as? [[String: Any]] {
            for (i, v) in array.enumerated() where i < tuple.count { out += errors(v, tuple[i], at: "\(path)[\(i)]") }
        }
        return out
    }

    // MARK: JSON values as JSONSerialization gives them

    /// `true` and `false` come back as NSNumbers that also cast to Int; their type tells them apart.
    static func isBoolean(_ value: Any) -> Bool {
        guard let n = value as? NSNumber else { return false }
        return String(cString: n.objCType) == "c"
    }

    static func number(_ value: Any) -> Double? {
        guard !isBoolean(value), let n = value as? NSNumber else { return nil }
        return n.doubleValue
    }

    static func kind(of value: Any, is type: String) -> Bool {
        switch type {
        case "null": return value is NSNull
        case "object": return value is [String: Any]
        case "array": return value is [Any]
        case "string": return value is String
        case "boolean": return isBoolean(value)
        case "integer": return number(value).map { $0.rounded() == $0 } ?? false
        case "number": return number(value) != nil
        default: return false
        }
    }

    /// JSON equality: same kind, same value; objects and arrays member by member.
    static func equal(_ a: Any, _ b: Any) -> Bool {
        if a is NSNull || b is NSNull { return a is NSNull && b is NSNull }
        if isBoolean(a) || isBoolean(b) { return isBoolean(a) && isBoolean(b) && (a as? NSNumber)?.boolValue == (b as? NSNumber)?.boolValue }
        if let x = number(a) { return number(b) == x }
        if let x = a as? String { return (b as? String) == x }
        if let x = a as? [Any] {
            guard let y = b as? [Any], x.count == y.count else { return false }
            return zip(x, y).allSatisfy { equal($0, $1) }
        }
        if let x = a as? [String: Any] {
            guard let y = b as? [String: Any], Set(x.keys) == Set(y.keys) else { return false }
            return x.keys.allSatisfy { equal(x[$0]!, y[$0]!) }
        }
        return false
    }

    static func describe(_ value: Any) -> String {
        if isBoolean(value) { return (value as? NSNumber)?.boolValue == true ? "true" : "false" }
        return "\(value)"
    }

    // MARK: Formats (RFC 3986 and RFC 3339), strictly

    static let uriCharacters = #"(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*"#
    static let formatPatterns: [String: String] = [
        "uri": #"^[A-Za-z][A-Za-z0-9+.\-]*:"# + uriCharacters + "$",
        "uri-reference": "^" + uriCharacters + "$",
        "date-time": #"^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?([Zz]|[+\-]([01]\d|2[0-3]):[0-5]\d)$"#,
    ]

    static func conforms(_ s: String, to format: String) -> Bool {
        guard let pattern = formatPatterns[format] else { return false }
        return s.range(of: pattern, options: .regularExpression) != nil
    }
}
