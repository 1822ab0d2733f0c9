import Fleet
import Foundation
import PreflightKit

extension ServerAPI {
    // MARK: Operations

    func readiness() async throws -> ServerResponse {
        let store = self.store, folder = uploads.root.appendingPathComponent("incoming").path
        do { _ = try await db { try store.rows("SELECT 1", []) } } catch {
            return .error(503, "the store is unavailable: \(error)")
        }
        guard FileManager.default.isWritableFile(atPath: folder) else { return .error(503, "the upload folder is not writable") }
        return .text(200, "ready\n")
    }

    func metricsText() async throws -> ServerResponse {
        let stats = queueStats
        let q = try await db { stats() }
        return .text(200, metrics.prometheusText(queueDepth: q.depth, queue: q.stats, queueError: q.error),
                     type: "text/plain; version=0.0.4; charset=utf-8")
    }

    // MARK: Uploads

    /// `checkFields` sees a form's other fields (the page's CSRF token) before the file is kept.
    func createUpload(_ request: ServerRequest, _ caller: Caller?,
                      checkFields: ([String: String]) throws -> Void = { _ in }) async throws -> ServerResponse {
        if let length = request.headers["content-length"].flatMap(Int.init), length > settings.maxUploadBytes + 64 * 1024 {
            await audit(caller?.principal, "upload refused (size)", target: "\(length) bytes", status: 413)
            return .error(413, "the upload is \(length) bytes; the limit is \(settings.maxUploadBytes)")
        }
        let contentType = request.headers["content-type"] ?? ""
        let writer = try uploads.writer()
        var name = "upload.ipa"
        do {
            if contentType.lowercased().hasPrefix("multipart/form-data") {
                let reader = try MultipartReader(contentType: contentType) { try writer.write($0) }
                for try await chunk in request.body { try reader.feed(chunk) }
                try reader.finish()
                try checkFields(reader.fields)
                if let n = reader.fileName { name = n }
            } else if contentType.isEmpty || contentType.lowercased().hasPrefix("application/octet-stream") {
                for try await chunk in request.body { try writer.write(chunk[...]) }
                try checkFields([:])
                if let n = request.query["name"] { name = MultipartReader.displayName(n) }
            } else {
                writer.discard()
                return .error(415, "send the .ipa as multipart/form-data (field \"file\") or application/octet-stream")
            }
        } catch {
            writer.discard()
            let status = (error as? ServerError)?.status ?? 400
            await audit(caller?.principal, "upload refused", target: name, status: status)
            if let e = error as? ServerError { throw e }
            throw ServerError.badRequest("the upload could not be read: \(error)")
        }
        let stored = try writer.commit()
        let store = self.store, who = caller?.principal.tokenID, fileName = name
        let rows = try await db {
            try store.write([FleetStatement("""
                INSERT INTO server_uploads (sha256, size, file_name, stored_path, uploaded_at, token_id) VALUES (?, ?, ?, ?, ?, ?)
                RETURNING id
                """, [.text(stored.sha256), .int(Int64(stored.size)), .text(fileName), .text(stored.path),
                      .text(Date().fleetTimestampText), who.map { .int($0) }])])
        }
        guard let id = rows.first?.first.flatMap({ $0 }).flatMap(Int64.init) else { throw ServerError.unavailable("no upload id") }
        metrics.uploaded(bytes: stored.size)
        await audit(caller?.principal, "upload", target: "\(id) \(stored.sha256) \(fileName)", status: 202)
        onUpload()
        let queries = self.queries
        guard let upload = try await db({ try queries.upload(id: id) }) else { throw ServerError.notFound("upload \(id) vanished") }
        var response = ServerResponse.json(202, Self.document(upload))
        response.headers.append(("Location", "/api/v1/uploads/\(id)"))
        return response
    }

    static func document(_ u: ServerQueries.Upload) -> [String: Any] {
        var d: [String: Any] = ["id": u.id, "sha256": u.sha256, "size": u.size, "fileName": u.fileName, "uploadedAt": u.uploadedAt,
                                "status": u.status,
                                "links": ["self": "/api/v1/uploads/\(u.id)", "report": "/api/v1/uploads/\(u.id)/report",
                                          "inspect": "/api/v1/uploads/\(u.id)/inspect"]]
        if let e = u.error { d["error"] = e }
        if let v = u.appIdentifier { d["appIdentifier"] = v }
        if let v = u.appName { d["appName"] = v }
        if let v = u.appVersion { d["appVersion"] = v }
        if let v = u.findingCount { d["findingCount"] = v }
        if let v = u.durationMS { d["durationMS"] = v }
        return d
    }

