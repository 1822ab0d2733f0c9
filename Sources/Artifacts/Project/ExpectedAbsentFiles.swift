import Foundation
import Formats

/// Paths a project references that a checkout is expected not to contain, so their absence is
/// no missing reference: files a Run Script phase produces (its `outputPaths`, the lines of
/// its readable `outputFileListPaths`, and the outputs of SwiftGen, R.swift and Sourcery
/// invocations in its script), paths the repository's `.gitignore` files exclude (downloaded
/// or generated at build time), git submodules that are not checked out (`.gitmodules` names
/// them; `git submodule update` fetches them), and documentation catalogs (`.docc`, never part
/// of the app).
struct ExpectedAbsentFiles {
    /// Input-relative files or folders (everything under a folder) that scripts produce.
    var generated: Set<String> = []
    var gitIgnore = GitIgnore()

    /// How many distinct paths the `.gitignore` files are asked about; past that (only a
    /// hostile project misses so many files) the rest are reported, never silently dropped.
    static let maxGitIgnoreQueries = 10_000

    /// Which of `paths` the checkout is expected to lack.
    func expected(_ paths: [String]) -> Set<String> {
        var out = Set<String>()
        var folders: [String: Bool] = [:]
        var asked = Set<String>()
        for path in Set(paths) {
            let p = PathUtil.normalize(path)
            if p.split(separator: "/").contains(where: { PathUtil.pathExtension(String($0)) == "docc" })
                || generated.contains(where: { p == $0 || p.hasPrefix($0 + "/") }) {
                out.insert(path)
                continue
            }
            guard !gitIgnore.isEmpty, asked.count < Self.maxGitIgnoreQueries, asked.insert(p).inserted else { continue }
            if gitIgnore.isIgnored(p, isDirectory: nil, folders: &folders) { out.insert(path) }
        }
        return out
    }
}

extension ProjectLoading {
    /// Reads every target's Run Script phases (any target kind: aggregate targets run scripts
    /// too) and the input's `.gitignore` files. `resolvers` expand build settings per target.
    func expectedAbsentFiles(resolvers: [String: BuildSettingsResolver]) -> ExpectedAbsentFiles {
        var out = ExpectedAbsentFiles()
        out.gitIgnore = GitIgnore.load(index: index, source: source, maxBytes: min(limits.maxFileBytes, 1 << 20))
        out.generated.formUnion(emptySubmodules())
        let fallback = BuildSettingsResolver(levels: [XcodeDefaultSettings.definitions(.init(
            projectName: projectName, targetName: "", productType: "", configuration: "Release", platform: "iphoneos"))],
            context: SettingsContext())
        for target in graph.ids(graph.rootID, "targets") {
            let resolver = resolvers[target] ?? fallback
            for phase in graph.ids(target, "buildPhases") where graph.isa(phase) == "PBXShellScriptBuildPhase" {
                for raw in graph.ids(phase, "outputPaths") {
                    if let p = scriptPath(raw, resolver: resolver) { out.generated.insert(p) }
                }
                for raw in graph.ids(phase, "outputFileListPaths") {
                    guard let list = scriptPath(raw, resolver: resolver), let text = readSmallText(list) else { continue }
                    for line in text.split(whereSeparator: \.isNewline) {
                        let l = line.trimmingCharacters(in: .whitespaces)
                        if l.isEmpty || l.hasPrefix("#") { continue }
                        if let p = scriptPath(l, resolver: resolver) { out.generated.insert(p) }
                    }
                }
                if let script = graph.string(phase, "shellScript") {
                    for raw in generatorOutputs(script) {
                        if let p = scriptPath(raw, resolver: resolver) { out.generated.insert(p) }
                    }
                }
            }
        }
        return out
    }

    /// The `path = …` folders of every `.gitmodules` in the input that hold no file: submodules
    /// a plain checkout (or a source archive) leaves empty.
    func emptySubmodules() -> [String] {
        var out: [String] = []
        for e in index.entries where e.kind == .file && PathUtil.lastComponent(e.path) == ".gitmodules" {
            guard let text = readSmallText(e.path) else { continue }
            for line in text.split(whereSeparator: \.isNewline) {
                let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2, parts[0] == "path", !parts[1].isEmpty,
                      let folder = ProjectPaths.join(PathUtil.parent(e.path), parts[1]) else { continue }
                if !index.files(under: folder).contains(where: { $0.kind == .file }) { out.append(folder) }
            }
        }
        return out
    }

