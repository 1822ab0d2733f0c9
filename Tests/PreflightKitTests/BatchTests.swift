import XCTest
import Fleet
import Foundation
import TestSupport

/// `preflight batch` end to end with real processes: shards of the built executable over one
/// input list, a shard killed with SIGKILL and restarted, a poison input, an interrupted run;
/// on SQLite, and on PostgreSQL when a server is given (`PREFLIGHT_TEST_POSTGRES_URL`; `.ci/run`
/// starts one on loopback).
final class BatchTests: XCTestCase {
    typealias H = HostileInputs

    // MARK: - Inputs

    /// `count` small distinct `.ipa` files in a folder: the hostile suite's base app with its own
    /// bundle identifier; every third allows cleartext traffic, every second asks for the camera.
    static func makeInputs(_ count: Int, label: String = "batch") throws -> (folder: URL, list: URL, paths: [String]) {
        let dir = try Scratch.folder(label)
        var paths: [String] = []
        for i in 0..<count {
            var extra = ""
            if i % 3 == 0 { extra += "<key>NSAppTransportSecurity</key><dict><key>NSAllowsArbitraryLoads</key><true/></dict>" }
            if i % 2 == 0 { extra += "<key>NSCameraUsageDescription</key><string>Scan the code on your ticket.</string>" }
            let plist = H.infoPlist().replacingOccurrences(of: "com.example.demo", with: "com.example.app\(i)")
                .replacingOccurrences(of: "</dict>\n</plist>", with: extra + "</dict>\n</plist>")
            let url = dir.appendingPathComponent(String(format: "App%04d.ipa", i))
            try H.baseApp(infoPlist: Data(plist.utf8)).build().write(to: url)
            paths.append(url.path)
        }
        let list = dir.appendingPathComponent("inputs.txt")
        try Data((paths.joined(separator: "\n") + "\n").utf8).write(to: list)
        return (dir, list, paths)
    }

    /// An archive from the hostile-input suite: its end record claims 65,000 entries.
    static func makePoison(in dir: URL) throws -> String {
        let url = dir.appendingPathComponent("Poison.ipa")
        try H.patchEOCD(H.baseApp().build(), count: 65000).write(to: url)
        return url.path
    }

    // MARK: - Stores

    enum Backend { case sqlite, postgres }

    /// A fresh store: a new SQLite file, or the test database emptied.
    func storeSpec(_ backend: Backend) throws -> String {
        switch backend {
        case .sqlite:
            return try Scratch.file("fleet.sqlite").path
        case .postgres:
            #if !PostgreSQL
            throw XCTSkip("built without the PostgreSQL trait: `swift test --traits PostgreSQL` runs the PostgreSQL store tests (.ci/run does)")
            #else
            guard let url = ProcessInfo.processInfo.environment["PREFLIGHT_TEST_POSTGRES_URL"], !url.isEmpty else {
                if ProcessInfo.processInfo.environment["CI"] == "true" {
                    XCTFail("PREFLIGHT_TEST_POSTGRES_URL is not set: .ci/run starts a PostgreSQL server for these tests")
                }
                throw XCTSkip("PREFLIGHT_TEST_POSTGRES_URL is not set (a PostgreSQL database these tests may empty)")
            }
            let store = try PostgresStore(url: url)
            defer { store.close() }
            _ = try store.rows("DROP TABLE IF EXISTS server_audit, server_uploads, server_sessions, server_tokens, ats_policies, domains, frameworks, entitlements, permissions, finding_evidence, findings, bundles, scans, fleet_migrations CASCADE")
            return url
            #endif
        }
    }

    func rows(_ spec: String, _ sql: String) throws -> [[String?]] {
        let store = try FleetStores.open(spec)
        defer { store.close() }
        return try store.rows(sql)
    }

    func count(_ spec: String, _ sql: String) throws -> Int { Int(try rows(spec, sql).first?.first.flatMap { $0 } ?? "") ?? -1 }

