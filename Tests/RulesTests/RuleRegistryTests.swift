import XCTest
@testable import Rules

/// A rule cannot be forgotten: every type in Sources/Rules that conforms to `Rule` is listed in
/// `RuleRegistry.all`, and every type listed there is declared in a file of Sources/Rules.
final class RuleRegistryTests: XCTestCase {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/Rules")

    /// Swift text with comments and string literals blanked out, so that a declaration written
    /// in a doc comment or in an example's source code is not taken for one.
    static func code(_ text: String) -> String {
        let c = Array(text)
        var out = ""
        func at(_ i: Int, _ s: String) -> Bool {
            var j = i
            for ch in s { guard j < c.count, c[j] == ch else { return false }; j += 1 }
            return true
        }
        /// Where a string literal starting at `i` (`"`, `"""`, `#"`…) ends, or nil if none starts.
        func skipString(_ i: Int) -> Int? {
            var j = i, hashes = 0
            while j < c.count, c[j] == "#" { hashes += 1; j += 1 }
            guard j < c.count, c[j] == "\"" else { return nil }
            let quotes = at(j, "\"\"\"") ? 3 : 1
            let close = String(repeating: "\"", count: quotes) + String(repeating: "#", count: hashes)
            let escape = "\\" + String(repeating: "#", count: hashes)
            j += quotes
            while j < c.count, !at(j, close) {
                if at(j, escape + "(") {
                    // An interpolation: code, possibly with string literals of its own.
                    j += escape.count + 1
                    var depth = 1
                    while j < c.count, depth > 0 {
                        if let end = skipString(j) { j = end; continue }
                        if c[j] == "(" { depth += 1 } else if c[j] == ")" { depth -= 1 }
                        j += 1
                    }
                } else if at(j, escape) {
                    j += escape.count + 1
                } else {
                    j += 1
                }
            }
            return min(j + close.count, c.count)
        }
        var i = 0
        while i < c.count {
            if at(i, "//") {
                while i < c.count, c[i] != "\n" { i += 1 }
            } else if at(i, "/*") {
                var depth = 0
                repeat {
                    if at(i, "/*") { depth += 1; i += 2 } else if at(i, "*/") { depth -= 1; i += 2 } else { i += 1 }
                } while depth > 0 && i < c.count
                out += " "
            } else if let end = skipString(i) {
                out += "\"\""
                i = end
            } else {
                out.append(c[i])
                i += 1
            }
        }
        return out
    }

    /// Names of the types a Swift file declares (or extends) as conforming to `Rule`:
    /// `struct X: Rule`, `public struct X: Sendable, Rule {`, `final class X<T>: Base, Rule where …`,
    /// `extension X: Rule`, inheritance lists across lines included.
    static func ruleTypes(in swift: String) -> [String] {
        let pattern = #"\b(?:struct|class|enum|actor|extension)\s+([A-Za-z_][A-Za-z0-9_.]*)\s*(?:<[^{>]*>)?\s*:\s*([^{]*)\{"#
        let regex = try! NSRegularExpression(pattern: pattern)
        let text = code(swift)
        let ns = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).compactMap { m in
            let inherited = ns.substring(with: m.range(at: 2))
            let clause = inherited.components(separatedBy: " where ")[0]
            let names = clause.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            guard names.contains(where: { $0 == "Rule" || $0 == "Rules.Rule" || $0.hasPrefix("Rule ") }) else { return nil }
            return String(ns.substring(with: m.range(at: 1)).split(separator: ".").last!)
        }
    }

    /// Type name → the files under Sources/Rules that declare it as a `Rule`.
    static func declaredRules() throws -> [String: [String]] {
        var out: [String: [String]] = [:]
        let root = sources.path
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [:] }
        for case let path as String in walker where path.hasSuffix(".swift") {
            let text = try String(contentsOfFile: root + "/" + path, encoding: .utf8)
            for name in ruleTypes(in: text) { out[name, default: []].append("Sources/Rules/" + path) }
        }
        return out
    }

    func testTheMatcherFindsEveryWayOfWritingAConformance() {
        let swift = #"""
        /// `struct Ignored: Rule` in a comment is not a declaration.
        public struct A: Rule {}
        struct B : Sendable, Rule, Equatable { }
        public final class C<T: Hashable>: NSObject, Rule where T: Sendable {}
        extension D: Rule {}
        struct E:
            Sendable,
            Rule
        {}
        /* struct InBlockComment: Rule {} */
        struct NotARule: RuleProtocolLookalike, Rules {}
        let text = "struct InString: Rule {}"
        let raw = #"struct InRawString: Rule {}"#
        let interpolated = "\(name ?? "-") struct InInterpolation: Rule {}"
        let code = """
            struct InMultiLineString: Rule {}
            """
        protocol Rule {}
        """#
        XCTAssertEqual(Self.ruleTypes(in: swift), ["A", "B", "C", "D", "E"])
    }

    func testEveryRuleTypeIsRegisteredAndEveryRegisteredRuleHasAFile() throws {
        let declared = try Self.declaredRules()
        let registered = RuleRegistry.all.map { String(describing: $0) }
        XCTAssertGreaterThan(declared.count, 0, "no Rule types found under \(Self.sources.path)")
        for (name, files) in declared.sorted(by: { $0.key < $1.key }) where !registered.contains(name) {
            XCTFail("\(name) (\(files.joined(separator: ", "))) conforms to Rule but RuleRegistry.all does not list it")
        }
        for name in registered where declared[name] == nil {
            XCTFail("RuleRegistry.all lists \(name), but no file under Sources/Rules declares it as a Rule")
        }
        XCTAssertEqual(registered.count, Set(registered).count, "RuleRegistry.all lists a rule twice")
    }
}
