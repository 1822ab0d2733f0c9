import Fleet
import Foundation
import PreflightKit

struct Unchecked<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// The server's behaviour, independent of the HTTP library: a request in, a response out.
/// Every request is resolved through `RouteTable`, authenticated (bearer token for the API and
/// operations, session cookie for pages), checked against the route's role, rate-limited per
/// token, answered, and — when it changes something or is refused — written to the audit log.
public final class ServerAPI: @unchecked Sendable {
    public struct Settings: Sendable {
        /// Largest upload accepted, in bytes; larger bodies are refused from their Content-Length.
        public var maxUploadBytes = 2 << 30
        /// Requests a token may make per minute (uploads count ten).
        public var requestsPerMinute = 600
        public var sessionSeconds: Double = 8 * 3600
        /// Cookies with `Secure` (behind TLS; off only for plain-HTTP loopback tests).
        public var secureCookies = true

        public init() {}
    }

    let store: any FleetStore
    let tokens: TokenStore
    let uploads: UploadStore
    let queries: ServerQueries
    let settings: Settings
    let onUpload: @Sendable () -> Void
    let log: @Sendable (String) -> Void
    /// Store calls leave Swift's cooperative threads: the PostgreSQL store blocks on its own
    /// event loop, and a connection takes one statement at a time.
    let database: DispatchQueue
    let limiter = RateLimiter()
    public let metrics = ServerMetrics()
    public var queueStats: @Sendable () -> (depth: Int?, stats: BatchStats?, error: String?) = { (nil, nil, nil) }

    public init(store: any FleetStore, uploads: UploadStore, versions: ServerQueries.ScanVersions, settings: Settings,
                onUpload: @escaping @Sendable () -> Void, log: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.tokens = TokenStore(store: store)
        self.uploads = uploads
        self.queries = ServerQueries(store: store, versions: versions)
        self.settings = settings
        self.onUpload = onUpload
        self.log = log
        database = store is SQLiteStore ? DispatchQueue(label: "preflight.server.db", attributes: .concurrent)
                                        : DispatchQueue(label: "preflight.server.db")
    }

    /// Runs store work on `database`. The closures and results cross threads unchecked: the
    /// SQLite store is a thread-safe GRDB pool, and the PostgreSQL store's queue is serial.
    func db<T>(_ body: @escaping () throws -> T) async throws -> T {
        let work = Unchecked(body)
        let result: Unchecked<Result<T, Error>> = await withCheckedContinuation { c in
            database.async { c.resume(returning: Unchecked(Result { try work.value() })) }
        }
        return try result.value.get()
    }

    /// Who is calling, once authenticated.
    struct Caller: Sendable {
        var principal: TokenStore.Principal
        var csrf: String?
    }

