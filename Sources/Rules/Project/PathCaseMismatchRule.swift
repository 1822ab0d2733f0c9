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
        ProblemGroup.group(context.product.problems).compactMap { g in
            guard case .caseMismatch(let setting, let actual) = g.problem.kind else { return nil }
            let path = g.problem.path
            return finding(for: g, message: "\(setting) of \(g.targetList) names \(path), but the file is \(actual); case-sensitive file systems will not find it",
                           key: setting, fix: "Write the path exactly as \(actual).", fingerprint: [path])
        }
    }
}