    /// A path written in a script phase or file list, as an input path: build settings
    /// expanded, relative paths taken from the project folder (where Xcode runs scripts);
    /// nil for paths outside the input (DERIVED_FILE_DIR, absolute) or still holding a macro.
    func scriptPath(_ raw: String, resolver: BuildSettingsResolver) -> String? {
        let v = resolver.expand(raw.trimmingCharacters(in: .whitespaces))
        guard !v.isEmpty, !v.contains("$"), !v.contains("*") else { return nil }
        if v.hasPrefix(XcodeDefaultSettings.srcRootMarker) { return ProjectPaths.inputPath(v, projectDir: projectDir) }
        return ProjectPaths.join(projectDir, v)
    }

    private func readSmallText(_ path: String) -> String? {
        guard let e = index.entry(path), e.kind == .file, e.size <= 1 << 20, let data = try? source.read(path) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// Output paths (as written, before expansion) of code generators a script runs:
    /// `rswift generate OUT`, `sourcery … --output OUT` (else its `.sourcery.yml`), and
    /// `swiftgen … --output/-o OUT` (else the `output`s of its `swiftgen.yml`).
    func generatorOutputs(_ script: String) -> [String] {
        var out: [String] = []
        for line in script.split(whereSeparator: \.isNewline) {
            let words = Self.shellWords(String(line))
            guard let cmd = words.firstIndex(where: { w in
                let name = PathUtil.lastComponent(w)
                return name == "rswift" || name == "sourcery" || name == "swiftgen"
            }) else { continue }
            let tool = PathUtil.lastComponent(words[cmd])
            let args = Array(words[(cmd + 1)...])
            func option(_ names: [String]) -> [String] {
                var found: [String] = []
                for (i, a) in args.enumerated() {
                    if names.contains(a), i + 1 < args.count { found.append(args[i + 1]) }
                    for n in names where a.hasPrefix(n + "=") { found.append(String(a.dropFirst(n.count + 1))) }
                }
                return found
            }
            switch tool {
            case "rswift":
                // `rswift generate [options] OUTPUT`: the output comes last.
                guard let g = args.firstIndex(of: "generate"), let last = args.last, args.count > g + 1,
                      !last.hasPrefix("-") else { continue }
                out.append(last)
            case "sourcery":
                let given = option(["--output"])
                if !given.isEmpty { out += given; continue }
                let config = option(["--config"]).first ?? ".sourcery.yml"
                out += configOutputs(config, keys: ["output", "path"], dirKey: nil)
            default: // swiftgen
                let given = option(["--output", "-o"])
                if !given.isEmpty { out += given; continue }
                let config = option(["--config", "-c"]).first ?? "swiftgen.yml"
                out += configOutputs(config, keys: ["output"], dirKey: "output_dir")
            }
        }
        return out
    }

    /// `key: value` lines of a generator's YAML configuration (relative to the project
    /// folder), as paths relative to the project folder (SwiftGen prefixes `output_dir`).
    private func configOutputs(_ config: String, keys: [String], dirKey: String?) -> [String] {
        guard let path = ProjectPaths.join(projectDir, config), let text = readSmallText(path) else { return [] }
        let configDir = PathUtil.parent(config)
        var dir = ""
        var values: [String] = []
        for line in text.split(whereSeparator: \.isNewline) {
            var l = line.trimmingCharacters(in: .whitespaces)
            if l.hasPrefix("- ") { l = String(l.dropFirst(2)).trimmingCharacters(in: .whitespaces) }
            guard let colon = l.firstIndex(of: ":") else { continue }
            let key = String(l[..<colon])
            var value = l[l.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if let hash = value.range(of: " #") { value = value[..<hash.lowerBound].trimmingCharacters(in: .whitespaces) }
            value = value.trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            guard !value.isEmpty else { continue }
            if key == dirKey { dir = value } else if keys.contains(key) { values.append(value) }
        }
        // Relative to the configuration file's folder, which may be climbed out of (`../Gen`).
        return values.compactMap { ProjectPaths.join(configDir, dir.isEmpty || $0.hasPrefix("/") ? $0 : dir + "/" + $0) }
    }

    /// Splits a shell line into words: whitespace separates, quotes group, `#` starts a
    /// comment, `;`, `&&` and `|` end a command (later commands are words too; callers look
    /// for a tool name). Good enough for the one-line generator invocations of Run Script phases.
    static func shellWords(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quote: Character?
        var inWord = false
        for ch in line {
            if let q = quote {
                if ch == q { quote = nil } else { current.append(ch) }
                continue
            }
            switch ch {
            case "\"", "'": quote = ch; inWord = true
            case " ", "\t", ";", "|", "&":
                if inWord { words.append(current); current = ""; inWord = false }
            case "#" where !inWord: return words
            default: current.append(ch); inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
