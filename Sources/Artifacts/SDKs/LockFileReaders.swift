import Foundation
import Formats

/// A pod pinned by a `Podfile.lock`: its name (a subspec `A/B` folds into `A`), version and,
/// for a pod from elsewhere than a spec repository, where it comes from.
struct PodPin: Sendable, Equatable {
    var name: String
    var version: String?
    var location: FileLocation
    /// `path: ../Local` or `git: https://…` from `EXTERNAL SOURCES`.
    var externalSource: String?
    /// The folder of a development pod (`:path`), relative to the Podfile's folder.
    var localPath: String?
}

/// Reads the `PODS` and `EXTERNAL SOURCES` sections of a `Podfile.lock` (YAML) under the
/// reader limits. A document that is not YAML, or whose `PODS` is not a list, is a
/// `FormatError`.
enum PodfileLockReader {
    static let format = "Podfile.lock"

    static func read(_ text: String, path: String, limits: ReaderLimits) throws -> [PodPin] {
        let root: YAMLNode?
        do {
            root = try YAMLReader.read(text, file: path, baseDir: PathUtil.parent(path), limits: limits)
        } catch var e as FormatError {
            e.format = format
            throw e
        }
        guard let root else { return [] }
        guard root.mapping != nil else { throw FormatError(.malformed, format: format, reason: "the document is not a mapping", line: root.position.line) }
        guard let podsEntry = root.entry("PODS") else { return [] }
        guard let pods = podsEntry.value.sequence else {
            throw FormatError(.malformed, format: format, reason: "PODS is not a list", line: podsEntry.keyPosition.line, column: podsEntry.keyPosition.column)
        }
        var external: [String: (source: String, path: String?)] = [:]
        for (name, value) in root["EXTERNAL SOURCES"]?.mapping?.map({ ($0.key, $0.value) }) ?? [] {
            let options = value.mapping ?? []
            let description = options.compactMap { o in o.value.string.map { "\(o.key.drop { $0 == ":" }): \($0)" } }.joined(separator: ", ")
            external[name] = (description, value[":path"]?.string)
        }
        var out: [PodPin] = []
        var index: [String: Int] = [:]
        for item in pods {
            let text: String, position: SourcePosition
            if let s = item.string {
                text = s
                position = item.position
            } else if let m = item.mapping, m.count == 1 {
                text = m[0].key
                position = m[0].keyPosition
            } else {
                throw FormatError(.malformed, format: format, reason: "a PODS entry is neither a name nor a name with dependencies",
                                  line: item.position.line, column: item.position.column)
            }
            guard let (full, version) = split(text) else {
                throw FormatError(.malformed, format: format, reason: "PODS entry \"\(text.prefix(80))\" has no \"Name (version)\" form",
                                  line: position.line, column: position.column)
            }
            let name = String(full.split(separator: "/", maxSplits: 1).first ?? Substring(full))
            guard index[name] == nil else { continue }
            index[name] = out.count
            let ext = external[name]
            out.append(PodPin(name: name, version: version, location: FileLocation(path: path, position: position),
                              externalSource: ext?.source, localPath: ext?.path))
        }
        return out
    }

    /// `Name/Sub (1.2.3)` → (`Name/Sub`, `1.2.3`).
    static func split(_ entry: String) -> (String, String?)? {
        let t = entry.trimmingCharacters(in: .whitespaces)
        guard let open = t.firstIndex(of: "(") else { return t.isEmpty || t.contains(" ") ? nil : (t, nil) }
        guard t.hasSuffix(")") else { return nil }
        let name = t[..<open].trimmingCharacters(in: .whitespaces)
        let version = t[t.index(after: open)..<t.index(before: t.endIndex)].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, !name.contains(" ") else { return nil }
        return (name, version.isEmpty ? nil : version)
    }
}

/// A package pinned by a `Package.resolved` (format 1, 2 or 3).
struct PackagePin: Sendable, Equatable {
    /// The identity (lower-cased last path component of the location) in formats 2 and 3; the
    /// lower-cased package name in format 1.
    var identity: String
    /// The name to show: the package name of format 1, else the repository's name.
    var name: String
    var url: String?
    var version: String?
    var branch: String?
    var revision: String?
    /// Where the pin is written (its identity or package name).
    var location: FileLocation

    /// The repository's last path component without `.git`.
    var repositoryName: String? {
        guard let url else { return nil }
        var n = PathUtil.lastComponent(url.trimmingCharacters(in: CharacterSet(charactersIn: "/")))
        if n.hasSuffix(".git") { n = String(n.dropLast(4)) }
        return n.isEmpty ? nil : n
    }
}

