import Fleet
import Foundation
import PreflightKit

/// The web interface: server-rendered pages that work without JavaScript (none is sent), with
/// labelled forms, table headers and a visible focus. A browser signs in with a token and gets
/// a session cookie (HttpOnly, SameSite=Strict, Secure behind TLS); every form that changes
/// something carries the session's CSRF token, and the login form a double-submit token.
extension ServerAPI {
    static let pagePolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    static func h(_ s: String) -> String { MarkupEscaping.escape(s) }

    static func page(_ status: Int, title: String, caller: Caller?, body: String, refresh: Int? = nil) -> ServerResponse {
        let nav = caller.map { c in
            """
            <nav aria-label="Main"><a href="/">Uploads</a> <a href="/apps">Apps</a> <a href="/fleet">Fleet</a>
            <form method="post" action="/logout" class="inline"><input type="hidden" name="csrf" value="\(h(c.csrf ?? ""))">
            <span>\(h(c.principal.name)) (\(c.principal.role.rawValue))</span> <button type="submit">Sign out</button></form></nav>
            """
        } ?? ""
        let html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            \(refresh.map { "<meta http-equiv=\"refresh\" content=\"\($0)\">" } ?? "")
            <title>\(h(title)) · Preflight</title>
            <style>
            body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:72rem;padding:1rem;color:#1b1b1b}
            nav{display:flex;gap:1rem;align-items:center;border-bottom:1px solid #ccc;padding-bottom:.5rem;margin-bottom:1rem}
            nav form{margin-left:auto}.inline{display:inline}
            table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #ddd;vertical-align:top}
            a{color:#0645ad}a:focus,button:focus,input:focus{outline:3px solid #f90;outline-offset:2px}
            .error{color:#a00}.warning{color:#8a5a00}.done{color:#060}.failed{color:#a00}
            .box{border:1px solid #ccc;border-radius:6px;padding:1rem;margin:1rem 0}
            .skip{position:absolute;left:-9999px}.skip:focus{position:static}
            </style></head><body>
            <a href="#main" class="skip">Skip to content</a>
            \(nav)
            <main id="main"><h1>\(h(title))</h1>
            \(body)
            </main></body></html>
            """
        var r = ServerResponse.text(status, html, type: "text/html; charset=utf-8")
        r.headers.append(("Content-Security-Policy", pagePolicy))
        return r
    }

    static func redirect(_ location: String, cookies: [String] = []) -> ServerResponse {
        var r = ServerResponse(status: 303, headers: [("Location", location)])
        for c in cookies { r.headers.append(("Set-Cookie", c)) }
        return r
    }

    func cookie(_ name: String, _ value: String, maxAge: Int) -> String {
        "\(name)=\(value); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(maxAge)\(settings.secureCookies ? "; Secure" : "")"
    }

    /// `application/x-www-form-urlencoded`, at most 4 KiB.
    static func form(_ request: ServerRequest) async throws -> [String: String] {
        let body = try await request.body.collect(upTo: 4096)
        return ServerRequest.splitTarget("?" + String(decoding: body, as: UTF8.self)).query
    }

    func checkCSRF(_ caller: Caller?, _ value: String?) throws {
        // Bearer-token requests cannot be forged by another site; session requests must carry the token.
        guard let expected = caller?.csrf else { return }
        guard let value, !expected.isEmpty, value == expected else {
            throw ServerError.forbidden("the form's CSRF token is missing or stale: reload the page and try again")
        }
    }

    // MARK: Sign in and out

    func loginPage(_ request: ServerRequest, message: String? = nil) -> ServerResponse {
        let nonce = TokenStore.randomHex(16)
        var r = Self.page(message == nil ? 200 : 401, title: "Sign in", caller: nil, body: """
            \(message.map { "<p class=\"error\" role=\"alert\">\(Self.h($0))</p>" } ?? "")
            <form method="post" action="/login" class="box">
            <input type="hidden" name="login_csrf" value="\(nonce)">
            <p><label for="token">API token</label><br><input id="token" name="token" type="password" size="72" autocomplete="off" required></p>
            <p><button type="submit">Sign in</button></p>
            </form>
            <p>Tokens are created with <code>preflight token create</code>.</p>
            """)
        r.headers.append(("Set-Cookie", cookie("preflight_login", nonce, maxAge: 900)))
        return r
    }

    func login(_ request: ServerRequest) async throws -> ServerResponse {
        let form = try await Self.form(request)
        let expected = Self.cookie(named: "preflight_login", in: request.headers["cookie"])
        guard let expected, form["login_csrf"] == expected else {
            await audit(nil, "denied login (CSRF)", target: nil, status: 403)
            return loginPage(request, message: "The sign-in form expired: try again.")
        }
        let tokens = self.tokens, secret = form["token"] ?? "", lifetime = settings.sessionSeconds
        guard let principal = try await db({ try tokens.verify(secret: secret) }) else {
            await audit(nil, "denied login", target: nil, status: 401)
            return loginPage(request, message: "That token is not valid.")
        }
        let session = try await db { try tokens.startSession(for: principal, lifetime: lifetime) }
        await audit(principal, "login", target: nil, status: 303)
        return Self.redirect("/", cookies: [cookie("preflight_session", session.cookie, maxAge: Int(lifetime)),
                                            cookie("preflight_login", "", maxAge: 0)])
    }

    func logout(_ request: ServerRequest, _ caller: Caller?) async throws -> ServerResponse {
        try checkCSRF(caller, try await Self.form(request)["csrf"])
        if let c = Self.cookie(named: "preflight_session", in: request.headers["cookie"]) {
            let tokens = self.tokens
            try await db { try tokens.endSession(cookie: c) }
        }
        await audit(caller?.principal, "logout", target: nil, status: 303)
        return Self.redirect("/login", cookies: [cookie("preflight_session", "", maxAge: 0)])
    }

    // MARK: Pages

    static func statusCell(_ u: ServerQueries.Upload) -> String {
        "<span class=\"\(h(u.status))\">\(h(u.status))</span>" + (u.error.map { " — \(h($0))" } ?? "")
    }

    func homePage(_ caller: Caller?) async throws -> ServerResponse {
        let queries = self.queries
        let list = try await db { try queries.uploads(limit: 50, before: nil) }
        let rows = list.map { u in
            """
            <tr><td><a href="/uploads/\(u.id)">\(u.id)</a></td><td>\(Self.h(u.fileName))</td>
            <td>\(Self.h(u.appIdentifier ?? ""))</td><td>\(Self.h(u.appVersion ?? ""))</td><td>\(Self.statusCell(u))</td>
            <td>\(u.findingCount.map(String.init) ?? "")</td><td>\(Self.h(u.uploadedAt))</td></tr>
            """
        }.joined(separator: "\n")
        let form = (caller?.principal.role ?? .reader) >= .uploader ? """
            <form method="post" action="/uploads" enctype="multipart/form-data" class="box">
            <input type="hidden" name="csrf" value="\(Self.h(caller?.csrf ?? ""))">
            <p><label for="file">App to scan (.ipa)</label><br><input id="file" name="file" type="file" accept=".ipa" required></p>
            <p><button type="submit">Upload and scan</button></p></form>
            """ : ""
        let pending = list.contains { $0.status == "queued" || $0.status == "running" }
        return Self.page(200, title: "Uploads", caller: caller, body: """
            \(form)
            <table><caption>Latest uploads</caption><thead><tr><th scope="col">#</th><th scope="col">File</th><th scope="col">App</th>
            <th scope="col">Version</th><th scope="col">Scan</th><th scope="col">Findings</th><th scope="col">Uploaded</th></tr></thead>
            <tbody>\(rows.isEmpty ? "<tr><td colspan=\"7\">No uploads yet.</td></tr>" : rows)</tbody></table>
            """, refresh: pending ? 3 : nil)
    }

    func uploadForm(_ request: ServerRequest, _ caller: Caller?) async throws -> ServerResponse {
        // The CSRF field precedes the file in the form; the file is streamed, then kept only if it matched.
        let response = try await createUpload(request, caller) { fields in try self.checkCSRF(caller, fields["csrf"]) }
        guard response.status == 202, let id = (try? JSONSerialization.jsonObject(with: Data(response.bodyText.utf8)) as? [String: Any])?["id"] else {
            return Self.page(response.status, title: "Upload refused", caller: caller, body: "<p class=\"error\" role=\"alert\">\(Self.h(Self.message(response)))</p><p><a href=\"/\">Back</a></p>")
        }
        return Self.redirect("/uploads/\(id)")
    }

    static func message(_ r: ServerResponse) -> String {
        ((try? JSONSerialization.jsonObject(with: Data(r.bodyText.utf8)) as? [String: Any])?["error"] as? [String: Any])?["message"] as? String
            ?? "status \(r.status)"
    }

    func uploadPage(_ id: Int64, _ caller: Caller?) async throws -> ServerResponse {
        let u = try await requireUpload(id)
        var body = """
            <dl><dt>File</dt><dd>\(Self.h(u.fileName)) (\(u.size) bytes, SHA-256 <code>\(Self.h(u.sha256))</code>)</dd>
            <dt>Scan</dt><dd>\(Self.statusCell(u))</dd>
            \(u.appIdentifier.map { "<dt>App</dt><dd>\(Self.h($0)) \(Self.h(u.appVersion ?? ""))</dd>" } ?? "")</dl>
            """
        if u.status == "done", let scanID = u.scanID {
            let queries = self.queries
            let findings = try await db { try queries.findings(scanID: scanID) }
            body += """
                <p><a href="/uploads/\(id)/report">Full report</a> · API: <a href="/api/v1/uploads/\(id)/report?format=sarif">SARIF</a>,
                <a href="/api/v1/uploads/\(id)/report?format=json">JSON</a></p>
                <table><caption>\(findings.count) findings</caption><thead><tr><th scope="col">Severity</th><th scope="col">Rule</th>
                <th scope="col">Message</th></tr></thead><tbody>
                \(findings.map { "<tr><td class=\"\($0.severity.rawValue)\">\($0.severity.rawValue)</td><td>\(Self.h($0.rule))</td><td>\(Self.h($0.message))</td></tr>" }.joined(separator: "\n"))
                </tbody></table>
                """
        }
        return Self.page(200, title: "Upload \(id)", caller: caller, body: body,
                         refresh: u.status == "queued" || u.status == "running" ? 2 : nil)
    }

    func reportPage(_ id: Int64) async throws -> ServerResponse {
        try await report(id, format: "html")
    }

    func appsPage(_ caller: Caller?) async throws -> ServerResponse {
        let queries = self.queries
        let apps = try await db { try queries.apps() }
        let sections = apps.map { app -> String in
            let versions = app["versions"] as? [[String: Any]] ?? []
            let rows = versions.enumerated().map { i, v -> String in
                let upload = v["upload"] as? Int64 ?? 0
                let previous = i + 1 < versions.count ? versions[i + 1]["upload"] as? Int64 : nil
                return """
                    <tr><td>\(Self.h(v["version"] as? String ?? ""))</td><td><a href="/uploads/\(upload)">upload \(upload)</a></td>
                    <td>\(v["findings"] as? Int ?? 0)</td><td>\(previous.map { "<a href=\"/diff?from=\($0)&amp;to=\(upload)\">changes since the previous</a>" } ?? "")</td></tr>
                    """
            }.joined(separator: "\n")
            return """
                <section><h2>\(Self.h(app["name"] as? String ?? "")) <small>\(Self.h(app["identifier"] as? String ?? ""))</small></h2>
                <table><thead><tr><th scope="col">Version</th><th scope="col">Upload</th><th scope="col">Findings</th><th scope="col">Diff</th></tr></thead>
                <tbody>\(rows)</tbody></table></section>
                """
        }.joined(separator: "\n")
        return Self.page(200, title: "Apps", caller: caller, body: sections.isEmpty ? "<p>No scanned apps yet.</p>" : sections)
    }

    func diffPage(_ request: ServerRequest, _ caller: Caller?) async throws -> ServerResponse {
        let r = try await diff(request)
        guard r.status == 200, let d = try? JSONSerialization.jsonObject(with: Data(r.bodyText.utf8)) as? [String: Any] else {
            return Self.page(r.status, title: "Diff", caller: caller, body: "<p class=\"error\">\(Self.h(Self.message(r)))</p>")
        }
        func list(_ key: String) -> String {
            let c = d[key] as? [String: [String]] ?? [:]
            let added = (c["added"] ?? []).map { "<li>added: <code>\(Self.h($0))</code></li>" }
            let removed = (c["removed"] ?? []).map { "<li>removed: <code>\(Self.h($0))</code></li>" }
            return "<h2>\(key.capitalized)</h2>" + ((added + removed).isEmpty ? "<p>No change.</p>" : "<ul>\((added + removed).joined())</ul>")
        }
        let f = d["findings"] as? [String: [[String: Any]]] ?? [:]
        func findings(_ key: String, _ label: String) -> String {
            let items = (f[key] ?? []).map { "<li><span class=\"\(Self.h($0["severity"] as? String ?? ""))\">\(Self.h($0["severity"] as? String ?? ""))</span> \(Self.h($0["rule"] as? String ?? "")): \(Self.h($0["message"] as? String ?? ""))</li>" }
            return "<h2>\(label) (\(items.count))</h2>" + (items.isEmpty ? "" : "<ul>\(items.joined())</ul>")
        }
        let changed = (d["appIdentifierChanged"] as? Bool ?? false) ? "<p class=\"warning\" role=\"alert\">The app identifier changed between these uploads.</p>" : ""
        return Self.page(200, title: "Changes between two uploads", caller: caller,
                         body: changed + list("permissions") + list("entitlements") + list("sdks") + list("domains")
                            + findings("new", "New findings") + findings("fixed", "Fixed findings"))
    }

    func fleetPage(_ caller: Caller?) async throws -> ServerResponse {
        let queries = self.queries
        let (findings, permissions, sdks) = try await db {
            (try queries.fleet(table: "findings", columns: ["rule", "severity"], filters: [:]),
             try queries.fleet(table: "permissions", columns: ["key"], filters: [:]),
             try queries.fleet(table: "frameworks", columns: ["name"], filters: [:], condition: "t.embedded = 1"))
        }
        func table(_ caption: String, _ rows: [[String: Any]], _ columns: [String]) -> String {
            let body = rows.prefix(50).map { r in
                "<tr>" + columns.map { "<td>\(Self.h(r[$0] as? String ?? ""))</td>" }.joined()
                    + "<td>\(r["apps"] as? Int ?? 0)</td><td>\(Self.h((r["identifiers"] as? [String] ?? []).prefix(10).joined(separator: ", ")))</td></tr>"
            }.joined(separator: "\n")
            return """
                <table><caption>\(caption)</caption><thead><tr>\(columns.map { "<th scope=\"col\">\($0)</th>" }.joined())
                <th scope="col">Apps</th><th scope="col">Which</th></tr></thead><tbody>\(body)</tbody></table>
                """
        }
        return Self.page(200, title: "Fleet", caller: caller, body: table("Findings by rule", findings, ["rule", "severity"])
                         + table("Permissions", permissions, ["key"]) + table("Embedded SDKs", sdks, ["name"]))
    }
}
