import Foundation

/// Renders a rule's description and examples: `preflight explain` and docs/rules/ use it.
public enum RuleDocumentation {
    public static func markdown(_ d: RuleDescription) -> String {
        var out = "# \(d.name) (`\(d.identifier)`)\n\n\(d.summary)\n\n"
        out += "- Area: \(d.area.rawValue)\n- Default severity: \(d.severity.rawValue)\n"
        if d.optIn { out += "- Opt-in: enable with `--enable \(d.identifier)` or `opt_in_rules` in .preflight.yml\n" }
        if !d.tags.isEmpty { out += "- Tags: \(d.tags.joined(separator: ", "))\n" }
        if !d.itms.isEmpty { out += "- App Store Connect upload errors: \(d.itms.joined(separator: ", "))\n" }
        out += "\n## Why\n\n\(d.rationale)\n"
        if !d.references.isEmpty {
            out += "\n## References\n\n" + d.references.map { "- \($0)\n" }.joined()
        }
        func examples(_ title: String, _ list: [RuleExample]) {
            guard !list.isEmpty else { return }
            out += "\n## \(title)\n"
            for (i, e) in list.enumerated() {
                let kind = e.kind == .folder ? "" : e.kind == .project ? " (Xcode project)" : " (built .\(e.kind.rawValue))"
                out += "\n### Example \(i + 1)\(kind)\n"
                if let n = e.note { out += "\n\(n)\n" }
                for (path, fixture) in e.binaryFixtures.sorted(by: { $0.key < $1.key }) {
                    out += "\n`\(path)`: " + Self.fixtureText(fixture) + "\n"
                }
                for (path, target) in e.symlinks.sorted(by: { $0.key < $1.key }) {
                    out += "\n`\(path)`: a symbolic link to `\(target)`\n"
                }
                for path in e.files.keys.sorted() {
                    out += "\n`\(path)`:\n\n```\n\(e.files[path]!.trimmingCharacters(in: .newlines))\n```\n"
                }
            }
        }
        examples("Triggers", d.triggering)
        examples("Does not trigger", d.nonTriggering)
        return out
    }

    /// How an example's binary fixture is described: a Mach-O built from source, or a
    /// code-signing fixture (re-signed binary or profile) written by its own script.
    static func fixtureText(_ fixture: String) -> String {
        if fixture.hasPrefix("../") {
            // Fixtures of other kinds (asset catalogs, PNGs) sit beside the Mach-O ones.
            let folder = String(fixture.dropFirst(3).prefix { $0 != "/" })
            return "the fixture `Tests/Fixtures/\(fixture.dropFirst(3))` (written by `Tests/Fixtures/\(folder)/make-fixtures.py`)"
        }
        if fixture.hasPrefix("signing/") {
            let what = fixture.hasSuffix(".mobileprovision") ? "the provisioning profile fixture" : "the re-signed Mach-O fixture"
            return "\(what) `Tests/Fixtures/MachO/\(fixture)` (written by `Tests/Fixtures/MachO/signing/make-fixtures.py`)"
        }
        return "the Mach-O fixture `Tests/Fixtures/MachO/\(fixture)` (source in `Tests/Fixtures/MachO/src/`)"
    }
}