/// Reads SwiftPM's `Package.resolved` with the bounded JSON reader: `{"object": {"pins":
/// [{"package", "repositoryURL", "state"}]}, "version": 1}` and `{"pins": [{"identity",
/// "kind", "location", "state"}], "version": 2|3}`.
enum PackageResolvedReader {
    static let format = "Package.resolved"

    static func read(_ data: Data, path: String, limits: ReaderLimits) throws -> [PackagePin] {
        let root: PlistNode
        do {
            root = try JSONReader.parse(data, limits: limits, nullValue: .string(""))
        } catch var e as FormatError {
            e.format = format
            throw e
        }
        guard root.dictionary != nil else { throw FormatError(.malformed, format: format, reason: "the document is not a JSON object", line: 1) }
        let version = root["version"]?.integer
        let pinsNode = version == 1 ? root["object"]?["pins"] : root["pins"]
        guard let pins = pinsNode?.array else {
            if pinsNode == nil, let version, version > 3 {
                throw FormatError(.unsupported, format: format, reason: "format version \(version) is not known")
            }
            throw FormatError(.malformed, format: format, reason: "no \"pins\" list", line: root.position?.line)
        }
        var out: [PackagePin] = []
        for pin in pins {
            guard pin.dictionary != nil else {
                throw FormatError(.malformed, format: format, reason: "a pin is not an object", line: pin.position?.line, column: pin.position?.column)
            }
            let nameNode = pin["identity"] ?? pin["package"]
            let url = nonEmpty(pin["location"]?.string ?? pin["repositoryURL"]?.string)
            guard let raw = nonEmpty(nameNode?.string) ?? url.map({ PathUtil.lastComponent($0) }) else {
                throw FormatError(.malformed, format: format, reason: "a pin names no package", line: pin.position?.line, column: pin.position?.column)
            }
            var p = PackagePin(identity: raw.lowercased(), name: raw, url: url,
                               version: nonEmpty(pin["state"]?["version"]?.string), branch: nonEmpty(pin["state"]?["branch"]?.string),
                               revision: nonEmpty(pin["state"]?["revision"]?.string),
                               location: FileLocation(path: path, position: nameNode?.position ?? pin.position))
            if pin["identity"] != nil, let repo = p.repositoryName { p.name = repo }
            out.append(p)
        }
        return out
    }

    static func nonEmpty(_ s: String?) -> String? {
        guard let t = s?.trimmingCharacters(in: .whitespacesAndNewlines), !t.isEmpty else { return nil }
        return t
    }
}

/// A dependency of a `Cartfile.resolved`: `github "owner/Name" "1.2.3"`, `git "url" "v1"`,
/// `binary "url.json" "2.0"`.
struct CartfilePin: Sendable, Equatable {
    var name: String
    var version: String?
    var origin: String
    var location: FileLocation
}

enum CartfileResolvedReader {
    static let format = "Cartfile.resolved"
    /// Lines read at most (a Cartfile.resolved has one per dependency).
    static let maxLines = 100_000

    static func read(_ text: String, path: String, limits: ReaderLimits) throws -> [CartfilePin] {
        var out: [CartfilePin] = []
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard i < maxLines else { throw FormatError.limit(format, "lines", "more than \(maxLines) lines") }
            let line = raw.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\r")))
            if line.isEmpty || line.hasPrefix("#") { continue }
            let words = quotedWords(line)
            guard words.count == 3, ["github", "git", "binary"].contains(words[0]) else {
                throw FormatError(.malformed, format: format, reason: "expected `github|git|binary \"source\" \"version\"`",
                                  line: i + 1, column: 1)
            }
            var name = PathUtil.lastComponent(words[1].trimmingCharacters(in: CharacterSet(charactersIn: "/")))
            if name.hasSuffix(".git") { name = String(name.dropLast(4)) }
            if name.hasSuffix(".json") { name = String(name.dropLast(5)) }
            guard !name.isEmpty else { throw FormatError(.malformed, format: format, reason: "an entry names no source", line: i + 1, column: 1) }
            out.append(CartfilePin(name: name, version: words[2].isEmpty ? nil : words[2], origin: words[0] + " " + words[1],
                                   location: FileLocation(path: path, position: SourcePosition(line: i + 1, column: 1))))
        }
        return out
    }

    /// `github "a/b" "1.0"` → [`github`, `a/b`, `1.0`]; nil-free, quotes removed.
    static func quotedWords(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quoted = false
        for ch in line {
            if ch == "\"" {
                if quoted { words.append(current); current = "" }
                quoted.toggle()
            } else if ch == " " || ch == "\t", !quoted {
                if !current.isEmpty { words.append(current); current = "" }
            } else {
                current.append(ch)
            }
        }
        if !current.isEmpty { words.append(current) }
        return quoted ? [] : words
    }
}