    public func handle(_ request: ServerRequest) async -> ServerResponse {
        let started = DispatchTime.now().uptimeNanoseconds
        var response: ServerResponse
        var operation = "unknown"
        switch RouteTable.resolve(method: request.method, path: request.path) {
        case .notFound:
            response = .error(404, "no such route: \(request.path)")
        case .methodNotAllowed(let allowed):
            response = .error(405, "\(request.method) is not allowed here; allowed: \(allowed.joined(separator: ", "))")
            response.headers.append(("Allow", allowed.joined(separator: ", ")))
        case .found(let route, let parameters):
            operation = route.operation
            response = await authorizeAndRun(route, parameters, request)
        }
        if request.method == "HEAD" { response.body = .bytes([]) }
        response.headers += Self.securityHeaders(for: response)
        metrics.observe(operation: operation, status: response.status,
                        seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
        return response
    }

    func authorizeAndRun(_ route: Route, _ parameters: [String: String], _ request: ServerRequest) async -> ServerResponse {
        var caller: Caller?
        if case .role(let needed) = route.access {
            do {
                caller = try await authenticate(request, kind: route.kind)
            } catch {
                return .error(503, "the store is unavailable: \(error)")
            }
            guard let c = caller else {
                if route.kind == .page {
                    // A browser without a session goes to the sign-in page.
                    return route.method == "GET" ? Self.redirect("/login") : .error(401, "sign in first")
                }
                await audit(nil, "denied \(route.operation)", target: request.path, status: 401)
                var r = ServerResponse.error(401, "a valid token is needed: Authorization: Bearer <token>")
                r.headers.append(("WWW-Authenticate", "Bearer realm=\"preflight\""))
                return r
            }
            guard c.principal.role >= needed else {
                await audit(c.principal, "denied \(route.operation)", target: request.path, status: 403)
                if route.kind == .page {
                    return Self.page(403, title: "Not allowed", caller: c,
                                     body: "<p class=\"error\" role=\"alert\">This needs the \(needed.rawValue) role; you are signed in as \(c.principal.role.rawValue).</p>")
                }
                return .error(403, "\(route.operation) needs the \(needed.rawValue) role; this token is \(c.principal.role.rawValue)")
            }
            let cost = route.operation == "createUpload" ? 10 : 1
            guard limiter.allow(key: c.principal.tokenID, cost: cost, perMinute: settings.requestsPerMinute) else {
                var r = ServerResponse.error(429, "too many requests for this token; try again in a minute")
                r.headers.append(("Retry-After", "60"))
                return r
            }
        }
        do {
            return try await run(route, parameters, request, caller)
        } catch let e as ServerError {
            return .error(e.status, e.description)
        } catch {
            log("\(route.operation): \(error)")
            return .error(503, "the store is unavailable; try again (\(type(of: error)))")
        }
    }

    func authenticate(_ request: ServerRequest, kind: Route.Kind) async throws -> Caller? {
        if let header = request.headers["authorization"] {
            let parts = header.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
            let secret = String(parts[1]).trimmingCharacters(in: .whitespaces)
            let tokens = self.tokens
            guard let p = try await db({ try tokens.verify(secret: secret) }) else { return nil }
            return Caller(principal: p, csrf: nil)
        }
        if kind == .page, let cookie = Self.cookie(named: "preflight_session", in: request.headers["cookie"]) {
            let tokens = self.tokens
            guard let s = try await db({ try tokens.session(cookie: cookie) }) else { return nil }
            return Caller(principal: s.principal, csrf: s.csrf)
        }
        return nil
    }

    static func cookie(named name: String, in header: String?) -> String? {
        for part in (header ?? "").split(separator: ";") {
            let kv = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if kv.count == 2, kv[0] == name { return kv[1] }
        }
        return nil
    }

    func audit(_ who: TokenStore.Principal?, _ action: String, target: String?, status: Int) async {
        let line = "audit: \(who.map { "token \($0.tokenID) (\($0.name), \($0.role.rawValue))" } ?? "anonymous") \(action) \(target ?? "") → \(status)"
        log(line)
        let store = self.store
        _ = try? await db {
            try store.write([FleetStatement("INSERT INTO server_audit (at, token_id, action, target, status) VALUES (?, ?, ?, ?, ?)",
                                            [.text(Date().fleetTimestampText), who.map { .int($0.tokenID) }, .text(action),
                                             target.map { .text(String($0.prefix(500))) }, .int(Int64(status))])])
        }
    }

    static func securityHeaders(for response: ServerResponse) -> [(String, String)] {
        var h: [(String, String)] = [
            ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"), ("X-Frame-Options", "DENY"),
            ("Cross-Origin-Opener-Policy", "same-origin"), ("Cross-Origin-Resource-Policy", "same-origin"),
        ]
        if response.header("Cache-Control") == nil { h.append(("Cache-Control", "no-store")) }
        if response.header("Content-Security-Policy") == nil {
            h.append(("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"))
        }
        return h
    }

    // MARK: Dispatch

    func run(_ route: Route, _ p: [String: String], _ request: ServerRequest, _ caller: Caller?) async throws -> ServerResponse {
        switch route.operation {
        case "health": return .text(200, "ok\n")
        case "readiness": return try await readiness()
        case "metrics": return try await metricsText()
        case "createUpload": return try await createUpload(request, caller)
        case "listUploads": return try await listUploads(request)
        case "getUpload": return try await getUpload(try Self.id(p))
        case "deleteUpload": return try await deleteUpload(try Self.id(p), caller)
        case "getReport": return try await report(try Self.id(p), format: request.query["format"] ?? "json")
        case "inspectUpload": return try await inspect(try Self.id(p))
        case "listApps": return try await listApps()
        case "diffUploads": return try await diff(request)
        case "fleetFindings": return try await fleet("findings", ["rule", "severity"], request, filters: ["rule", "severity"])
        case "fleetPermissions": return try await fleet("permissions", ["key"], request, filters: ["key"])
        case "fleetSDKs": return try await fleet("frameworks", ["name"], request, filters: ["name"], extra: "t.embedded = 1")
        case "fleetDomains": return try await fleet("domains", ["domain"], request, filters: ["domain"])
        case "fleetEntitlements": return try await fleet("entitlements", ["key"], request, filters: ["key"])
        case "listTokens": return try await listTokens()
        case "createToken": return try await createToken(request, caller)
        case "revokeToken": return try await revokeToken(try Self.id(p), caller)
        case "loginPage": return loginPage(request)
        case "login": return try await login(request)
        case "logout": return try await logout(request, caller)
        case "homePage": return try await homePage(caller)
        case "uploadForm": return try await uploadForm(request, caller)
        case "uploadPage": return try await uploadPage(try Self.id(p), caller)
        case "reportPage": return try await reportPage(try Self.id(p))
        case "appsPage": return try await appsPage(caller)
        case "diffPage": return try await diffPage(request, caller)
        case "fleetPage": return try await fleetPage(caller)
        default: return .error(500, "route \(route.operation) has no handler")
        }
    }

    static func id(_ p: [String: String]) throws -> Int64 {
        guard let s = p["id"], let id = Int64(s), id > 0 else { throw ServerError.badRequest("the id must be a positive integer") }
        return id
    }
}
