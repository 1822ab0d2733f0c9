import Foundation
import PreflightServer
import XCTest

/// Every route of the authorization table, called with no token, a wrong token and a token of
/// each role: refused (401/403) exactly when the table says so. A route the table lacks does
/// not exist (404), whatever the token.
final class ServerAuthorizationTests: XCTestCase {
    static func concretePath(_ template: String) -> String {
        // An id nothing has: a DELETE must not revoke the tokens the loop goes on using.
        let path = template.split(separator: "/").map { $0.hasPrefix("{") ? "999999" : String($0) }.reduce("") { $0 + "/" + $1 }
        return path.isEmpty ? "/" : path
    }

    func testEveryRouteRefusesExactlyTheCallersItsEntryExcludes() async throws {
        let server = try TestServer()
        XCTAssertGreaterThanOrEqual(RouteTable.all.count, 29)
        for route in RouteTable.all {
            let path = Self.concretePath(route.template)
            let anonymous = await server.request(route.method, path, role: nil)
            let forged = await server.request(route.method, path, role: nil,
                                              headers: ["Authorization": "Bearer pfs_" + String(repeating: "0", count: 64)])
            switch route.access {
            case .anyone:
                XCTAssertNil(anonymous.header("WWW-Authenticate"), "\(route.operation) must be open")
                XCTAssertNotEqual(anonymous.status, 403, route.operation)
                XCTAssertNotEqual(anonymous.header("Location"), "/login", route.operation)
            case .role(let needed):
                if route.kind == .page {
                    // A browser without a session is sent to sign in; a form post is refused.
                    XCTAssertEqual(anonymous.status, route.method == "GET" ? 303 : 401, route.operation)
                    if route.method == "GET" { XCTAssertEqual(anonymous.header("Location"), "/login") }
                } else {
                    XCTAssertEqual(anonymous.status, 401, "\(route.operation) without a token")
                    XCTAssertNotNil(anonymous.header("WWW-Authenticate"))
                }
                XCTAssertTrue([401, 303].contains(forged.status), "\(route.operation) with an unknown token: \(forged.status)")
                for role in ServerRole.allCases {
                    let r = await server.request(route.method, path, role: role)
                    if role >= needed {
                        XCTAssertFalse([401, 403].contains(r.status), "\(route.operation) as \(role): \(r.status) \(r.bodyText)")
                        if route.method == "GET" { XCTAssertNotEqual(r.header("Location"), "/login", "\(route.operation) as \(role)") }
                    } else {
                        XCTAssertEqual(r.status, 403, "\(route.operation) as \(role)")
                    }
                }
            }
        }
    }

    func testAPathWithoutAnEntryIsNotFoundForEveryoneAndAWrongMethodIsRefused() async throws {
        let server = try TestServer()
        for role in [nil] + ServerRole.allCases.map(Optional.some) {
            let r = await server.request("GET", "/api/v1/admin/secrets", role: role)
            XCTAssertEqual(r.status, 404)
            let traversal = await server.request("GET", "/api/v1/uploads/../../etc/passwd", role: role)
            XCTAssertEqual(traversal.status, 404)
        }
        let wrong = await server.request("PUT", "/api/v1/uploads", role: .admin)
        XCTAssertEqual(wrong.status, 405)
        XCTAssertEqual(wrong.header("Allow"), "POST, GET")
    }

    func testARevokedTokenIsRefusedAndEveryResponseCarriesTheSecurityHeaders() async throws {
        let server = try TestServer()
        let created = await server.request("POST", "/api/v1/tokens", role: .admin, body: Array(#"{"name": "ci", "role": "reader"}"#.utf8))
        XCTAssertEqual(created.status, 201)
        let doc = server.json(created)
        let secret = try XCTUnwrap(doc["secret"] as? String)
        let id = try XCTUnwrap(doc["id"] as? Int)
        let use = { await server.request("GET", "/api/v1/apps", role: nil, headers: ["Authorization": "Bearer \(secret)"]) }
        let before = await use()
        XCTAssertEqual(before.status, 200)
        let listed = server.json(await server.request("GET", "/api/v1/tokens", role: .admin))
        XCTAssertFalse("\(listed)".contains(secret), "a token's secret is shown once, never listed")
        let status9 = await server.request("DELETE", "/api/v1/tokens/\(id)", role: .admin).status
        XCTAssertEqual(status9, 204)
        let after = await use()
        XCTAssertEqual(after.status, 401)
        for r in [before, after] {
            XCTAssertEqual(r.header("X-Content-Type-Options"), "nosniff")
            XCTAssertEqual(r.header("Cache-Control"), "no-store")
            XCTAssertTrue(r.header("Content-Security-Policy")?.contains("default-src 'none'") ?? false)
        }
        let audit = try server.store.rows("SELECT action, status FROM server_audit ORDER BY id", [])
        XCTAssertTrue(audit.contains { $0[0] == "create token" && $0[1] == "201" })
        XCTAssertTrue(audit.contains { $0[0] == "revoke token" && $0[1] == "204" })
        XCTAssertTrue(audit.contains { ($0[0] ?? "").hasPrefix("denied") && $0[1] == "401" })
    }

    func testRateLimitPerToken() async throws {
        let server = try TestServer(requestsPerMinute: 5)
        var statuses: [Int] = []
        for _ in 0..<8 { statuses.append(await server.request("GET", "/api/v1/apps", role: .reader).status) }
        XCTAssertEqual(statuses.filter { $0 == 200 }.count, 5)
        XCTAssertEqual(statuses.last, 429)
        // Another token has its own budget.
        let status10 = await server.request("GET", "/api/v1/apps", role: .admin).status
        XCTAssertEqual(status10, 200)
    }
}
