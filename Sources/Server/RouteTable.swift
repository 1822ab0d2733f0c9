/// Every route the server answers, with who may call it: the authorization table. The server
/// dispatches only through this table, so a route without an entry does not exist, and
/// `ServerAuthorizationTests` checks every entry with every role.
public struct Route: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// JSON API under `/api/v1`, authenticated by `Authorization: Bearer <token>`.
        case api
        /// Server-rendered pages, authenticated by the session cookie (forms carry a CSRF token).
        case page
        /// Probes and metrics.
        case operations
    }

    public var method: String
    /// Segments; `{name}` matches one segment.
    public var template: String
    public var access: RouteAccess
    public var kind: Kind
    /// The OpenAPI operation id (docs/server/openapi.yaml lists every API route by it).
    public var operation: String

    public init(_ method: String, _ template: String, _ access: RouteAccess, _ kind: Kind, _ operation: String) {
        self.method = method
        self.template = template
        self.access = access
        self.kind = kind
        self.operation = operation
    }

    /// The path's parameters when it matches this route's template.
    public func match(method: String, path: String) -> [String: String]? {
        guard method == self.method || (method == "HEAD" && self.method == "GET") else { return nil }
        return Self.match(template: template, path: path)
    }

    static func match(template: String, path: String) -> [String: String]? {
        let t = template.split(separator: "/", omittingEmptySubsequences: true)
        let p = path.split(separator: "/", omittingEmptySubsequences: true)
        guard t.count == p.count else { return nil }
        var parameters: [String: String] = [:]
        for (a, b) in zip(t, p) {
            if a.hasPrefix("{") && a.hasSuffix("}") {
                parameters[String(a.dropFirst().dropLast())] = String(b)
            } else if a != b {
                return nil
            }
        }
        return parameters
    }
}

public enum RouteTable {
    public static let all: [Route] = [
        Route("GET", "/healthz", .anyone, .operations, "health"),
        Route("GET", "/readyz", .anyone, .operations, "readiness"),
        Route("GET", "/metrics", .role(.reader), .operations, "metrics"),

        Route("POST", "/api/v1/uploads", .role(.uploader), .api, "createUpload"),
        Route("GET", "/api/v1/uploads", .role(.reader), .api, "listUploads"),
        Route("GET", "/api/v1/uploads/{id}", .role(.reader), .api, "getUpload"),
        Route("DELETE", "/api/v1/uploads/{id}", .role(.admin), .api, "deleteUpload"),
        Route("GET", "/api/v1/uploads/{id}/report", .role(.reader), .api, "getReport"),
        Route("GET", "/api/v1/uploads/{id}/inspect", .role(.reader), .api, "inspectUpload"),
        Route("GET", "/api/v1/apps", .role(.reader), .api, "listApps"),
        Route("GET", "/api/v1/diff", .role(.reader), .api, "diffUploads"),
        Route("GET", "/api/v1/fleet/findings", .role(.reader), .api, "fleetFindings"),
        Route("GET", "/api/v1/fleet/permissions", .role(.reader), .api, "fleetPermissions"),
        Route("GET", "/api/v1/fleet/sdks", .role(.reader), .api, "fleetSDKs"),
        Route("GET", "/api/v1/fleet/domains", .role(.reader), .api, "fleetDomains"),
        Route("GET", "/api/v1/fleet/entitlements", .role(.reader), .api, "fleetEntitlements"),
        Route("GET", "/api/v1/tokens", .role(.admin), .api, "listTokens"),
        Route("POST", "/api/v1/tokens", .role(.admin), .api, "createToken"),
        Route("DELETE", "/api/v1/tokens/{id}", .role(.admin), .api, "revokeToken"),

        Route("GET", "/login", .anyone, .page, "loginPage"),
        Route("POST", "/login", .anyone, .page, "login"),
        Route("POST", "/logout", .role(.reader), .page, "logout"),
        Route("GET", "/", .role(.reader), .page, "homePage"),
        Route("POST", "/uploads", .role(.uploader), .page, "uploadForm"),
        Route("GET", "/uploads/{id}", .role(.reader), .page, "uploadPage"),
        Route("GET", "/uploads/{id}/report", .role(.reader), .page, "reportPage"),
        Route("GET", "/apps", .role(.reader), .page, "appsPage"),
        Route("GET", "/diff", .role(.reader), .page, "diffPage"),
        Route("GET", "/fleet", .role(.reader), .page, "fleetPage"),
    ]

    /// The route a request names, with its path parameters; nil when no route has that path,
    /// `.methodNotAllowed` when one has it for another method.
    public static func resolve(method: String, path: String) -> Resolution {
        for r in all { if let p = r.match(method: method, path: path) { return .found(r, p) } }
        let allowed = all.filter { Route.match(template: $0.template, path: path) != nil }.map(\.method)
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed)
    }

    public enum Resolution: Sendable, Equatable {
        case found(Route, [String: String])
        case methodNotAllowed([String])
        case notFound
    }
}
