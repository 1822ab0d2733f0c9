import Foundation
import Artifacts

public struct PathCaseMismatchRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "path_case_mismatch",
        name: "Path differs only in letter case",
        summary: "A build setting or file reference names a file whose path differs from the real one only in letter case.",
        rationale: """
        macOS file systems usually ignore case, so the build works on a developer's Mac — and \
        fails on a case-sensitive CI runner, or ships a resource iOS (case-sensitive on device) \
        never finds. Use the file's exact name.
        """,
        area: .project, severity: .error,
        triggering: [
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: ["INFOPLIST_FILE": "App/info.plist"]),
                         "App/Info.plist": plistXML("<key>CFBundlePackageType</key><string>APPL</string>")], kind: .project),
        ],
        nonTriggering: [
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: ["INFOPLIST_FILE": "App/Info.plist"]),
                         "App/Info.plist": plistXML("<key>CFBundlePackageType</key><string>APPL</string>")], kind: .project),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        context.product.problems.compactMap { p in
            guard case .caseMismatch(let setting, let actual) = p.kind else { return nil }
            return finding("\(setting) of \(p.bundle ?? "a target") names \(p.path), but the file is \(actual); case-sensitive file systems will not find it",
                           bundle: p.bundle, at: p.referencedFrom ?? FileLocation(path: p.path), key: setting,
                           fix: "Write the path exactly as \(actual).", fingerprint: [p.path])
        }
    }
}
