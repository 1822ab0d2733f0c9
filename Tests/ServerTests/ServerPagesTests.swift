import Foundation
import PreflightServer
import XCTest

/// The web interface in-process, as a browser drives it: sign in with a token (double-submit
/// login token), a session cookie with the right attributes, an upload through the form with
/// the session's CSRF token, a forged form refused, a reader refused the upload form, pages
/// escaped and sent with a strict CSP, sign out.
final class ServerPagesTests: XCTestCase {
    func cookies(_ r: ServerResponse) -> [String: String] {
        var out: [String: String] = [:]
        for (k, v) in r.headers where k == "Set-Cookie" {
            let first = v.split(separator: ";").first.map(String.init) ?? ""
            let kv = first.split(separator: "=", maxSplits: 1).map(String.init)
            out[kv[0]] = kv.count > 1 ? kv[1] : ""
        }
        return out
    }

    func signIn(_ server: TestServer, _ role: ServerRole) async throws -> String {
        let form = await server.request("GET", "/login", role: nil)
        XCTAssertEqual(form.status, 200)
        let nonce = try XCTUnwrap(cookies(form)["preflight_login"])
        XCTAssertTrue(form.bodyText.contains("name=\"login_csrf\" value=\"\(nonce)\""))
        let secret = try XCTUnwrap(server.secrets[role]).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let r = await server.request("POST", "/login", role: nil,
                                     headers: ["Content-Type": "application/x-www-form-urlencoded", "Cookie": "preflight_login=\(nonce)"],
                                     body: Array("login_csrf=\(nonce)&token=\(secret)".utf8))
        XCTAssertEqual(r.status, 303, r.bodyText)
        XCTAssertEqual(r.header("Location"), "/")
        let setCookie = r.headers.first { $0.0 == "Set-Cookie" && $0.1.hasPrefix("preflight_session=") }?.1 ?? ""
        XCTAssertTrue(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict"), setCookie)
        return try XCTUnwrap(cookies(r)["preflight_session"])
    }

    func csrf(in page: String) -> String? {
        guard let r = page.range(of: #"name="csrf" value="([0-9a-f]+)""#, options: .regularExpression) else { return nil }
        return page[r].split(separator: "\"").last.map(String.init)
    }

    func testSignInUploadThroughTheFormAndSignOut() async throws {
        let server = try TestServer()
        let session = try await signIn(server, .uploader)
        let cookie = ["Cookie": "preflight_session=\(session)"]
        let home = await server.request("GET", "/", role: nil, headers: cookie)
        XCTAssertEqual(home.status, 200)
        XCTAssertTrue(home.header("Content-Security-Policy")?.contains("default-src 'none'") ?? false)
        XCTAssertFalse(home.bodyText.contains("<script"), "pages work without JavaScript and send none")
        XCTAssertTrue(home.bodyText.contains("<label for=\"file\">"))
        let token = try XCTUnwrap(csrf(in: home.bodyText))

        // The form with the session's CSRF token before the file.
        let ipa = Array("PK\u{3}\u{4}not really an app".utf8)
        func post(_ csrf: String) async -> ServerResponse {
            let boundary = "FormBoundary7MA4YWxk"
            var body = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n\(csrf)\r\n".utf8)
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"<script>x.ipa\"\r\n\r\n".utf8)
            body += ipa + Array("\r\n--\(boundary)--\r\n".utf8)
            return await server.request("POST", "/uploads", role: nil,
                                        headers: cookie.merging(["Content-Type": "multipart/form-data; boundary=\(boundary)"]) { a, _ in a },
                                        body: body)
        }
        let forged = await post("0000")
        XCTAssertEqual(forged.status, 403, forged.bodyText)
        XCTAssertEqual(try server.store.rows("SELECT COUNT(*) FROM server_uploads", []).first?.first ?? nil, "0")
        let posted = await post(token)
        XCTAssertEqual(posted.status, 303, posted.bodyText)
        XCTAssertEqual(posted.header("Location"), "/uploads/1")
        let page = await server.request("GET", "/uploads/1", role: nil, headers: cookie)
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.bodyText.contains("&lt;script&gt;x.ipa"), "file names are escaped")
        XCTAssertFalse(page.bodyText.contains("<script>x.ipa"))
        XCTAssertTrue(page.bodyText.contains("http-equiv=\"refresh\""), "a queued scan refreshes without JavaScript")

        for path in ["/apps", "/fleet"] {
            let r = await server.request("GET", path, role: nil, headers: cookie)
            XCTAssertEqual(r.status, 200, path)
        }

        // Sign out: the session ends; the next page asks to sign in.
        let forgedOut = await server.request("POST", "/logout", role: nil,
                                             headers: cookie.merging(["Content-Type": "application/x-www-form-urlencoded"]) { a, _ in a },
                                             body: Array("csrf=bad".utf8))
        XCTAssertEqual(forgedOut.status, 403)
        let out = await server.request("POST", "/logout", role: nil,
                                       headers: cookie.merging(["Content-Type": "application/x-www-form-urlencoded"]) { a, _ in a },
                                       body: Array("csrf=\(token)".utf8))
        XCTAssertEqual(out.status, 303)
        let after = await server.request("GET", "/", role: nil, headers: cookie)
        XCTAssertEqual(after.status, 303)
        XCTAssertEqual(after.header("Location"), "/login")
    }

    func testAReaderIsRefusedTheUploadFormAndABadTokenCannotSignIn() async throws {
        let server = try TestServer()
        let session = try await signIn(server, .reader)
        let cookie = ["Cookie": "preflight_session=\(session)"]
        let home = await server.request("GET", "/", role: nil, headers: cookie)
        XCTAssertFalse(home.bodyText.contains("type=\"file\""), "a reader sees no upload form")
        let refused = await server.request("POST", "/uploads", role: nil,
                                           headers: cookie.merging(["Content-Type": "multipart/form-data; boundary=B"]) { a, _ in a },
                                           body: Array("--B--".utf8))
        XCTAssertEqual(refused.status, 403)
        XCTAssertTrue(refused.bodyText.contains("needs the uploader role"))

        let form = await server.request("GET", "/login", role: nil)
        let nonce = try XCTUnwrap(cookies(form)["preflight_login"])
        let bad = await server.request("POST", "/login", role: nil,
                                       headers: ["Content-Type": "application/x-www-form-urlencoded", "Cookie": "preflight_login=\(nonce)"],
                                       body: Array("login_csrf=\(nonce)&token=pfs_wrong".utf8))
        XCTAssertEqual(bad.status, 401)
        XCTAssertNil(cookies(bad)["preflight_session"])
        let noNonce = await server.request("POST", "/login", role: nil, headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                           body: Array("login_csrf=x&token=\(server.secrets[.admin] ?? "")".utf8))
        XCTAssertNil(cookies(noNonce)["preflight_session"], "a login without the form's double-submit token is refused")
    }
}
