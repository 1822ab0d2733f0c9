import ArgumentParser
import Fleet
import Foundation
import PreflightKit
import PreflightServer

/// `preflight serve`: the HTTP API and scan queue on a fleet store (docs/server.md).
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the Preflight server: upload .ipa files over HTTP, read reports, diffs and fleet queries (docs/server.md).")

    @Option(help: "Address to listen on, HOST:PORT (port 0 picks a free one).")
    var listen: String = "127.0.0.1:8080"

    @Option(help: "A SQLite file, or postgres://user[:password]@host[:port]/database (several replicas).")
    var store: String = "preflight-server.sqlite"

    @Option(help: "Folder for uploaded files, kept by content hash (a shared volume for replicas).")
    var uploads: String = "preflight-uploads"

    @Option(name: .customLong("max-upload-mb"), help: "Largest upload accepted, in MiB.")
    var maxUploadMB: Int = 2048

    @Option(help: "Scanning processes side by side.")
    var jobs: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)

    @Option(help: "Seconds one scan may take before its process is killed (the attempt fails and is retried).")
    var timeout: Double = 300

    @Option(name: .customLong("requests-per-minute"), help: "Requests per token per minute (an upload counts ten).")
    var requestsPerMinute: Int = 600

    @Option(name: .customLong("retention-days"),
            help: "Delete uploads (file, scan and report) this many days after they arrived; 0 keeps them.")
    var retentionDays: Int = 0

    @Flag(name: .customLong("insecure-cookies"), help: "Session cookies without Secure (plain HTTP on loopback only).")
    var insecureCookies = false

    func validate() throws {
        guard maxUploadMB >= 1, jobs >= 1, timeout > 0, requestsPerMinute >= 1 else {
            throw ValidationError("--max-upload-mb, --jobs, --timeout and --requests-per-minute must be positive")
        }
        guard (0...36_500).contains(retentionDays) else { throw ValidationError("--retention-days takes 0 (keep) to 36500") }
        _ = try address()
    }

    func address() throws -> (host: String, port: Int) {
        guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]), (0...65535).contains(port) else {
            throw ValidationError("--listen takes HOST:PORT, got '\(listen)'")
        }
        return (String(listen[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]")), port)
    }

    /// The rest of the CLI is synchronous: the server runs in a task while this thread waits.
    /// Opening and closing the stores happen here, on this thread, not in the task: the
    /// PostgreSQL store blocks its caller until its own task has run, which on a one-core
    /// machine (a cooperative pool of one thread) would never happen from inside a task.
    func run() throws {
        #if Server
        let server = try prepare()
        let box = ResultBox()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { try await server.serve() } catch { box.error = error }
            done.signal()
        }
        done.wait()
        server.log("stopping: finishing the scans in flight; uploads not scanned stay queued")
        server.queue.stop()
        server.store.close()
        server.statsStore.close()
        if let error = box.error { throw error }
        #else
        printError("this build has no server: build with `swift build --traits Server` (the release binaries and the container image have it)")
        throw Exit.failure
        #endif
    }

    final class ResultBox: @unchecked Sendable { var error: Error? }

    #if Server
    /// A PostgreSQL store reconnects after an outage (the server keeps running and answers 503
    /// meanwhile); a SQLite file is opened once. The first connection is made now, so a wrong
    /// URL stops the server at start.
    static func openServerStore(_ spec: String) throws -> any FleetStore {
        guard FleetStores.isPostgres(spec) else { return try FleetStores.open(spec) }
        let store = ReconnectingStore { try FleetStores.open(spec) }
        try store.connect()
        return store
    }
    #endif

    #if Server
    /// What a running server holds.
    struct Running: @unchecked Sendable {
        var api: ServerAPI
        var queue: ScanQueue
        var store: any FleetStore
        var statsStore: any FleetStore
        var uploadRoot: String
        var describedStore: String
        var host: String
        var port: Int
        var retentionDays: Int
        var log: @Sendable (String) -> Void

        func serve() async throws {
            // Retention: looked at on start and every hour after.
            let retention = Double(retentionDays) * 86_400
            let api = self.api, log = self.log, days = retentionDays
            let sweeper = Task {
                while retention > 0 && !Task.isCancelled {
                    do {
                        let removed = try await api.sweepRetention(before: Date().addingTimeInterval(-retention))
                        if removed > 0 { log("retention: deleted \(removed) upload\(removed == 1 ? "" : "s") older than \(days) days") }
                    } catch {
                        log("retention: \(error)")
                    }
                    try? await Task.sleep(nanoseconds: 3_600_000_000_000)
                }
            }
            defer { sweeper.cancel() }
            let host = self.host, described = describedStore, root = uploadRoot
            try await HummingbirdServer.run(api: api, host: host, port: port) { bound in
                log("listening on http://\(host):\(bound) (store \(described), uploads \(root))")
            }
        }
    }

    func prepare() throws -> Running {
        let (host, port) = try address()
        let configuration = Configuration()
        let versions = ServerQueries.ScanVersions(preflight: PreflightScanner.version, ruleset: BatchRunCommand.rulesetVersion,
                                                  config: BatchRunCommand.configHash(configuration))
        let spec = self.store
        let store: any FleetStore
        let uploadStore: UploadStore
        do {
            store = try Self.openServerStore(spec)
            uploadStore = try UploadStore(root: uploads, maxBytes: maxUploadMB << 20)
        } catch {
            printError("\(error)")
            throw Exit.failure
        }
        uploadStore.sweepIncoming(olderThan: 3600)
        let options = BatchOptions(executable: BatchRunCommand.executablePath(), workerArguments: ["batch", "worker"], jobs: jobs,
                                   timeout: timeout, policy: ClaimPolicy(maxAttempts: 3, leaseSeconds: 60, retryFailed: false),
                                   preflightVersion: versions.preflight, rulesetVersion: versions.ruleset, configHash: versions.config)
        let log: @Sendable (String) -> Void = { line in
            FileHandle.standardError.write(Data("preflight serve: \(line)\n".utf8))
        }
        let queue = ScanQueue(openStore: { try FleetStores.open(spec) }, options: options, versions: versions, log: log)
        var settings = ServerAPI.Settings()
        settings.maxUploadBytes = maxUploadMB << 20
        settings.requestsPerMinute = requestsPerMinute
        settings.secureCookies = !insecureCookies
        let api = ServerAPI(store: store, uploads: uploadStore, versions: versions, settings: settings,
                            onUpload: { queue.wake() }, log: log)
        let statsStore = try Self.openServerStore(spec)
        let queries = ServerQueries(store: statsStore, versions: versions)
        api.queueStats = { (try? queries.queueDepth(), queue.snapshot, queue.lastError) }
        queue.start()
        if try TokenStore(store: store).list().isEmpty {
            log("no tokens yet: create one with `preflight token create --store \(FleetStores.describe(spec)) --role admin NAME`")
        }
        return Running(api: api, queue: queue, store: store, statsStore: statsStore, uploadRoot: uploadStore.root.path,
                       describedStore: FleetStores.describe(spec), host: host, port: port, retentionDays: retentionDays, log: log)
    }
    #endif
}

