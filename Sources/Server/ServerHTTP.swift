import Foundation

/// A request as the API sees it, whatever HTTP server delivered it: the Hummingbird adapter
/// (`HummingbirdServer`) in the `Server` build, and tests, which call `ServerAPI` directly.
public struct ServerRequest: Sendable {
    public var method: String
    /// The path without the query, percent-decoding not applied (routes match raw segments).
    public var path: String
    public var query: [String: String]
    /// Header names in lower case; a repeated header keeps its last value.
    public var headers: [String: String]
    public var body: ServerBody

    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
                body: ServerBody = .empty) {
        self.method = method.uppercased()
        self.path = path
        self.query = query
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, b in b })
        self.body = body
    }

    /// Splits `/a/b?x=1&y=2` into path and decoded query items (a malformed escape keeps the raw text).
    public static func splitTarget(_ target: String) -> (path: String, query: [String: String]) {
        guard let q = target.firstIndex(of: "?") else { return (target, [:]) }
        var query: [String: String] = [:]
        for pair in target[target.index(after: q)...].split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1).map { String($0) }
            let decode = { (s: String) in (s.replacingOccurrences(of: "+", with: " ").removingPercentEncoding) ?? s }
            query[decode(kv[0])] = kv.count > 1 ? decode(kv[1]) : ""
        }
        return (String(target[..<q]), query)
    }
}

/// A request body: chunks as the server reads them from the connection, pulled one at a time
/// (the connection's back-pressure holds), never collected whole unless a handler asks for a
/// bounded amount.
public struct ServerBody: AsyncSequence, Sendable {
    public typealias Element = [UInt8]
    /// Makes the function that returns the next chunk, nil at the end.
    let makeNext: @Sendable () -> () async throws -> [UInt8]?

    public init(next makeNext: @escaping @Sendable () -> () async throws -> [UInt8]?) { self.makeNext = makeNext }

    public init(bytes: [UInt8], chunkSize: Int = 1 << 16) {
        makeNext = {
            var i = 0
            return {
                guard i < bytes.count else { return nil }
                let end = Swift.min(bytes.count, i + Swift.max(1, chunkSize))
                defer { i = end }
                return Array(bytes[i..<end])
            }
        }
    }

    public static var empty: ServerBody { ServerBody(bytes: []) }

    public struct AsyncIterator: AsyncIteratorProtocol {
        let pull: () async throws -> [UInt8]?
        public mutating func next() async throws -> [UInt8]? { try await pull() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(pull: makeNext()) }

    /// The whole body, or `ServerError.tooLarge` past `limit` bytes (read no further).
    public func collect(upTo limit: Int) async throws -> [UInt8] {
        var out: [UInt8] = []
        for try await chunk in self {
            guard out.count + chunk.count <= limit else { throw ServerError.tooLarge(limit) }
            out += chunk
        }
        return out
    }
}

public struct ServerResponse: Sendable {
    public enum Body: Sendable {
        case bytes([UInt8])
    }

    public var status: Int
    public var headers: [(String, String)]
    public var body: Body

    public init(status: Int, headers: [(String, String)] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public static func text(_ status: Int, _ text: String, type: String = "text/plain; charset=utf-8") -> ServerResponse {
        ServerResponse(status: status, headers: [("Content-Type", type)], body: .bytes(Array(text.utf8)))
    }

    public static func json(_ status: Int, _ value: Any) -> ServerResponse {
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return ServerResponse(status: status, headers: [("Content-Type", "application/json")], body: .bytes(Array(data) + [10]))
    }

    /// The API's error document: `{"error": {"status": 404, "message": "…"}}`.
    public static func error(_ status: Int, _ message: String) -> ServerResponse {
        json(status, ["error": ["status": status, "message": message] as [String: Any]])
    }

    public func header(_ name: String) -> String? {
        headers.last { $0.0.lowercased() == name.lowercased() }?.1
    }

    public var bodyText: String {
        switch body { case .bytes(let b): return String(decoding: b, as: UTF8.self) }
    }
}

/// Errors a handler turns into a status.
public enum ServerError: Error, Equatable, CustomStringConvertible {
    case badRequest(String)
    case forbidden(String)
    case tooLarge(Int)
    case notFound(String)
    case conflict(String)
    case unavailable(String)

    public var status: Int {
        switch self {
        case .badRequest: return 400
        case .forbidden: return 403
        case .tooLarge: return 413
        case .notFound: return 404
        case .conflict: return 409
        case .unavailable: return 503
        }
    }

    public var description: String {
        switch self {
        case .badRequest(let s), .forbidden(let s), .notFound(let s), .conflict(let s), .unavailable(let s): return s
        case .tooLarge(let n): return "the request body is larger than the limit of \(n) bytes"
        }
    }
}