    func listUploads(_ request: ServerRequest) async throws -> ServerResponse {
        let limit = min(max(Int(request.query["limit"] ?? "") ?? 50, 1), 500)
        let before = request.query["before"].flatMap { Int64($0) }
        let queries = self.queries
        let list = try await db { try queries.uploads(limit: limit, before: before) }
        var doc: [String: Any] = ["uploads": list.map(Self.document)]
        if list.count == limit, let last = list.last { doc["next"] = "/api/v1/uploads?limit=\(limit)&before=\(last.id)" }
        return .json(200, doc)
    }

    func requireUpload(_ id: Int64) async throws -> ServerQueries.Upload {
        let queries = self.queries
        guard let u = try await db({ try queries.upload(id: id) }) else { throw ServerError.notFound("no upload \(id)") }
        return u
    }

    func getUpload(_ id: Int64) async throws -> ServerResponse {
        .json(200, Self.document(try await requireUpload(id)))
    }

    func deleteUpload(_ id: Int64, _ caller: Caller?) async throws -> ServerResponse {
        let u = try await requireUpload(id)
        try await remove(u)
        await audit(caller?.principal, "delete upload", target: "\(id) \(u.sha256)", status: 204)
        return ServerResponse(status: 204)
    }

    /// Marks an upload deleted; its file and scan go when no other live upload has the same bytes.
    func remove(_ u: ServerQueries.Upload) async throws {
        let store = self.store
        let others = try await db {
            try store.write([
                FleetStatement("UPDATE server_uploads SET deleted_at = ? WHERE id = ?", [.text(Date().fleetTimestampText), .int(u.id)]),
                FleetStatement("SELECT COUNT(*) FROM server_uploads WHERE sha256 = ? AND deleted_at IS NULL", [.text(u.sha256)]),
            ])
        }
        if (others.first?.first.flatMap { $0 }.flatMap { Int($0) } ?? 0) == 0 {
            _ = try await db {
                try store.write([FleetStatement("DELETE FROM scans WHERE input_sha256 = ? AND status IN ('done', 'failed', 'queued')",
                                                [.text(u.sha256)])])
            }
            uploads.remove(sha256: u.sha256)
        }
    }

    /// The retention setting: uploads received before `cutoff` are deleted as `DELETE` does,
    /// each written to the audit log. Returns how many went.
    public func sweepRetention(before cutoff: Date) async throws -> Int {
        let store = self.store, queries = self.queries
        let ids = try await db {
            try store.rows("SELECT id FROM server_uploads WHERE deleted_at IS NULL AND uploaded_at < ? ORDER BY id",
                           [.text(cutoff.fleetTimestampText)])
        }.compactMap { $0.first.flatMap { $0 }.flatMap(Int64.init) }
        var removed = 0
        for id in ids {
            guard let u = try await db({ try queries.upload(id: id) }) else { continue }
            try await remove(u)
            await audit(nil, "retention: delete upload", target: "\(id) \(u.sha256) received \(u.uploadedAt)", status: 204)
            removed += 1
        }
        return removed
    }

    // MARK: Reports

    static let reportTypes: [String: String] = [
        "json": "application/json", "sarif": "application/sarif+json", "html": "text/html; charset=utf-8",
        "markdown": "text/markdown; charset=utf-8", "junit": "application/xml", "xcode": "text/plain; charset=utf-8",
    ]