    func start(_ args: [String]) throws -> (Process, Pipe, Pipe) {
        let p = Process()
        p.executableURL = CLITests.executable
        p.arguments = args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        return (p, out, err)
    }

    func finish(_ run: (Process, Pipe, Pipe)) -> CLITests.Run {
        let o = run.1.fileHandleForReading.readDataToEndOfFile()
        let e = run.2.fileHandleForReading.readDataToEndOfFile()
        run.0.waitUntilExit()
        return CLITests.Run(status: run.0.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    /// Every input has exactly one scan row, done, with one result set: its app bundle once,
    /// and the findings a plain `preflight scan` reports for it.
    func assertOneResultSetPerInput(_ spec: String, _ paths: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let scans = try rows(spec, "SELECT path, status, finding_count, id FROM scans ORDER BY path")
        XCTAssertEqual(scans.map { $0[0] ?? "" }, paths.sorted(), "one row per input", file: file, line: line)
        XCTAssertEqual(Set(scans.map { $0[1] ?? "" }), ["done"], "\(scans)", file: file, line: line)
        XCTAssertEqual(try count(spec, "SELECT COUNT(DISTINCT input_sha256) FROM scans"), paths.count, file: file, line: line)
        XCTAssertEqual(try count(spec, "SELECT COUNT(*) FROM bundles"), paths.count, "one app bundle per input", file: file, line: line)
        let reference = try CLITests.run(["scan", "--format", "json", paths[0]])
        let doc = try JSONSerialization.jsonObject(with: Data(reference.stdout.utf8)) as? [String: Any]
        let expected = (doc?["findings"] as? [Any])?.count ?? -1
        let first = scans.first { $0[0] == paths[0] }
        XCTAssertEqual(first?[2], String(expected), "finding count of \(paths[0]) against `preflight scan`", file: file, line: line)
        XCTAssertEqual(try count(spec, "SELECT COUNT(*) FROM findings WHERE scan_id = \(first?[3] ?? "0")"), expected, file: file, line: line)
        XCTAssertEqual(try count(spec, "SELECT SUM(finding_count) FROM scans"), try count(spec, "SELECT COUNT(*) FROM findings"),
                       "no finding written twice or lost", file: file, line: line)
    }

    // MARK: - Shards

    func threeShards(_ backend: Backend) throws {
        let spec = try storeSpec(backend)
        let (_, list, paths) = try Self.makeInputs(15)
        let shards = try (0..<3).map { try start(["batch", "--list", list.path, "--store", spec, "--shard", "\($0)/3", "--jobs", "1"]) }
        let results = shards.map(finish)
        for r in results { XCTAssertEqual(r.status, 0, r.stderr) }
        XCTAssertEqual(results.map { Int($0.stdout.split(separator: " ").first ?? "") ?? -1 }.reduce(0, +), paths.count,
                       "the shards split the list: \(results.map(\.stdout))")
        try assertOneResultSetPerInput(spec, paths)
        // Unsharded processes racing over the same list, and a rerun: nothing scanned twice.
        let racers = try (0..<2).map { _ in try start(["batch", "--list", list.path, "--store", spec, "--jobs", "1"]) }
        for r in racers.map(finish) {
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stdout.contains("0 scanned, \(paths.count) already done"), r.stdout)
        }
        try assertOneResultSetPerInput(spec, paths)
    }

    func testThreeShardsWriteOneResultSetPerInputSQLite() throws { try threeShards(.sqlite) }
    func testThreeShardsWriteOneResultSetPerInputPostgres() throws { try threeShards(.postgres) }

    /// The default build leaves the PostgreSQL store out (package trait): a postgres:// store is
    /// a one-line error naming the build that has it, before any input is read.
    func testPostgresStoreInDefaultBuildIsAClearError() throws {
        if FleetStores.hasPostgres { throw XCTSkip("this build has the PostgreSQL store (the PostgreSQL trait)") }
        let (_, list, _) = try Self.makeInputs(1, label: "no-postgres")
        let r = try CLITests.run(["batch", "--list", list.path, "--store", "postgres://u@127.0.0.1:1/db", "--jobs", "1"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("no PostgreSQL store") && r.stderr.contains("--traits PostgreSQL"), r.stderr)
        XCTAssertThrowsError(try FleetStores.open("postgresql://u@127.0.0.1:1/db"))
    }

    func testRacingProcessesWithoutShardsScanEachInputOnce() throws {
        let spec = try storeSpec(.sqlite)
        let (folder, _, paths) = try Self.makeInputs(12)
        let racers = try (0..<3).map { _ in try start(["batch", folder.path, "--store", spec, "--jobs", "1"]) }
        let results = racers.map(finish)
        for r in results { XCTAssertEqual(r.status, 0, r.stderr) }
        let scanned = results.map { r -> Int in
            guard let range = r.stdout.range(of: #"(\d+) scanned"#, options: .regularExpression) else { return -1 }
            return Int(r.stdout[range].split(separator: " ")[0]) ?? -1
        }
        XCTAssertEqual(scanned.reduce(0, +), paths.count, "each input scanned by exactly one process: \(results.map(\.stdout))")
        try assertOneResultSetPerInput(spec, paths)
    }

    // MARK: - Crashes

    func killedShard(_ backend: Backend) throws {
        let spec = try storeSpec(backend)
        let (_, list, paths) = try Self.makeInputs(40)
        let first = try start(["batch", "--list", list.path, "--store", spec, "--jobs", "1"])
        // Kill it while it holds an input: some done, one running.
        let deadline = Date().addingTimeInterval(60)
        var killedMidInput = false
        var watcher: (any FleetStore)?
        defer { watcher?.close() }
        while Date() < deadline && first.0.isRunning {
            if watcher == nil { watcher = try? FleetStores.open(spec) }
            guard let watcher else { usleep(2_000); continue }
            let states = (try? watcher.rows("SELECT status, COUNT(*) FROM scans GROUP BY status")) ?? []
            let done = Int(states.first { $0[0] == "done" }?[1] ?? "") ?? 0
            let running = Int(states.first { $0[0] == "running" }?[1] ?? "") ?? 0
            if done >= 3, running == 1 {
                kill(first.0.processIdentifier, SIGKILL)
                killedMidInput = true
                break
            }
            usleep(2_000)
        }
        _ = finish(first)
        XCTAssertTrue(killedMidInput, "the batch ended before it could be killed mid-input")
        XCTAssertEqual(first.0.terminationReason, .uncaughtSignal)
        let left = try rows(spec, "SELECT path, attempts FROM scans WHERE status = 'running'")
        XCTAssertLessThanOrEqual(left.count, 1, "\(left)")
        XCTAssertLessThan(try count(spec, "SELECT COUNT(*) FROM scans WHERE status = 'done'"), paths.count)

        let second = try CLITests.run(["batch", "--list", list.path, "--store", spec, "--jobs", "1"])
        XCTAssertEqual(second.status, 0, second.stderr)
        try assertOneResultSetPerInput(spec, paths)
        for r in left {
            // The input the killed process held was taken over at once (its process is gone) and counted.
            XCTAssertEqual(try rows(spec, "SELECT attempts FROM scans WHERE path = '\(r[0] ?? "")'").first?.first, "2")
        }
    }

    func testKilledShardRestartsWithoutDuplicateOrGapSQLite() throws { try killedShard(.sqlite) }
    func testKilledShardRestartsWithoutDuplicateOrGapPostgres() throws { try killedShard(.postgres) }

    func poison(_ backend: Backend) throws {
        let spec = try storeSpec(backend)
        let (folder, _, paths) = try Self.makeInputs(3, label: "poison")
        let poison = try Self.makePoison(in: folder)
        // The reader's clear error is the input's result: failed at once, with the reason.
        let run = try CLITests.run(["batch", folder.path, "--store", spec])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("3 scanned, 0 already done, 1 failed"), run.stdout)
        let failed = try rows(spec, "SELECT path, attempts, error FROM scans WHERE status = 'failed'")
        XCTAssertEqual(failed.map { $0[0] }, [poison])
        XCTAssertEqual(failed.first?[1], "1")
        XCTAssertTrue((failed.first?[2] ?? nil)?.contains("cannot hold 65000 entries") == true, "\(failed)")
        XCTAssertEqual(try count(spec, "SELECT COUNT(*) FROM scans WHERE status = 'done'"), paths.count)

        // A scan that never answers in time: its worker is killed, the attempt fails, and
        // after the attempts the row is failed with the reason; the run goes on.
        let slow = try storeSpec(backend)
        let timed = try CLITests.run(["batch", poison, "--store", slow, "--timeout", "0.001", "--max-attempts", "2"])
        XCTAssertEqual(timed.status, 0, timed.stderr)
        let row = try rows(slow, "SELECT status, attempts, error FROM scans")
        XCTAssertEqual(row.count, 1)
        XCTAssertEqual(row.first?[0], "failed")
        XCTAssertEqual(row.first?[1], "2")
        XCTAssertTrue((row.first?[2] ?? nil)?.contains("timed out after 0.001 s (attempt 2 of 2)") == true, "\(row)")
        // A later run leaves a failed input alone, unless asked.
        let again = try CLITests.run(["batch", poison, "--store", slow, "--timeout", "0.001", "--max-attempts", "2"])
        XCTAssertTrue(again.stdout.contains("0 scanned, 0 already done, 1 failed, 0 retried"), again.stdout)
        XCTAssertEqual(try rows(slow, "SELECT attempts FROM scans").first?.first, "2")
    }

    func testPoisonInputEndsFailedAfterItsAttemptsSQLite() throws { try poison(.sqlite) }
    func testPoisonInputEndsFailedAfterItsAttemptsPostgres() throws { try poison(.postgres) }

    func testSIGTERMFinishesTheInputInFlightAndStopsCleanly() throws {
        let spec = try storeSpec(.sqlite)
        let (_, list, paths) = try Self.makeInputs(40, label: "term")
        let first = try start(["batch", "--list", list.path, "--store", spec, "--jobs", "1"])
        let deadline = Date().addingTimeInterval(60)
        var watcher: (any FleetStore)?
        while Date() < deadline && first.0.isRunning {
            if watcher == nil { watcher = try? FleetStores.open(spec) }
            if let done = try? watcher?.rows("SELECT COUNT(*) FROM scans WHERE status = 'done'").first?.first.flatMap({ $0 }).flatMap(Int.init),
               done >= 3 { break }
            usleep(5_000)
        }
        watcher?.close()
        kill(first.0.processIdentifier, SIGTERM)
        let r = finish(first)
        XCTAssertEqual(r.status, 128 + SIGTERM, r.stderr)
        XCTAssertEqual(try count(spec, "SELECT COUNT(*) FROM scans WHERE status = 'running'"), 0, "nothing left claimed")
        let second = try CLITests.run(["batch", "--list", list.path, "--store", spec])
        XCTAssertEqual(second.status, 0, second.stderr)
        try assertOneResultSetPerInput(spec, paths)
        XCTAssertEqual(try count(spec, "SELECT MAX(attempts) FROM scans"), 1, "a finished or rolled-back input counts one attempt")
    }

    // MARK: - Reading

    func testSummaryInThreeFormats() throws {
        let spec = try storeSpec(.sqlite)
        let (folder, _, _) = try Self.makeInputs(6, label: "summary")
        _ = try Self.makePoison(in: folder)
        XCTAssertEqual(try CLITests.run(["batch", folder.path, "--store", spec]).status, 0)
        let text = try CLITests.run(["batch", "summary", "--store", spec])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.hasPrefix("Preflight fleet: 7 inputs: 6 scanned, 1 failed, 0 pending"), text.stdout)
        XCTAssertTrue(text.stdout.contains("NSCameraUsageDescription: 3"), text.stdout)
        XCTAssertTrue(text.stdout.contains("Apps allowing cleartext traffic"), text.stdout)
        XCTAssertTrue(text.stdout.contains("App0003.ipa (com.example.app3 1.0): ats-policy, ats_arbitrary_loads"), text.stdout)
        let json = try CLITests.run(["batch", "summary", "--store", spec, "--format", "json"])
        let summary = try JSONDecoder().decode(FleetSummary.self, from: Data(json.stdout.utf8))
        XCTAssertEqual(summary.done, 6)
        XCTAssertEqual(summary.failed, 1)
        XCTAssertEqual(summary.cleartextApps.count, 2)
        XCTAssertEqual(summary.permissions.first { $0.name == "NSCameraUsageDescription" }?.apps, 3)
        XCTAssertEqual(summary.findings, summary.findingsByRule.map(\.findings).reduce(0, +))
        let markdown = try CLITests.run(["batch", "summary", "--store", spec, "--format", "markdown"])
        XCTAssertTrue(markdown.stdout.contains("| 7 | 6 | 1 | 0 |"), markdown.stdout)
        XCTAssertTrue(markdown.stdout.contains("## Apps allowing cleartext traffic"), markdown.stdout)
    }

    func testShardOptionReadsKubernetesIndexedJobEnvironment() throws {
        let spec = try storeSpec(.sqlite)
        let (_, list, paths) = try Self.makeInputs(6, label: "auto")
        var total = 0
        for i in 0..<2 {
            let r = try CLITests.run(["batch", "--list", list.path, "--store", spec, "--shard", "auto"],
                                     environment: ["JOB_COMPLETION_INDEX": "\(i)", "PREFLIGHT_SHARD_COUNT": "2"])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stdout.contains("(shard \(i)/2 of 6)"), r.stdout)
            total += Int(r.stdout.split(separator: " ").first ?? "") ?? 0
        }
        XCTAssertEqual(total, paths.count)
        try assertOneResultSetPerInput(spec, paths)
        let missing = try CLITests.run(["batch", "--list", list.path, "--store", spec, "--shard", "auto"])
        XCTAssertEqual(missing.status, 64, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("JOB_COMPLETION_INDEX"), missing.stderr)
    }

