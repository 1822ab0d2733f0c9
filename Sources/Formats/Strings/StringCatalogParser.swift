import Foundation

/// One language's entry for a catalog string.
public struct CatalogLocalization: Sendable, Equatable {
    public var language: String
    /// `stringUnit.state` (`translated`, `needs_review`, `new`, `stale`…), if any.
    public var state: String?
    /// `stringUnit.value`, if any.
    public var value: String?
    /// True when the localization has `variations` (plural, device…) instead of or besides a value.
    public var hasVariations: Bool
    public var position: SourcePosition?

    public init(language: String, state: String? = nil, value: String? = nil, hasVariations: Bool = false, position: SourcePosition? = nil) {
        self.language = language
        self.state = state
        self.value = value
        self.hasVariations = hasVariations
        self.position = position
    }
}

/// One key of a string catalog.
public struct CatalogString: Sendable, Equatable {
    public var key: String
    public var position: SourcePosition?
    public var comment: String?
    public var extractionState: String?
    /// `shouldTranslate`, true when absent.
    public var shouldTranslate: Bool
    public var localizations: [CatalogLocalization]

    public init(key: String, position: SourcePosition? = nil, comment: String? = nil, extractionState: String? = nil,
                shouldTranslate: Bool = true, localizations: [CatalogLocalization] = []) {
        self.key = key
        self.position = position
        self.comment = comment
        self.extractionState = extractionState
        self.shouldTranslate = shouldTranslate
        self.localizations = localizations
    }

    public func localization(_ language: String) -> CatalogLocalization? {
        localizations.last(where: { $0.language == language })
    }
}

/// An Xcode string catalog (`.xcstrings`, JSON).
public struct StringCatalog: Sendable, Equatable {
    public var sourceLanguage: String
    public var version: String?
    public var strings: [CatalogString]

    public init(sourceLanguage: String, version: String? = nil, strings: [CatalogString] = []) {
        self.sourceLanguage = sourceLanguage
        self.version = version
        self.strings = strings
    }

    /// Every language that has at least one localization, sorted.
    public var languages: [String] {
        Array(Set(strings.flatMap { $0.localizations.map(\.language) })).sorted()
    }
}

/// Reads `.xcstrings` files with `JSONReader` (bounded, with positions) and checks the
/// structure: each wrong type is an error naming the key path and its position.
public enum StringCatalogParser {
    public static let formatName = "string catalog"

    public static func parse(_ data: Data, limits: ReaderLimits = .default) throws -> StringCatalog {
        let root = try JSONReader.parse(data, limits: limits)
        guard let dict = root.dictionary else { throw error("the top level is not an object", root.position) }
        guard let sl = dict["sourceLanguage"] else { throw error("missing \"sourceLanguage\"", root.position) }
        guard let sourceLanguage = sl.string else { throw error("\"sourceLanguage\" is not a string", sl.position) }
        var catalog = StringCatalog(sourceLanguage: sourceLanguage)
        if let v = dict["version"] {
            guard let s = v.string else { throw error("\"version\" is not a string", v.position) }
            catalog.version = s
        }
        guard let stringsNode = dict["strings"] else { return catalog }
        guard let strings = stringsNode.dictionary else { throw error("\"strings\" is not an object", stringsNode.position) }
        catalog.strings.reserveCapacity(strings.entries.count)
        for e in strings.entries {
            guard let body = e.value.dictionary else {
                throw error("strings.\(e.key) is not an object", e.value.position)
            }
            var s = CatalogString(key: e.key, position: e.keyPosition)
            s.comment = try optionalString(body, "comment", path: "strings.\(e.key)")
            s.extractionState = try optionalString(body, "extractionState", path: "strings.\(e.key)")
            if let st = body["shouldTranslate"] {
                guard let b = st.bool else { throw error("strings.\(e.key).shouldTranslate is not a boolean", st.position) }
                s.shouldTranslate = b
            }
            if let locs = body["localizations"] {
                guard let ld = locs.dictionary else { throw error("strings.\(e.key).localizations is not an object", locs.position) }
                for l in ld.entries {
                    let path = "strings.\(e.key).localizations.\(l.key)"
                    guard let lb = l.value.dictionary else { throw error("\(path) is not an object", l.value.position) }
                    var loc = CatalogLocalization(language: l.key, position: l.keyPosition)
                    if let unit = lb["stringUnit"] {
                        guard let ud = unit.dictionary else { throw error("\(path).stringUnit is not an object", unit.position) }
                        loc.state = try optionalString(ud, "state", path: "\(path).stringUnit")
                        loc.value = try optionalString(ud, "value", path: "\(path).stringUnit")
                    }
                    if let variations = lb["variations"] {
                        guard variations.dictionary != nil else { throw error("\(path).variations is not an object", variations.position) }
                        loc.hasVariations = true
                    }
                    s.localizations.append(loc)
                }
            }
            catalog.strings.append(s)
        }
        return catalog
    }

    private static func optionalString(_ d: PlistDictionary, _ key: String, path: String) throws -> String? {
        guard let n = d[key] else { return nil }
        guard let s = n.string else { throw error("\(path).\(key) is not a string", n.position) }
        return s
    }

    private static func error(_ reason: String, _ pos: SourcePosition?) -> FormatError {
        FormatError(.malformed, format: formatName, reason: reason, line: pos?.line, column: pos?.column)
    }
}