/// `preflight token`: API tokens of the server, in its store. The secret is printed once.
struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Create, list and revoke the server's API tokens (docs/server.md).",
        subcommands: [Create.self, List.self, Revoke.self])

    struct StoreOption: ParsableArguments {
        @Option(help: "The server's store: a SQLite file or postgres://… URL.")
        var store: String = "preflight-server.sqlite"

        func open() throws -> TokenStore {
            do { return TokenStore(store: try FleetStores.open(store)) } catch {
                printError("\(error)")
                throw Exit.failure
            }
        }
    }

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a token and print its secret (shown once).")
        @Argument(help: "A name that says who or what uses the token.") var name: String
        @Option(help: "reader (reports and queries), uploader (also uploads) or admin (also deletes and manages tokens).")
        var role: String = "reader"
        @OptionGroup var store: StoreOption

        func run() throws {
            guard let role = ServerRole(rawValue: role) else { throw ValidationError("--role takes reader, uploader or admin") }
            let created: (secret: String, token: TokenStore.Token)
            do { created = try store.open().create(name: name, role: role) } catch let e as ServerError {
                throw ValidationError(e.description)
            }
            FileHandle.standardError.write(Data("token \(created.token.id) (\(role.rawValue)) created; its secret, shown once:\n".utf8))
            print(created.secret)
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List tokens (never their secrets).")
        @OptionGroup var store: StoreOption

        func run() throws {
            for t in try store.open().list() {
                print("\(t.id)\t\(t.role.rawValue)\t\(t.name)\tcreated \(t.createdAt)\(t.revokedAt.map { "\trevoked \($0)" } ?? "")")
            }
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a token and end its sessions.")
        @Argument(help: "The token's id (see `preflight token list`).") var id: Int64
        @OptionGroup var store: StoreOption

        func run() throws {
            guard try store.open().revoke(id: id) else {
                printError("no live token \(id)")
                throw Exit.failure
            }
            FileHandle.standardError.write(Data("token \(id) revoked\n".utf8))
        }
    }
}
