import XCTest
import TestSupport
import Foundation
import Formats
import Yams

/// `action.yml`, the composite GitHub Action: its structure, and its `run:` steps executed in
/// order as a runner would (bash -e, `GITHUB_OUTPUT`, `GITHUB_STEP_SUMMARY`, `GITHUB_ACTION_PATH`,
/// `${{ }}` expressions in `env:` and `if:`) on the demo app with the debug build of this test
/// run. `uses:` steps are not run; their inputs are checked.
final class GitHubActionTests: XCTestCase {
    static let root = CLITests.packageRoot

    static func yaml(_ path: String) throws -> [String: Any] {
        let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        return try XCTUnwrap(try Yams.load(yaml: text) as? [String: Any], path)
    }

    static func steps(_ action: [String: Any]) throws -> [[String: Any]] {
        try XCTUnwrap((action["runs"] as? [String: Any])?["steps"] as? [[String: Any]])
    }

    /// Every `${{ … }}` in a YAML tree, with where it stands.
    static func expressions(in node: Any, at path: String = "") -> [(path: String, text: String)] {
        if let s = node as? String {
            let regex = try! NSRegularExpression(pattern: #"\$\{\{\s*(.+?)\s*\}\}"#)
            return regex.matches(in: s, range: NSRange(s.startIndex..., in: s)).map { (path, String(s[Range($0.range(at: 1), in: s)!])) }
        }
        if let object = node as? [String: Any] {
            return object.keys.sorted().flatMap { expressions(in: object[$0]!, at: path + "." + $0) }
        }
        if let list = node as? [Any] {
            return list.enumerated().flatMap { expressions(in: $1, at: path + "[\($0)]") }
        }
        return []
    }

    func testTheActionIsAWellFormedCompositeAction() throws {
        let action = try Self.yaml("action.yml")
        XCTAssertNotNil(action["name"] as? String)
        XCTAssertNotNil(action["description"] as? String)
        XCTAssertEqual((action["runs"] as? [String: Any])?["using"] as? String, "composite")
        let inputs = try XCTUnwrap(action["inputs"] as? [String: [String: Any]])
        XCTAssertEqual(Set(inputs.keys), ["path", "fail-on", "sarif-file", "upload-sarif", "preflight", "arguments",
                                           "version", "build-from-source", "download-url"])
        for (name, input) in inputs {
            XCTAssertNotNil(input["description"] as? String, "input \(name) is described")
            XCTAssertNotNil(input["default"], "input \(name) has a default")
        }
        let steps = try Self.steps(action)
        var ids: [String] = []
        for (i, step) in steps.enumerated() {
            XCTAssertNotNil(step["name"] as? String, "step \(i) has a name")
            if let run = step["run"] as? String {
                XCTAssertEqual(step["shell"] as? String, "bash", "a composite run step names its shell (step \(i))")
                // Inputs reach scripts through env:, never spliced into the script's text.
                XCTAssertFalse(run.contains("${{"), "step \(i) splices an expression into its script")
            } else {
                XCTAssertNotNil(step["uses"] as? String, "step \(i) runs or uses something")
            }
            // An expression may name an input that exists, or an output of an earlier step.
            for e in Self.expressions(in: step) {
                for name in Self.names(e.text, after: "inputs.") {
                    XCTAssertNotNil(inputs[name], "step \(i)\(e.path) names unknown input \(name)")
                }
                for id in Self.names(e.text, after: "steps.") {
                    XCTAssertTrue(ids.contains(id), "step \(i)\(e.path) names step \(id), which does not come before it")
                }
            }
            if let id = step["id"] as? String { ids.append(id) }
        }
        let outputs = try XCTUnwrap(action["outputs"] as? [String: [String: Any]])
        XCTAssertEqual(Set(outputs.keys), ["sarif-file", "exit-code"])
        for (name, output) in outputs {
            let value = try XCTUnwrap(output["value"] as? String, name)
            let refs = Self.names(value, after: "steps.")
            XCTAssertFalse(refs.isEmpty, "output \(name) comes from a step")
            for id in refs { XCTAssertTrue(ids.contains(id), "output \(name) names step \(id)") }
        }
        let upload = try XCTUnwrap(steps.first { ($0["uses"] as? String)?.hasPrefix("github/codeql-action/upload-sarif@") == true })
        XCTAssertEqual((upload["with"] as? [String: Any])?["sarif_file"] as? String, "${{ steps.scan.outputs.sarif-file }}")
    }

    /// The repository's own workflow runs the action on the demo app and checks its errors are found.
    func testTheWorkflowUsesTheActionOnTheDemoApp() throws {
        let workflow = try Self.yaml(".github/workflows/preflight.yml")
        let jobs = try XCTUnwrap(workflow["jobs"] as? [String: [String: Any]])
        XCTAssertEqual(jobs.count, 1)
        let job = try XCTUnwrap(jobs.values.first)
        let matrix = try XCTUnwrap((job["strategy"] as? [String: Any])?["matrix"] as? [String: Any])
        let systems = (matrix["include"] as? [[String: Any]] ?? []).compactMap { $0["os"] as? String }
        XCTAssertTrue(systems.contains { $0.hasPrefix("ubuntu") } && systems.contains { $0.hasPrefix("macos") }, "\(systems)")
        let steps = try XCTUnwrap(job["steps"] as? [[String: Any]])
        let index = try XCTUnwrap(steps.firstIndex { $0["uses"] as? String == "./" })
        let with = try XCTUnwrap(steps[index]["with"] as? [String: Any])
        XCTAssertEqual(with["path"] as? String, "Examples/DemoApp")
        XCTAssertEqual(with["fail-on"] as? String, "never")
        XCTAssertEqual(with["build-from-source"] as? String, "true", "the workflow tests this commit, not a release")
        let inputs = try XCTUnwrap(try Self.yaml("action.yml")["inputs"] as? [String: Any])
        for key in with.keys { XCTAssertNotNil(inputs[key], "the workflow passes unknown input \(key)") }
        let id = try XCTUnwrap(steps[index]["id"] as? String)
        let later = steps[(index + 1)...].map { Self.expressions(in: $0).map(\.text).joined(separator: " ") }.joined(separator: " ")
        XCTAssertTrue(later.contains("steps.\(id).outputs.exit-code"), "a later step checks the exit status")
        XCTAssertEqual(((workflow["permissions"] as? [String: Any])?["security-events"]) as? String, "write")
    }

    static func names(_ expression: String, after prefix: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: NSRegularExpression.escapedPattern(for: prefix) + #"([A-Za-z0-9_\-]+)"#)
        return regex.matches(in: expression, range: NSRange(expression.startIndex..., in: expression)).map {
            String(expression[Range($0.range(at: 1), in: expression)!])
        }
    }

    // MARK: The action on the demo app

    /// Defaults but the binary and the SARIF path: annotations, summary and SARIF, then the job
    /// fails with status 2 because the demo app has errors.
    func testTheActionScansTheDemoAppAndFailsOnItsErrors() throws {
        let sarif = try Scratch.folder("action-out").appendingPathComponent("preflight.sarif")
        let job = try runAction(["path": "Examples/DemoApp", "preflight": CLITests.executable.path, "sarif-file": sarif.path])
        let build = try job.step("Build Preflight")
        XCTAssertEqual(build.status, 0, build.stderr)
        XCTAssertEqual(build.outputs["binary"], CLITests.executable.path, "a given binary is used, nothing is built")
        let scan = try job.step("Scan")
        XCTAssertEqual(scan.status, 0, "the scan step keeps preflight's status for later: \(scan.stderr)")
        XCTAssertEqual(scan.outputs["exit-code"], "2")
        // The annotations are the GitHub reporter's, byte for byte.
        let golden = try String(contentsOf: GoldenTests.golden.appendingPathComponent("demo-app.github.txt"), encoding: .utf8)
        XCTAssertEqual(scan.stdout, golden)
        XCTAssertTrue(scan.stdout.contains("::error file=Examples/DemoApp/DemoApp/Info.plist,line="), scan.stdout)
        // The step summary is the Markdown report.
        let markdown = try String(contentsOf: GoldenTests.golden.appendingPathComponent("demo-app.md"), encoding: .utf8)
        XCTAssertEqual(job.summary, markdown)
        // SARIF: written where asked, uploaded by the next step.
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: sarif)) as? [String: Any])
        let results = try XCTUnwrap((doc["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        XCTAssertTrue(results.contains { $0["ruleId"] as? String == "missing_purpose_string" })
        XCTAssertEqual(job.uses.count, 1)
        XCTAssertEqual(job.uses.first?.uses.hasPrefix("github/codeql-action/upload-sarif@"), true)
        XCTAssertEqual(job.uses.first?.with["sarif_file"], sarif.path)
        let result = try job.step("Result")
        XCTAssertEqual(result.status, 2, "the job fails on the demo app's errors")
        XCTAssertTrue(job.failed)
        let action = try Self.yaml("action.yml")
        XCTAssertEqual(try job.outputs(action), ["sarif-file": sarif.path, "exit-code": "2"])
    }

    /// `fail-on: never` reports without failing; extra arguments reach `preflight scan`; no upload.
    func testFailOnNeverArgumentsAndNoUpload() throws {
        let sarif = try Scratch.folder("action-out").appendingPathComponent("out.sarif")
        let job = try runAction(["path": "Examples/DemoApp", "preflight": CLITests.executable.path, "sarif-file": sarif.path,
                                 "fail-on": "never", "upload-sarif": "false", "arguments": "--disable duplicate_plist_key  --disable ats_arbitrary_loads"])
        XCTAssertFalse(job.failed, job.steps.map { "\($0.name): \($0.status) \($0.stderr)" }.joined(separator: "\n"))
        XCTAssertEqual(try job.step("Scan").outputs["exit-code"], "2", "the status is still reported")
        XCTAssertFalse(try job.step("Upload SARIF").ran)
        XCTAssertTrue(job.uses.isEmpty)
        let text = try String(contentsOf: sarif, encoding: .utf8)
        XCTAssertTrue(text.contains("missing_purpose_string"))
        XCTAssertFalse(text.contains("\"ruleId\" : \"duplicate_plist_key\""), "--disable reached preflight")
        XCTAssertFalse(try job.step("Scan").stdout.contains("ats_arbitrary_loads"))
        XCTAssertTrue(try job.step("Scan").stdout.contains("::error "))
    }

    /// An input that cannot be read: a valid SARIF log that says so is still uploaded, and the job
    /// fails with status 1; a wrong fail-on is a usage error before anything runs.
    func testAnUnreadableInputAndAWrongThreshold() throws {
        let sarif = try Scratch.folder("action-out").appendingPathComponent("out.sarif")
        let job = try runAction(["path": "Missing.ipa", "preflight": CLITests.executable.path, "sarif-file": sarif.path])
        XCTAssertEqual(try job.step("Scan").outputs["exit-code"], "1")
        XCTAssertTrue(try job.step("Upload SARIF").ran)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: sarif)) as? [String: Any])
        let invocation = try XCTUnwrap(((doc["runs"] as? [[String: Any]])?.first?["invocations"] as? [[String: Any]])?.first)
        XCTAssertEqual(invocation["executionSuccessful"] as? Bool, false)
        XCTAssertEqual(try job.step("Result").status, 1)

        let wrong = try runAction(["path": "Examples/DemoApp", "preflight": CLITests.executable.path, "sarif-file": sarif.path, "fail-on": "sometimes"])
        let scan = try wrong.step("Scan")
        XCTAssertEqual(scan.status, 64)
        XCTAssertTrue(scan.stdout.hasPrefix("::error title=Preflight::fail-on must be error, warning, note or never"), scan.stdout)
        XCTAssertFalse(try wrong.step("Result").ran)
    }

    // MARK: The release binary

    /// A release folder as GitHub serves it (`download/TAG/asset`), reached through a file URL.
    func fakeRelease(tag: String, tamper: Bool = false) throws -> URL {
        let releases = try Scratch.folder("releases")
        let download = releases.appendingPathComponent("download/\(tag)")
        try FileManager.default.createDirectory(at: download, withIntermediateDirectories: true)
        let staging = try Scratch.folder("asset")
        // The asset's preflight hands over to this build's executable (a copy would make a
        // 200 MB debug archive for every run of this test).
        let launcher = staging.appendingPathComponent("preflight")
        try Data("#!/bin/sh\nexec '\(CLITests.executable.path)' \"$@\"\n".utf8).write(to: launcher)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: launcher.path)
        let asset = "preflight-linux-x86_64.tar.gz"
        let tar = Process()
        tar.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        tar.arguments = ["tar", "-C", staging.path, "-czf", download.appendingPathComponent(asset).path, "preflight"]
        try tar.run()
        tar.waitUntilExit()
        XCTAssertEqual(tar.terminationStatus, 0)
        let sum = tamper ? String(repeating: "0", count: 64) : SHA256Digest.hex(try Data(contentsOf: download.appendingPathComponent(asset)))
        try Data("\(sum)  \(asset)\n".utf8).write(to: download.appendingPathComponent("checksums.txt"))
        return releases
    }

    /// By default the action downloads the release binary, checks its SHA-256 against the
    /// release's checksums.txt, and scans with it; a mismatch stops the job before any scan.
    func testTheReleaseBinaryIsDownloadedAndVerified() throws {
        #if os(Linux) && arch(x86_64)
        let sarif = try Scratch.folder("action-out").appendingPathComponent("preflight.sarif")
        let good = try fakeRelease(tag: "v9.9.9")
        let job = try runAction(["path": "Examples/DemoApp", "sarif-file": sarif.path, "version": "v9.9.9",
                                 "download-url": good.absoluteString, "upload-sarif": "false"])
        let build = try job.step("Build Preflight")
        XCTAssertEqual(build.status, 0, build.stderr)
        XCTAssertTrue(build.outputs["binary"]?.hasSuffix("preflight-v9.9.9/preflight") == true, "\(build.outputs)")
        XCTAssertEqual(try job.step("Scan").outputs["exit-code"], "2", "the downloaded binary scanned the demo app")

        let bad = try fakeRelease(tag: "v9.9.8", tamper: true)
        let tampered = try runAction(["path": "Examples/DemoApp", "sarif-file": sarif.path, "version": "v9.9.8",
                                      "download-url": bad.absoluteString, "upload-sarif": "false"])
        let refused = try tampered.step("Build Preflight")
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stdout.contains("does not match the SHA-256"), refused.stdout)
        XCTAssertFalse(try tampered.step("Scan").ran)
        #else
        throw XCTSkip("the fake release holds a Linux x86_64 asset")
        #endif
    }

    // MARK: Running the action

    struct StepRun { var name: String; var id: String; var ran: Bool; var status: Int32; var stdout: String; var stderr: String; var outputs: [String: String] }
    struct JobRun {
        var steps: [StepRun] = []
        var uses: [(uses: String, with: [String: String])] = []
        var summary = ""
        var stepOutputs: [String: [String: String]] = [:]
        var failed: Bool { steps.contains { $0.ran && $0.status != 0 } }
        func step(_ name: String) throws -> StepRun { try XCTUnwrap(steps.first { $0.name == name }, name) }
        /// The action's outputs, as the workflow reads them.
        func outputs(_ action: [String: Any]) throws -> [String: String] {
            let declared = try XCTUnwrap(action["outputs"] as? [String: [String: Any]])
            let context = Context(inputs: [:], actionPath: "", steps: stepOutputs)
            return try declared.mapValues { try context.substitute($0["value"] as? String ?? "") }
        }
    }

    /// What `${{ }}` can read here: inputs, earlier steps' outputs, the action's folder.
    struct Context {
        var inputs: [String: String]
        var actionPath: String
        var steps: [String: [String: String]]

        func value(_ expression: String) throws -> String {
            let e = expression.trimmingCharacters(in: .whitespaces)
            if e.hasPrefix("'") && e.hasSuffix("'") && e.count >= 2 { return String(e.dropFirst().dropLast()) }
            if e.hasPrefix("inputs.") { return try XCTUnwrap(inputs[String(e.dropFirst("inputs.".count))], "unknown \(e)") }
            if e == "github.action_path" { return actionPath }
            let parts = e.split(separator: ".").map(String.init)
            if parts.count == 4, parts[0] == "steps", parts[2] == "outputs" { return steps[parts[1]]?[parts[3]] ?? "" }
            throw Unsupported(expression: e)
        }

        /// `a == 'b' && c != 'd'`, the only conditions the action uses.
        func condition(_ text: String) throws -> Bool {
            var e = text.trimmingCharacters(in: .whitespaces)
            if e.hasPrefix("${{") && e.hasSuffix("}}") { e = String(e.dropFirst(3).dropLast(2)) }
            return try e.components(separatedBy: "&&").allSatisfy { clause in
                if let r = clause.range(of: "!=") { return try value(String(clause[..<r.lowerBound])) != value(String(clause[r.upperBound...])) }
                if let r = clause.range(of: "==") { return try value(String(clause[..<r.lowerBound])) == value(String(clause[r.upperBound...])) }
                throw Unsupported(expression: clause)
            }
        }

        func substitute(_ text: String) throws -> String {
            var out = "", rest = Substring(text)
            while let open = rest.range(of: "${{") {
                out += rest[..<open.lowerBound]
                let close = try XCTUnwrap(rest[open.upperBound...].range(of: "}}"), "unclosed expression in \(text)")
                out += try value(String(rest[open.upperBound..<close.lowerBound]))
                rest = rest[close.upperBound...]
            }
            return out + rest
        }
    }

    struct Unsupported: Error { let expression: String }

    /// Runs the action's steps in `workspace` with these inputs (the others take their defaults).
    func runAction(_ given: [String: String], workspace: URL = GitHubActionTests.root) throws -> JobRun {
        let action = try Self.yaml("action.yml")
        let declared = try XCTUnwrap(action["inputs"] as? [String: [String: Any]])
        var inputs = declared.mapValues { "\($0["default"] ?? "")" }
        for (k, v) in given {
            XCTAssertNotNil(declared[k], "input \(k) is declared")
            inputs[k] = v
        }
        let dir = try Scratch.folder("action")
        let summary = dir.appendingPathComponent("step-summary.md")
        try Data().write(to: summary)
        var context = Context(inputs: inputs, actionPath: Self.root.path, steps: [:])
        var job = JobRun()
        var failed = false
        for (i, step) in try Self.steps(action).enumerated() {
            let name = step["name"] as? String ?? "step \(i)"
            let id = step["id"] as? String ?? "__\(i)"
            // The default condition is success(): nothing earlier failed.
            let wanted = try (step["if"] as? String).map(context.condition) ?? true
            guard !failed && wanted else {
                job.steps.append(StepRun(name: name, id: id, ran: false, status: 0, stdout: "", stderr: "", outputs: [:]))
                continue
            }
            if let uses = step["uses"] as? String {
                let with = try (step["with"] as? [String: Any] ?? [:]).mapValues { try context.substitute("\($0)") }
                job.uses.append((uses, with))
                job.steps.append(StepRun(name: name, id: id, ran: true, status: 0, stdout: "", stderr: "", outputs: [:]))
                continue
            }
            let script = dir.appendingPathComponent("step-\(i).sh"), output = dir.appendingPathComponent("output-\(i)")
            try Data(try XCTUnwrap(step["run"] as? String).utf8).write(to: script)
            try Data().write(to: output)
            var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GITHUB_") && !$0.key.hasPrefix("INPUT_") }
            env["NO_COLOR"] = "1"
            env["GITHUB_ACTIONS"] = "true"
            env["GITHUB_OUTPUT"] = output.path
            env["GITHUB_STEP_SUMMARY"] = summary.path
            env["GITHUB_ACTION_PATH"] = Self.root.path
            env["GITHUB_WORKSPACE"] = workspace.path
            env["RUNNER_TEMP"] = dir.path
            // A composite action's steps see their inputs as expressions only; INPUT_* is not set.
            for (k, v) in step["env"] as? [String: Any] ?? [:] { env[k] = try context.substitute("\(v)") }
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/bash")
            // As the runner runs `shell: bash`.
            p.arguments = ["--noprofile", "--norc", "-eo", "pipefail", script.path]
            p.currentDirectoryURL = workspace
            p.environment = env
            let out = Pipe(), err = Pipe()
            p.standardOutput = out
            p.standardError = err
            try p.run()
            let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            var outputs: [String: String] = [:]
            for line in try String(contentsOf: output, encoding: .utf8).split(separator: "\n") {
                let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
                XCTAssertEqual(parts.count, 2, "an output line is name=value: \(line)")
                if parts.count == 2 { outputs[parts[0]] = parts[1] }
            }
            context.steps[id] = outputs
            job.stepOutputs[id] = outputs
            job.steps.append(StepRun(name: name, id: id, ran: true, status: p.terminationStatus,
                                     stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self), outputs: outputs))
            if p.terminationStatus != 0 { failed = true }
        }
        job.summary = try String(contentsOf: summary, encoding: .utf8)
        return job
    }
}
