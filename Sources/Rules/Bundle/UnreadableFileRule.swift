import Foundation
import Artifacts
import Formats

public struct UnreadableFileRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "unreadable_file",
        name: "Unreadable file",
        summary: "A file of the app cannot be read: a broken archive entry, a malformed binary, strings file or profile.",
        rationale: """
        Every file Preflight cannot read is a file no rule could check, so it is reported rather \
        than skipped. A source file of the app's code that was not scanned (larger than \
        `max-source-file-bytes`, nested deeper than the Swift parser handles safely) is a \
        warning: uses of protected resources in it are not seen. A corrupt or encrypted archive entry also fails installation; a malformed \
        binary fails App Store processing. Rebuild or re-export the artifact.
        """,
        area: .bundle, severity: .error, tags: ["app-review"],
        triggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>"),
                         "Example↓": "not a Mach-O"], kind: .app,
                        note: "The app's executable is not a Mach-O file."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>"),
                         "embedded.mobileprovision↓": "not a signed profile"],
                        binaryFixtures: ["Example": "App"], kind: .app,
                        note: "A provisioning profile that is not CMS-signed data; the executable is fine."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundlePackageType</key><string>APPL</string>"),
                         "en.lproj/Localizable.strings": "\"greeting\" = \"Hello\";"], kind: .app),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>"),
                         "en.lproj/Localizable.strings": "\"greeting\" = \"Hello\""],
                        binaryFixtures: ["Example": "App"], kind: .app,
                        note: "A Mach-O executable that reads whole; the strings file without its `;` is malformed_strings_file's."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        // Info.plists, entitlements and manifests that cannot be parsed have rules of their own.
        // (One that parsed may be a generator spec holding the plist and other problems.)
        var covered = Set<String>()
        for b in context.product.bundles {
            for file in [b.infoPlist, b.entitlements].compactMap({ $0 }) + b.privacyManifests where file.error != nil {
                covered.insert(file.path)
            }
        }
        var out: [Finding] = []
        // What a generator manifest computes with code (Tuist helpers) is a limit of a static
        // reading, not a defect of the app: one note per manifest, naming the first expression.
        var unsupportedByManifest: [String: [LoadProblem]] = [:]
        for p in context.product.problems {
            if case .unreadable(let e) = p.kind, e.kind == .unsupported, Self.isManifest(p.path) {
                unsupportedByManifest[p.path, default: []].append(p)
            }
        }
        for (path, problems) in unsupportedByManifest.sorted(by: { $0.key < $1.key }) {
            guard case .unreadable(let first) = problems[0].kind else { continue }
            let more = problems.count > 1 ? " (and \(problems.count - 1) more expression\(problems.count > 2 ? "s" : ""))" : ""
            var f = finding("\(path) cannot be read statically here\(more): \(first.reason); what it leaves out is not checked",
                            bundle: problems[0].bundle, at: FileLocation(path: path, position: first.position), fingerprint: [path])
            f.severity = .note
            out.append(f)
        }
        // Source files left unscanned (a limit, a parser's depth) may hold uses no rule saw.
        for s in context.evidence.skippedSources {
            var f = finding("\(s.path) was not scanned for protected-API uses: \(s.reason)", bundle: nil,
                            at: FileLocation(path: s.path), fingerprint: [s.path])
            f.severity = .warning
            out.append(f)
        }
        return out + context.product.problems.compactMap { p in
            if case .unreadable(let e) = p.kind, e.kind == .unsupported, Self.isManifest(p.path) { return nil }
            switch p.kind {
            case .unreadable(let error) where !covered.contains(p.path)
                && !MalformedStringsFileRule.extensions.contains(PathUtil.pathExtension(p.path)):
                return finding("\(p.path) cannot be read: \(error)", bundle: p.bundle,
                               at: FileLocation(path: p.path, position: error.position), fingerprint: [p.path])
            case .inaccessible(let reason):
                return finding("\(p.path): \(reason)", bundle: p.bundle, at: FileLocation(path: p.path), fingerprint: [p.path])
            default:
                return nil
            }
        }
    }

    /// Tuist manifests, which Preflight reads without running them: `Project.swift`,
    /// `Workspace.swift`, the `Tuist/ProjectDescriptionHelpers` they use and `Tuist/Package.swift`.
    static func isManifest(_ path: String) -> Bool {
        let name = PathUtil.lastComponent(path), parent = PathUtil.lastComponent(PathUtil.parent(path))
        return ["Project.swift", "Workspace.swift"].contains(name)
            || (parent == "Tuist" && ["Package.swift", "Dependencies.swift"].contains(name))
            || ("/" + path).contains("/Tuist/ProjectDescriptionHelpers/")
    }
}
