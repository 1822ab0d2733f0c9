import Foundation
import XCTest
import Evidence
@testable import SwiftSourceScan

/// Weak ciphers, ECB mode and non-cryptographic randomness the Swift scanner resolves.
final class CryptoVisitorTests: XCTestCase {
    typealias Security = ProtectedResourceCatalog.Security

    func facts(_ source: String, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        let found = SwiftSourceScanner.scan(source: source, path: "T.swift").filter { $0.capability.hasPrefix("security.crypto.") && $0.link == nil }
        // Every snippet with a fact passes the parse gate: a prefiltered scan finds what a full parse finds.
        if !found.isEmpty {
            let facts = SourceFactsScanner(names: SwiftSourceScanning.names).scan(Array(source.utf8))
            XCTAssertTrue(SwiftSourceScanning().mayUse(facts, bytes: Data(source.utf8)), "the parse gate would skip it", file: file, line: line)
        }
        return found.map { "\($0.capability.dropFirst("security.crypto.".count)) \($0.key) \($0.line)" + ($0.ships ? "" : " debug") }
    }

    func testAlgorithmAndOptionsArgumentsThroughSwiftWrappers() {
        XCTAssertEqual(facts("""
        import CommonCrypto
        func encrypt(_ key: [UInt8], _ data: [UInt8], _ out: inout [UInt8], _ moved: inout Int) -> CCCryptorStatus {
            CCCrypt(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmDES), CCOptions(kCCOptionPKCS7Padding | kCCOptionECBMode),
                    key, kCCKeySizeDES, nil, data, data.count, &out, out.count, &moved)
        }
        func other(_ ref: inout CCCryptorRef?) {
            CCCryptorCreate(CCOperation(kCCEncrypt), UInt32(kCCAlgorithm3DES), 3, nil, 0, nil, &ref)
            CCCryptorCreateWithMode(0, CCMode(kCCModeECB), CCAlgorithm(kCCAlgorithmAES), 0, nil, nil, 0, nil, 0, 0, 0, &ref)
            CCCrypt(0, 4, CCOptions(kCCOptionPKCS7Padding & ~kCCOptionECBMode), nil, 0, nil, nil, 0, nil, 0, nil)
        }
        """), ["weak_cipher kCCAlgorithmDES 3", "ecb_mode kCCOptionECBMode 3", "weak_cipher kCCAlgorithm3DES 7",
               "ecb_mode kCCOptionECBMode 7", "ecb_mode kCCModeECB 8", "weak_cipher kCCAlgorithmRC4 9"])
    }

    func testLocalConstantsAndTernaryBranchesResolve() {
        XCTAssertEqual(facts("""
        struct Legacy {
            static let algorithm = CCAlgorithm(kCCAlgorithmBlowfish)
            func run(useDES: Bool) {
                let options: CCOptions = UInt32(kCCOptionECBMode)
                let algorithm: CCAlgorithm = UInt32(kCCAlgorithmAES128)
                CCCrypt(0, algorithm, options, nil, 0, nil, nil, 0, nil, 0, nil)
                CCCrypt(0, Self.algorithm, 0, nil, 0, nil, nil, 0, nil, 0, nil)
                CCCrypt(0, useDES ? CCAlgorithm(kCCAlgorithmDES) : CCAlgorithm(kCCAlgorithmAES), 0, nil, 0, nil, nil, 0, nil, 0, nil)
            }
        }
        """), ["ecb_mode kCCOptionECBMode 6", "weak_cipher kCCAlgorithmBlowfish 7", "weak_cipher kCCAlgorithmDES 8"])
    }

    func testConstantsOutsideTheArgumentAreNoUse() {
        XCTAssertEqual(facts("""
        enum Algorithm {
            case des, aes
            var value: CCAlgorithm {
                switch self {
                case .des: return CCAlgorithm(kCCAlgorithmDES)
                case .aes: return CCAlgorithm(kCCAlgorithmAES)
                }
            }
        }
        let supported = [kCCAlgorithmDES, kCCAlgorithmRC4]
        func run(_ a: Algorithm, key: [UInt8]) {
            // CCCrypt(0, kCCAlgorithmDES, kCCOptionECBMode, …)
            CCCrypt(0, a.value, CCOptions(kCCOptionPKCS7Padding), key, key.count, nil, nil, 0, nil, 0, nil)
            CCCrypt(0, CCAlgorithm(kCCAlgorithmAES), kCCOptionPKCS7Padding, key, kCCKeySizeDES, nil, nil, 0, nil, 0, nil)
        }
        """), [])
    }

