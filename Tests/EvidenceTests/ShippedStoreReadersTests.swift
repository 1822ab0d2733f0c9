import XCTest
import Foundation
@testable import Evidence

/// The SQLite schema reader and the key-file shapes on the committed fixtures
/// (`Tests/Fixtures/MachO/stores`, made by `make-stores.sh`) and on damaged copies.
final class ShippedStoreReadersTests: XCTestCase {
    static let stores = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/MachO/stores")

    func bytes(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: Self.stores.appendingPathComponent(name))) }

    func testSQLiteTablesAndRows() throws {
        let seed = try XCTUnwrap(SQLiteSchema.read(try bytes("seed-users.sqlite")))
        XCTAssertEqual(seed.tables.map(\.name), ["ZUSER", "ZSETTING"])
        XCTAssertEqual(seed.tables.map(\.populated), [true, false])
        XCTAssertEqual(seed.tables.first?.rowsOnRootPage, 1)
        let catalog = try XCTUnwrap(SQLiteSchema.read(try bytes("catalog.sqlite")))
        XCTAssertEqual(catalog.tables.map(\.name), ["products", "users"])
        XCTAssertEqual(catalog.tables.map(\.populated), [true, false])
        XCTAssertFalse(catalog.partial)
    }

    func testDamagedSQLiteNeverCrashes() throws {
        let good = try bytes("seed-users.sqlite")
        XCTAssertNil(SQLiteSchema.read(Array(good.prefix(50))))
        XCTAssertNil(SQLiteSchema.read(Array("not sqlite".utf8)))
        // Every prefix, and every byte of the first page set to 0xff in turn.
        for n in stride(from: 0, through: good.count, by: 97) { _ = SQLiteSchema.read(Array(good.prefix(n))) }
        for i in 16..<min(good.count, 4096) {
            var copy = good
            copy[i] = 0xff
            _ = SQLiteSchema.read(copy)
        }
    }

    func testKeyFileShapes() throws {
        XCTAssertEqual(KeyFileShape.of(try bytes("client.p12")), .pkcs12)
        XCTAssertEqual(KeyFileShape.of(try bytes("client-key.der")), .derPrivateKey)
        XCTAssertEqual(KeyFileShape.of(try bytes("server-cert.der")), .other)
        XCTAssertEqual(KeyFileShape.of([]), .other)
        XCTAssertEqual(KeyFileShape.of([0x30, 0x84, 0xff, 0xff, 0xff, 0xff]), .other)
        let p12 = try bytes("client.p12")
        for n in 0..<min(p12.count, 64) { XCTAssertNotEqual(KeyFileShape.of(Array(p12.prefix(n))), .derPrivateKey) }
    }
}
