import Foundation
import PreflightServer
import XCTest
import Yams

/// docs/server/openapi.yaml and the API routes the server answers are the same set: every route
/// of `RouteTable` is documented with its method, path and operation id, every documented
/// operation is a route, and the security the document states matches each route's access.
final class OpenAPIDocumentTests: XCTestCase {
    func testDocumentMatchesTheRouteTable() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/server/openapi.yaml")
        let doc = try XCTUnwrap(try Yams.load(yaml: String(contentsOf: url, encoding: .utf8)) as? [String: Any])
        XCTAssertEqual(doc["openapi"] as? String, "3.1.0")
        let paths = try XCTUnwrap(doc["paths"] as? [String: Any])
        var documented: [String: (method: String, path: String, open: Bool)] = [:]
        for (path, item) in paths {
            for (method, op) in (item as? [String: Any]) ?? [:] where ["get", "post", "put", "delete", "patch"].contains(method) {
                let o = try XCTUnwrap(op as? [String: Any])
                let id = try XCTUnwrap(o["operationId"] as? String, "\(method) \(path) has no operationId")
                XCTAssertNil(documented[id], "operationId \(id) twice")
                let open = (o["security"] as? [Any])?.isEmpty ?? false
                documented[id] = (method.uppercased(), path, open)
            }
        }
        for route in RouteTable.all where route.kind != .page {
            guard let d = documented[route.operation] else {
                XCTFail("route \(route.method) \(route.template) (\(route.operation)) is not in openapi.yaml")
                continue
            }
            XCTAssertEqual(d.method, route.method, route.operation)
            XCTAssertEqual(d.path, route.template, route.operation)
            XCTAssertEqual(d.open, route.access == .anyone, "\(route.operation): the document's security differs from the route's access")
        }
        let routed = Set(RouteTable.all.filter { $0.kind != .page }.map(\.operation))
        for id in documented.keys where !routed.contains(id) { XCTFail("openapi.yaml documents \(id), which no route answers") }
    }
}