    func testConstantsPassedToTheFilesOwnHelper() {
        XCTAssertEqual(facts("""
        import CommonCrypto
        extension Data {
            func crypt(_ operation: Int, algorithm: Int, options: Int, key: Data) -> Data? {
                CCCrypt(CCOperation(operation), CCAlgorithm(algorithm), CCOptions(options), nil, 0, nil, nil, 0, nil, 0, nil)
                return nil
            }
            func desEncrypt(key: Data) -> Data? {
                crypt(kCCEncrypt, algorithm: kCCAlgorithmDES, options: kCCOptionPKCS7Padding | kCCOptionECBMode, key: key)
            }
            func aesEncrypt(key: Data) -> Data? { self.crypt(kCCEncrypt, algorithm: kCCAlgorithmAES, options: kCCOptionPKCS7Padding, key: key) }
            func shadowed(algorithm: Int) {
                let algorithm = kCCAlgorithmAES
                CCCrypt(0, CCAlgorithm(algorithm), 0, nil, 0, nil, nil, 0, nil, 0, nil)
            }
            func callsShadowed() { shadowed(algorithm: kCCAlgorithmRC4) }
        }
        """), ["weak_cipher kCCAlgorithmDES 8", "ecb_mode kCCOptionECBMode 8"])
    }

    func testDebugOnlyCodeDoesNotShip() {
        XCTAssertEqual(facts("""
        #if DEBUG
        func legacy() { CCCrypt(0, CCAlgorithm(kCCAlgorithmDES), 0, nil, 0, nil, nil, 0, nil, 0, nil) }
        func makeToken() -> Int { Int(rand()) }
        #endif
        """), ["weak_cipher kCCAlgorithmDES 2 debug", "insecure_random rand 3 debug"])
    }

    func testCryptoSwiftNeedsItsImport() {
        let code = """
        func encrypt(_ key: [UInt8]) throws {
            _ = try AES(key: key, blockMode: ECB(), padding: .pkcs7)
            _ = try Blowfish(key: key, blockMode: CBC(iv: key), padding: .pkcs7)
            _ = try AES(key: key, blockMode: GCM(iv: key), padding: .noPadding)
        }
        """
        XCTAssertEqual(facts("import CryptoSwift\n" + code), ["ecb_mode ECB 3", "weak_cipher Blowfish 4"])
        XCTAssertEqual(facts("import Foundation\n" + code), [])
    }

    func testRandomnessIntoSecrets() {
        XCTAssertEqual(facts("""
        import Foundation
        import GameplayKit
        final class Session {
            var nonce = 0
            func start() {
                let pin = String(format: "%04d", rand() % 10000)
                nonce = Int(random())
                var keyBytes = [UInt8](repeating: 0, count: 16)
                keyBytes[0] = UInt8(truncatingIfNeeded: lrand48())
                let request = Request(token: String(drand48()))
                var password = ""
                password.append(Character(UnicodeScalar(65 + Int(rand() % 26))!))
                let otpCode = GKARC4RandomSource().nextInt(upperBound: 999_999)
                _ = (pin, request, otpCode)
            }
            func generatePassword() -> String {
                let index = Int(rand()) % 62
                return String(index)
            }
            var randomSalt: String { String(rand()) }
        }
        """), ["insecure_random rand 6", "insecure_random random 7", "insecure_random lrand48 9", "insecure_random drand48 10",
               "insecure_random rand 12", "insecure_random GKARC4RandomSource 13", "insecure_random rand 17",
               "insecure_random rand 20"])
    }

    func testRandomnessForOrdinaryValuesAndCryptographicGeneratorsAreNoFact() {
        XCTAssertEqual(facts("""
        import Foundation
        func rollDice() -> Int { Int(rand() % 6) + 1 }
        func shuffle(_ cards: inout [Int]) {
            let cacheKey = rand()
            let delay = Double(random() % 10)
            if rand() % 2 == 0 { cards.reverse() }
            var token = ""
            token = String(arc4random_uniform(10))
            let salt = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
            var bytes = [UInt8](repeating: 0, count: 32)
            _ = SecRandomCopyBytes(kSecRandomDefault, bytes.count, &bytes)
            let password = String((0..<12).map { _ in "abc".randomElement()! })
            _ = (cacheKey, delay, token, salt, password)
        }
        """), [])
    }

    func testAFileDeclaringItsOwnGeneratorIsNotTheCLibrary() {
        XCTAssertEqual(facts("""
        func random() -> Int { 4 }
        let token = String(random())
        """), [])
    }

    func testPrefilter() {
        XCTAssertTrue(CryptoVisitor.mayFind(in: "let x = CCAlgorithm(kCCAlgorithmDES)"))
        XCTAssertTrue(CryptoVisitor.mayFind(in: "let token = random()"))
        XCTAssertFalse(CryptoVisitor.mayFind(in: "let n = Int.random(in: 0...9); let m = arc4random()"))
        let gate = SwiftSourceScanning()
        for (source, parsed) in [("func makeSalt() -> Int { random() }", true), ("let n = Int.random(in: 0...9)", false),
                                 ("let m = arc4random()", false), ("let r = rng.random()", false)] {
            let facts = SourceFactsScanner(names: SwiftSourceScanning.names).scan(Array(source.utf8))
            XCTAssertEqual(gate.mayUse(facts, bytes: Data(source.utf8)), parsed, source)
        }
        XCTAssertEqual(facts("import Foundation\nfunc makeSalt() -> Int { random() }\n"), ["insecure_random random 2"])
    }
}
