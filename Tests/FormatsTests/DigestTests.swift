import Foundation
import XCTest
@testable import Formats
import TestSupport

final class DigestTests: XCTestCase {
    private let twoBlocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"

    /// FIPS 180-4 examples (NIST CSRC "Examples with Intermediate Values").
    func testSHA256KnownVectors() {
        XCTAssertEqual(SHA256Digest.hex(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256Digest.hex([UInt8]()), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256Digest.hex(Array(twoBlocks.utf8)), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(SHA256Digest.hex([UInt8](repeating: 0x61, count: 1_000_000)),
                       "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    func testSHA1KnownVectors() {
        XCTAssertEqual(SHA1Digest.hex(Array("abc".utf8)), "a9993e364706816aba3e25717850c26c9cd0d89d")
        XCTAssertEqual(SHA1Digest.hex([UInt8]()), "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        XCTAssertEqual(SHA1Digest.hex(Array(twoBlocks.utf8)), "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        XCTAssertEqual(SHA1Digest.hex([UInt8](repeating: 0x61, count: 1_000_000)), "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    /// Every length around the padding boundaries, fed whole and in uneven pieces (contiguous
    /// and non-contiguous sequences), agrees with `sha256sum`/`sha1sum`.
    func testAgreesWithCoreutilsAcrossLengthsAndChunkings() throws {
        for tool in ["sha256sum", "sha1sum"] {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/\(tool)") else { throw XCTSkip("\(tool) is not installed") }
        }
        var generator = SystemRandomNumberGenerator()
        let folder = try Scratch.folder("digest")
        for length in [1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 4097] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let file = folder.appendingPathComponent("\(length)")
            try Data(bytes).write(to: file)
            var sha256 = SHA256Digest(), sha1 = SHA1Digest()
            var offset = 0, piece = 1
            while offset < bytes.count {
                let end = min(bytes.count, offset + piece)
                if piece % 2 == 0 { sha256.update(bytes[offset..<end]); sha1.update(bytes[offset..<end]) }
                else { sha256.update(bytes[offset..<end].lazy.map { $0 }); sha1.update(bytes[offset..<end].lazy.map { $0 }) }
                offset = end
                piece = piece * 3 % 97 + 1
            }
            XCTAssertEqual(sha256.finalize().hexString, try coreutils("sha256sum", file), "sha256, length \(length)")
            XCTAssertEqual(sha1.finalize().hexString, try coreutils("sha1sum", file), "sha1, length \(length)")
            XCTAssertEqual(SHA256Digest.hex(Data(bytes)), try coreutils("sha256sum", file), "sha256 of Data, length \(length)")
        }
    }

    private func coreutils(_ tool: String, _ file: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/\(tool)")
        process.arguments = [file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
    }
}