    func testInventoryRowsOfAnApp() throws {
        let spec = try storeSpec(.sqlite)
        let ipa = try GoldenTests.makeIPA()
        let r = try CLITests.run(["batch", ipa.path, "--store", spec])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try rows(spec, "SELECT app_identifier, app_version, minimum_os, product_kind FROM scans").first,
                       ["com.example.demo", "2.0", "15.0", "ipa"])
        XCTAssertEqual(try rows(spec, "SELECT bundle, key, purpose FROM permissions WHERE key = 'NSMicrophoneUsageDescription'").first,
                       ["Recorder.appex", "NSMicrophoneUsageDescription", "Record voice memos for your trips."])
        XCTAssertEqual(try rows(spec, "SELECT name, version FROM frameworks WHERE embedded = 1").map { $0[0] }, ["MyKit.framework"])
        XCTAssertTrue(try rows(spec, "SELECT name FROM frameworks WHERE embedded = 0").contains(["CoreLocation"]))
        XCTAssertGreaterThan(try count(spec, "SELECT COUNT(*) FROM finding_evidence"), 0)
        let sha = try rows(spec, "SELECT input_sha256 FROM scans").first?.first ?? nil
        XCTAssertEqual(sha, try InputDigest.sha256(path: ipa.path))
        XCTAssertEqual(sha?.count, 64)
    }
}
