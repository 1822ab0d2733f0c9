import Foundation
import Artifacts
import Evidence

public struct InsecureRandomForSecretRule: Rule {
    public init() {}
    typealias Security = ProtectedResourceCatalog.Security

    public static let description = RuleDescription(
        identifier: "insecure_random_for_secret",
        name: "Predictable random secret",
        summary: "A password, PIN, token, key, IV, nonce or salt is made with rand(), random(), drand48() or a seeded GameplayKit source, none of them cryptographic.",
        rationale: """
        `rand`, `random` and the `rand48` family are linear or additive-feedback generators: a \
        few outputs give away the next ones, and a seed taken from the clock can be guessed \
        outright. GameplayKit's `GKMersenneTwisterRandomSource`, `GKLinearCongruentialRandomSource` \
        and `GKARC4RandomSource` are deterministic by design, for replayable gameplay, and Apple \
        says they are not for cryptography. A secret made from them — a generated password, a \
        PIN or one-time code, a session token, key bytes, an IV, nonce or salt — is predictable \
        (OWASP MASVS-CRYPTO-1).

        Reported only where the code shows the value is a secret: the generator's value goes, in \
        the same expression, into a binding, assignment, argument label or `append` target whose \
        name says so (`let pin = …`, `keyBytes[i] = …`, `[password appendFormat:…]`, \
        `initWithToken:`), or the call sits in a function named as producing one \
        (`generatePassword`, `makeNonce`, `randomSalt`). A dice roll, a delay or a shuffle is \
        not reported, nor is an import alone in a binary. `arc4random`, `arc4random_uniform`, \
        `arc4random_buf`, `SecRandomCopyBytes`, `SystemRandomNumberGenerator` and Swift's \
        `Int.random(in:)` / `randomElement()` (which use it) are cryptographically secure on \
        Apple platforms and never reported.

        Severity: a **warning**; a **note** in a package or pod compiled into the app. \
        Fix: use `SecRandomCopyBytes` (or CryptoKit's `SymmetricKey(size:)` for keys) for \
        bytes, and `Int.random(in:)` or `arc4random_uniform` for a PIN's digits or a password's \
        characters.
        """,
        area: .storage, severity: .warning, tags: ["security", "crypto", "MASVS-CRYPTO-1"],
        references: ["https://mas.owasp.org/MASVS/controls/MASVS-CRYPTO-1/",
                     "https://developer.apple.com/documentation/security/secrandomcopybytes(_:_:_:)",
                     "https://developer.apple.com/documentation/swift/systemrandomnumbergenerator",
                     "https://developer.apple.com/documentation/gameplaykit/gkrandomsource"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Codes.swift": """
                         import Foundation

                         func startPairing() -> String {
                             let pin = String(format: "%06d", ↓rand() % 1_000_000)
                             return pin
                         }

                         func generatePassword(length: Int) -> String {
                             let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
                             return String((0..<length).map { _ in letters[Int(↓random()) % letters.count] })
                         }
                         """],
                        note: "Into a binding named pin; in a function that generates a password."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Session.m": """
                         #import <Foundation/Foundation.h>

                         @implementation Session
                         - (NSData *)randomSalt {
                             uint8_t bytes[16];
                             for (int i = 0; i < 16; i++) { bytes[i] = (uint8_t)↓lrand48(); }
                             return [NSData dataWithBytes:bytes length:16];
                         }
                         - (void)start {
                             self.sessionToken = [NSString stringWithFormat:@"%ld", ↓random()];
                         }
                         @end
                         """],
                        note: "Objective-C: in a method named for a salt; into a session token."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Game.swift": """
                         import Foundation
                         import Security

                         func rollDice() -> Int { Int(rand() % 6) + 1 }

                         func makeSecrets() -> (String, Data) {
                             let pin = String(format: "%06d", Int.random(in: 0..<1_000_000))
                             var salt = Data(count: 16)
                             _ = salt.withUnsafeMutableBytes { SecRandomCopyBytes(kSecRandomDefault, 16, $0.baseAddress!) }
                             return (pin, salt)
                         }
                         """],
                        note: "A game's dice; CSPRNG sources for a PIN and a salt."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Board.m": """
                         #import <Foundation/Foundation.h>

                         @implementation Board
                         - (void)shuffle {
                             NSUInteger delay = random() % 5;
                             NSString *token = [NSString stringWithFormat:@"%u", arc4random()];
                             uint8_t key[32];
                             arc4random_buf(key, sizeof key);
                         #ifdef DEBUG
                             NSString *password = [NSString stringWithFormat:@"%d", rand()];
                         #endif
                         }
                         @end
                         """],
                        note: "A delay; arc4random for a token and key bytes; debug-only code."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        SecurityFacts(context).all(Security.insecureRandom).map { host, fact in
            let u = fact.usage
            let place = SecurityFacts.location(u)
            let f = finding("\(host.name) makes a secret with \(u.key), which is not cryptographic (\(UsageReading.describe(u))): its values can be predicted",
                            bundle: host.name, at: place, key: u.key, evidence: [UsageReading.evidenceRef(u)],
                            fix: "Use SecRandomCopyBytes (or CryptoKit SymmetricKey(size:)) for key bytes, IVs, nonces and salts, and Int.random(in:) or arc4random_uniform for a PIN's digits or a password's characters.",
                            fingerprint: [u.key, place.path])
            return fact.lowered(f, to: .note)
        }
    }
}
