import XCTest
import Foundation
import TestSupport

/// The GitHub workflows (this repository's and the examples in deploy/) pass actionlint, and
/// the Dockerfile passes hadolint. `.ci/lint-tools` puts both at .build/lint-tools/ (CI runs it).
final class WorkflowLintTests: XCTestCase {
    static let tools = CLITests.packageRoot.appendingPathComponent(".build/lint-tools")

    func tool(_ name: String) throws -> URL {
        let url = Self.tools.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("CI runs .ci/lint-tools, which puts \(name) at \(url.path)") }
        throw XCTSkip("\(name) is not at \(url.path): run `bash .ci/lint-tools` first")
    }

    func run(_ tool: URL, _ arguments: [String]) throws -> (status: Int32, output: String) {
        try Subprocess.run(tool, arguments, in: CLITests.packageRoot)
    }

    func testWorkflowsPassActionlint() throws {
        let actionlint = try tool("actionlint")
        let folders = [".github/workflows", "deploy/github-actions"]
        let files = try folders.flatMap { folder in
            try FileManager.default.contentsOfDirectory(atPath: CLITests.packageRoot.appendingPathComponent(folder).path)
                .filter { $0.hasSuffix(".yml") || $0.hasSuffix(".yaml") }.sorted().map { "\(folder)/\($0)" }
        }
        XCTAssertTrue(files.contains(".github/workflows/release.yml"), "\(files)")
        let result = try run(actionlint, ["-no-color"] + files)
        XCTAssertEqual(result.status, 0, result.output)
    }

    /// actionlint finds mistakes in this setup (so a pass above means something).
    func testActionlintRejectsABrokenWorkflow() throws {
        let actionlint = try tool("actionlint")
        let file = try Scratch.folder("actionlint").appendingPathComponent("broken.yml")
        try Data("on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.event.issue.title }}\n        shell: bash\n      - uses: actions/checkout@v4\n".utf8).write(to: file)
        let result = try run(actionlint, ["-no-color", file.path])
        XCTAssertNotEqual(result.status, 0, result.output)
    }

    func testDockerfilePassesHadolint() throws {
        let hadolint = try tool("hadolint")
        let result = try run(hadolint, ["Dockerfile"])
        XCTAssertEqual(result.status, 0, result.output)
    }
}
