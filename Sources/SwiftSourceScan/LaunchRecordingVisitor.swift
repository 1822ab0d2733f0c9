import Evidence
import SwiftSyntax

/// Finds an audio session configured for recording while the app launches: a
/// `setCategory(.record | .playAndRecord …)` call inside
/// `application(_:didFinishLaunchingWithOptions:)` / `application(_:willFinishLaunchingWithOptions:)`
/// or inside the initializer of a SwiftUI `App`.
final class LaunchRecordingVisitor: SyntaxVisitor {
    static let capability = "signal.recordingAtLaunch"
    /// A file without this name holds no match.
    static let triggerNames: Set<String> = ["setCategory"]

    private let lines: LineTable
    private var launchContext: [String] = []
    private(set) var found: [SourceUsage] = []

    init(lines: LineTable) {
        self.lines = lines
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        let labels = node.signature.parameterClause.parameters.map(\.firstName.text)
        if node.name.text == "application",
           labels.contains("didFinishLaunchingWithOptions") || labels.contains("willFinishLaunchingWithOptions") {
            launchContext.append("application(_:\(labels.contains("didFinishLaunchingWithOptions") ? "did" : "will")FinishLaunchingWithOptions:)")
        } else {
            launchContext.append("")
        }
        return .visitChildren
    }

    override func visitPost(_ node: FunctionDeclSyntax) { launchContext.removeLast() }

    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
        var isApp = false
        var parent = node.parent
        while let p = parent {
            if let s = p.as(StructDeclSyntax.self) {
                isApp = s.inheritanceClause?.inheritedTypes.contains { $0.type.sourceText == "App" } ?? false
                break
            }
            parent = p.parent
        }
        launchContext.append(isApp ? "the App initializer" : "")
        return .visitChildren
    }

    override func visitPost(_ node: InitializerDeclSyntax) { launchContext.removeLast() }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
        // Code in a closure runs later (a completion handler, a task), not during launch.
        launchContext.append("")
        return .visitChildren
    }

    override func visitPost(_ node: ClosureExprSyntax) { launchContext.removeLast() }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        guard let context = launchContext.last, !context.isEmpty,
              let member = node.calledExpression.as(MemberAccessExprSyntax.self),
              member.declName.baseName.text == "setCategory",
              let first = node.arguments.first?.expression.sourceText else { return .visitChildren }
        let category = first.split(separator: ".").last.map(String.init) ?? first
        guard category == "record" || category == "playAndRecord"
                || category == "AVAudioSessionCategoryRecord" || category == "AVAudioSessionCategoryPlayAndRecord" else {
            return .visitChildren
        }
        let (line, column) = lines.location(ofUTF8Offset: node.positionAfterSkippingLeadingTrivia.utf8Offset)
        found.append(SourceUsage(capability: Self.capability, key: "", api: "setCategory(.\(category)) in \(context)",
                                 line: line, column: column, strength: .definite))
        return .visitChildren
    }
}
