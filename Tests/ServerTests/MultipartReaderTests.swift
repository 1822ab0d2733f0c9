import Foundation
import PreflightServer
import XCTest

/// The streaming multipart reader on well-formed bodies cut at every byte, and on hostile ones:
/// each a `badRequest` naming the problem, never a crash, never unbounded memory.
final class MultipartReaderTests: XCTestCase {
    func read(_ body: [UInt8], contentType: String, chunk: Int) throws -> (file: [UInt8], reader: MultipartReader) {
        var file: [UInt8] = []
        let reader = try MultipartReader(contentType: contentType) { file += $0 }
        var i = 0
        while i < body.count {
            try reader.feed(Array(body[i..<min(body.count, i + chunk)]))
            i += chunk
        }
        try reader.finish()
        return (file, reader)
    }

    func testFileAndFieldsSurviveEveryChunkSize() throws {
        // File bytes that contain CRLF, dashes and a prefix of the delimiter.
        let payload = Array("PK\u{3}\u{4}\r\n--XyZ-bound\r\n-\r\n--XyZ-boundary-12 end".utf8) + (0..<300).map { UInt8($0 % 256) }
        let (type, body) = ServerFixtures.multipart(payload, name: "../../etc/My App.ipa")
        for chunk in [1, 2, 3, 7, 13, 64, 4096] {
            let (file, reader) = try read(body, contentType: type, chunk: chunk)
            XCTAssertEqual(file, payload, "chunk \(chunk)")
            XCTAssertEqual(reader.fields["note"], "hello")
            XCTAssertEqual(reader.fileName, "My App.ipa", "a file name is its last component, never a path")
        }
    }

    func testBoundaryFromTheHeader() {
        XCTAssertNil(MultipartReader.boundary("application/json"))
        XCTAssertNil(MultipartReader.boundary("multipart/form-data"))
        XCTAssertNil(MultipartReader.boundary("multipart/form-data; boundary=" + String(repeating: "a", count: 71)))
        XCTAssertNil(MultipartReader.boundary("multipart/form-data; boundary=a\u{0}b"))
        XCTAssertEqual(MultipartReader.boundary("multipart/form-data; charset=utf-8; boundary=\"a b\""), "a b")
    }

    func testHostileBodiesAreClearErrors() throws {
        let type = "multipart/form-data; boundary=B"
        let cases: [(String, [UInt8], String)] = [
            ("no closing boundary", Array("--B\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nabc".utf8), "closing boundary"),
            ("endless headers", Array("--B\r\n".utf8) + Array(repeating: UInt8(ascii: "a"), count: 20_000), "headers longer"),
            ("no opening boundary", Array(repeating: UInt8(ascii: "x"), count: 20_000), "no opening boundary"),
            ("header without colon", Array("--B\r\nbroken header\r\n\r\nx\r\n--B--".utf8), "without a colon"),
            ("part without a name", Array("--B\r\nContent-Disposition: form-data\r\n\r\nx\r\n--B--".utf8), "without a name"),
            ("two files", Array(("--B\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nx\r\n" +
                                 "--B\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\ny\r\n--B--").utf8), "second file"),
            ("huge field", Array("--B\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\n".utf8) + Array(repeating: 65, count: 10_000),
             "longer than"),
            ("too many parts", Array(String(repeating: "--B\r\nContent-Disposition: form-data; name=\"n\"\r\n\r\nv\r\n", count: 20).utf8),
             "more than 16 parts"),
            ("garbage after boundary", Array("--B\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nx\r\n--Bzz".utf8), "not followed"),
            ("no file", Array("--B\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nx\r\n--B--".utf8), "no file field"),
        ]
        for (label, body, expected) in cases {
            XCTAssertThrowsError(try read(body, contentType: type, chunk: 100), label) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(label): \(error)")
                XCTAssertEqual((error as? ServerError)?.status, 400, label)
            }
        }
    }

    func testDisplayNames() {
        XCTAssertEqual(MultipartReader.displayName("C:\\Users\\me\\App.ipa"), "App.ipa")
        XCTAssertEqual(MultipartReader.displayName(".."), "upload.ipa")
        XCTAssertEqual(MultipartReader.displayName("a\u{0}b\u{7f}c.ipa"), "abc.ipa")
        XCTAssertEqual(MultipartReader.displayName(String(repeating: "x", count: 500)).count, 200)
    }
}
