import Fleet
import Formats
import Foundation

/// API tokens and browser sessions in the fleet store. A token is shown once, when it is
/// created; the store keeps its SHA-256 only, so a copy of the database grants nothing.
/// Tokens are 32 random bytes from the system's secure generator, which makes a fast hash the
/// right choice (no password to stretch).
public struct TokenStore {
    public struct Token: Sendable, Equatable {
        public var id: Int64
        public var name: String
        public var role: ServerRole
        public var createdAt: String
        public var revokedAt: String?
        public var lastUsedAt: String?
    }

    /// Who a request acts as.
    public struct Principal: Sendable, Equatable {
        public var tokenID: Int64
        public var name: String
        public var role: ServerRole
    }

    static let prefix = "pfs_"
    let store: any FleetStore

    public init(store: any FleetStore) { self.store = store }

    static func randomHex(_ count: Int) -> String {
        var g = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &g) }.hexString
    }

    static func hash(_ secret: String) -> String { SHA256Digest.hex(Array(secret.utf8)) }

    /// Creates a token and returns its secret (shown once) with its row.
    public func create(name: String, role: ServerRole) throws -> (secret: String, token: Token) {
        let clean = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !clean.isEmpty, clean.count <= 100, !clean.contains(where: { $0.isNewline }) else {
            throw ServerError.badRequest("a token needs a name of 1 to 100 characters on one line")
        }
        let secret = Self.prefix + Self.randomHex(32)
        let now = Date().fleetTimestampText
        let rows = try store.write([FleetStatement(
            "INSERT INTO server_tokens (name, role, token_sha256, created_at) VALUES (?, ?, ?, ?) RETURNING id",
            [.text(clean), .text(role.rawValue), .text(Self.hash(secret)), .text(now)])])
        guard let id = rows.first?.first.flatMap({ $0 }).flatMap(Int64.init) else { throw ServerError.unavailable("the store returned no token id") }
        return (secret, Token(id: id, name: clean, role: role, createdAt: now, revokedAt: nil, lastUsedAt: nil))
    }

    public func list() throws -> [Token] {
        try store.rows("SELECT id, name, role, created_at, revoked_at, last_used_at FROM server_tokens ORDER BY id", []).compactMap { r in
            guard let id = r[0].flatMap(Int64.init), let role = r[2].flatMap(ServerRole.init(rawValue:)) else { return nil }
            return Token(id: id, name: r[1] ?? "", role: role, createdAt: r[3] ?? "", revokedAt: r[4], lastUsedAt: r[5])
        }
    }

    /// Revokes a token and ends its sessions; false when no live token has that id.
    public func revoke(id: Int64) throws -> Bool {
        let rows = try store.write([
            FleetStatement("DELETE FROM server_sessions WHERE token_id = ?", [.int(id)]),
            FleetStatement("UPDATE server_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL RETURNING id",
                           [.text(Date().fleetTimestampText), .int(id)]),
        ])
        return !rows.isEmpty
    }

    /// The live token a secret names, or nil (unknown, malformed or revoked).
    public func verify(secret: String) throws -> Principal? {
        guard secret.hasPrefix(Self.prefix), secret.count == Self.prefix.count + 64,
              secret.dropFirst(Self.prefix.count).allSatisfy(\.isHexDigit) else { return nil }
        let rows = try store.rows("SELECT id, name, role FROM server_tokens WHERE token_sha256 = ? AND revoked_at IS NULL",
                                  [.text(Self.hash(secret))])
        guard let r = rows.first, let id = r[0].flatMap(Int64.init), let role = r[2].flatMap(ServerRole.init(rawValue:)) else { return nil }
        return Principal(tokenID: id, name: r[1] ?? "", role: role)
    }

    /// Records that a token was used (at most once a minute per token, by the caller's choice).
    public func touch(_ tokenID: Int64) throws {
        try store.write([FleetStatement("UPDATE server_tokens SET last_used_at = ? WHERE id = ?",
                                        [.text(Date().fleetTimestampText), .int(tokenID)])])
    }

    // MARK: Sessions

    public struct Session: Sendable, Equatable {
        public var principal: Principal
        public var csrf: String
    }

    /// Starts a browser session for a token: returns the cookie value (random; only its hash
    /// is stored) and the CSRF token forms must carry.
    public func startSession(for principal: Principal, lifetime: Double, now: Double = Date().timeIntervalSince1970) throws -> (cookie: String, csrf: String) {
        let cookie = Self.randomHex(32), csrf = Self.randomHex(16)
        try store.write([
            FleetStatement("DELETE FROM server_sessions WHERE expires_at < ?", [.real(now)]),
            FleetStatement("INSERT INTO server_sessions (id_sha256, token_id, csrf, expires_at) VALUES (?, ?, ?, ?)",
                           [.text(Self.hash(cookie)), .int(principal.tokenID), .text(csrf), .real(now + lifetime)]),
        ])
        return (cookie, csrf)
    }

    public func session(cookie: String, now: Double = Date().timeIntervalSince1970) throws -> Session? {
        guard cookie.count == 64, cookie.allSatisfy(\.isHexDigit) else { return nil }
        let rows = try store.rows("""
            SELECT t.id, t.name, t.role, s.csrf FROM server_sessions s JOIN server_tokens t ON t.id = s.token_id
            WHERE s.id_sha256 = ? AND s.expires_at > ? AND t.revoked_at IS NULL
            """, [.text(Self.hash(cookie)), .real(now)])
        guard let r = rows.first, let id = r[0].flatMap(Int64.init), let role = r[2].flatMap(ServerRole.init(rawValue:)) else { return nil }
        return Session(principal: Principal(tokenID: id, name: r[1] ?? "", role: role), csrf: r[3] ?? "")
    }

    public func endSession(cookie: String) throws {
        try store.write([FleetStatement("DELETE FROM server_sessions WHERE id_sha256 = ?", [.text(Self.hash(cookie))])])
    }
}