    func report(_ id: Int64, format: String) async throws -> ServerResponse {
        guard let type = Self.reportTypes[format], let reporter = Reporters.reporter(format) else {
            throw ServerError.badRequest("format must be one of \(Self.reportTypes.keys.sorted().joined(separator: ", "))")
        }
        let u = try await requireUpload(id)
        switch u.status {
        case "done": break
        case "failed": return .error(422, "the scan of upload \(id) failed: \(u.error ?? "no reason recorded")")
        default:
            var r = ServerResponse.error(409, "upload \(id) is \(u.status); the report is ready when its status is done")
            r.headers.append(("Retry-After", "2"))
            return r
        }
        let queries = self.queries
        let input = try await db { try queries.reportInput(for: u) }
        let text = try reporter.render(input, options: ReportOptions())
        var response = ServerResponse.text(200, text, type: type)
        if format == "html" {
            // The report page's own inline style and script, nothing else.
            response.headers.append(("Content-Security-Policy",
                                     "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"))
        }
        return response
    }

    func inspect(_ id: Int64) async throws -> ServerResponse {
        let u = try await requireUpload(id)
        guard u.status == "done", let scanID = u.scanID else {
            return .error(409, "upload \(id) is \(u.status); its inventory is ready when its status is done")
        }
        let queries = self.queries
        var doc = try await db { try queries.inventory(scanID: scanID) }
        doc["upload"] = Self.document(u)
        return .json(200, doc)
    }

    func listApps() async throws -> ServerResponse {
        let queries = self.queries
        return .json(200, ["apps": try await db { try queries.apps() }])
    }

    func diff(_ request: ServerRequest) async throws -> ServerResponse {
        guard let from = request.query["from"].flatMap(Int64.init), let to = request.query["to"].flatMap(Int64.init) else {
            throw ServerError.badRequest("give two uploads: ?from=ID&to=ID")
        }
        let old = try await requireUpload(from), new = try await requireUpload(to)
        guard let a = old.scanID, let b = new.scanID, old.status == "done", new.status == "done" else {
            throw ServerError.conflict("both uploads must be scanned (status done) to compare them")
        }
        let queries = self.queries
        let doc = try await db { try StoreDiff.compare(queries, old: (old, a), new: (new, b)) }
        return .json(200, doc)
    }

    func fleet(_ table: String, _ columns: [String], _ request: ServerRequest, filters allowed: [String],
               extra: String? = nil) async throws -> ServerResponse {
        var filters: [String: String] = [:]
        for (k, v) in request.query where k != "limit" {
            guard allowed.contains(k) else {
                throw ServerError.badRequest("unknown filter \(k); this query takes \(allowed.joined(separator: ", "))")
            }
            filters[k] = v
        }
        let queries = self.queries, chosen = filters
        let rows = try await db { try queries.fleet(table: table, columns: columns, filters: chosen, condition: extra) }
        return .json(200, ["rows": rows])
    }

    // MARK: Tokens

    static func document(_ t: TokenStore.Token) -> [String: Any] {
        var d: [String: Any] = ["id": t.id, "name": t.name, "role": t.role.rawValue, "createdAt": t.createdAt]
        if let v = t.revokedAt { d["revokedAt"] = v }
        if let v = t.lastUsedAt { d["lastUsedAt"] = v }
        return d
    }

    func listTokens() async throws -> ServerResponse {
        let tokens = self.tokens
        return .json(200, ["tokens": try await db { try tokens.list() }.map(Self.document)])
    }

    func createToken(_ request: ServerRequest, _ caller: Caller?) async throws -> ServerResponse {
        let body = try await request.body.collect(upTo: 4096)
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
              let name = object["name"] as? String, let roleText = object["role"] as? String else {
            throw ServerError.badRequest("send {\"name\": \"…\", \"role\": \"reader|uploader|admin\"}")
        }
        guard let role = ServerRole(rawValue: roleText) else { throw ServerError.badRequest("role must be reader, uploader or admin") }
        let tokens = self.tokens
        let created = try await db { try tokens.create(name: name, role: role) }
        await audit(caller?.principal, "create token", target: "\(created.token.id) \(created.token.name) \(role.rawValue)", status: 201)
        var doc = Self.document(created.token)
        doc["secret"] = created.secret
        return .json(201, doc)
    }

    func revokeToken(_ id: Int64, _ caller: Caller?) async throws -> ServerResponse {
        let tokens = self.tokens
        guard try await db({ try tokens.revoke(id: id) }) else { throw ServerError.notFound("no live token \(id)") }
        await audit(caller?.principal, "revoke token", target: "\(id)", status: 204)
        return ServerResponse(status: 204)
    }
}
