// Built with the Server package trait only (`swift build --traits Server`).
#if Server
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// `ServerAPI` on Hummingbird: one responder that hands every request to the API (which
/// routes, authenticates and authorizes through `RouteTable`), streaming the body both ways.
/// Hummingbird was chosen over Vapor for its size (no ORM, templating or TLS stack the server
/// does not use: a smaller build and a smaller attack surface) and its structured-concurrency
/// service lifecycle, which gives graceful shutdown on SIGTERM.
public enum HummingbirdServer {
    public static func run(api: ServerAPI, host: String, port: Int, onRunning: @escaping @Sendable (Int) -> Void) async throws {
        let responder = CallbackResponder<BasicRequestContext> { request, _ in
            await respond(api: api, request: request)
        }
        var logger = Logger(label: "preflight.server")
        logger.logLevel = .warning
        let app = Application(
            responder: responder,
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "preflight"),
            onServerRunning: { channel in onRunning(channel.localAddress?.port ?? port) },
            logger: logger)
        try await app.runService()
    }

    static func respond(api: ServerAPI, request: Request) async -> Response {
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        let body = ServerBody(next: {
            var iterator = request.body.makeAsyncIterator()
            return { try await iterator.next().map { Array(buffer: $0) } }
        })
        let target = request.uri.string
        let (path, query) = ServerRequest.splitTarget(target)
        let response = await api.handle(ServerRequest(method: request.method.rawValue, path: path, query: query,
                                                      headers: headers, body: body))
        var fields = HTTPFields()
        for (name, value) in response.headers {
            if let n = HTTPField.Name(name) { fields.append(HTTPField(name: n, value: value)) }
        }
        switch response.body {
        case .bytes(let bytes):
            fields[.contentLength] = String(bytes.count)
            return Response(status: HTTPResponse.Status(code: response.status), headers: fields,
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        }
    }
}
#endif
