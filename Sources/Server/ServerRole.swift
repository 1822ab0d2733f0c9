/// What a token may do. Each role includes the ones before it: a reader reads reports and
/// fleet queries, an uploader also uploads, an admin also deletes and manages tokens.
public enum ServerRole: String, Sendable, CaseIterable, Comparable, Codable {
    case reader, uploader, admin

    private var rank: Int { self == .reader ? 0 : self == .uploader ? 1 : 2 }
    public static func < (a: ServerRole, b: ServerRole) -> Bool { a.rank < b.rank }
}

/// Who may call a route.
public enum RouteAccess: Sendable, Equatable {
    /// No token: health and readiness probes, the login page.
    case anyone
    /// A token (API) or a session (pages) of at least this role.
    case role(ServerRole)
}
