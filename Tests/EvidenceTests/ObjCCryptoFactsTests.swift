import XCTest
@testable import Evidence

/// Weak ciphers, ECB mode and non-cryptographic randomness the Objective-C scanner resolves.
final class ObjCCryptoFactsTests: XCTestCase {
    func facts(_ source: String) -> [String] {
        ObjCSourceScanner.scan(source: source, path: "T.m")
            .filter { $0.capability.hasPrefix("security.crypto.") }
            .map { "\($0.capability.dropFirst("security.crypto.".count)) \($0.key) \($0.line)" + ($0.ships ? "" : " debug") }
    }

    func testArgumentPositions() {
        XCTAssertEqual(facts("""
        CCCryptorStatus s = CCCrypt(kCCEncrypt, kCCAlgorithmDES, kCCOptionPKCS7Padding | kCCOptionECBMode,
                                    key, kCCKeySizeDES, NULL, data, len, out, outLen, &moved);
        CCCryptorCreate(kCCEncrypt, (CCAlgorithm)kCCAlgorithm3DES, 0, key, 24, iv, &ref);
        CCCryptorCreateWithMode(kCCEncrypt, kCCModeECB, kCCAlgorithmAES, ccNoPadding, NULL, key, 16, NULL, 0, 0, 0, &ref);
        CCCrypt(0, 4, 3, key, 16, NULL, data, len, out, outLen, &moved);
        CCCrypt(kCCEncrypt, kCCAlgorithmAES, kCCOptionPKCS7Padding, key, kCCKeySizeDES, NULL, d, l, o, ol, &m);
        """), ["weak_cipher kCCAlgorithmDES 1", "ecb_mode kCCOptionECBMode 1", "weak_cipher kCCAlgorithm3DES 3",
               "ecb_mode kCCModeECB 4", "weak_cipher kCCAlgorithmRC4 5", "ecb_mode kCCOptionECBMode 5"])
    }

    func testLocalVariableAndTernary() {
        XCTAssertEqual(facts("""
        + (NSData *)run:(NSData *)d ecb:(BOOL)ecb {
            CCAlgorithm alg = kCCAlgorithmRC2;
            return CCCrypt(kCCEncrypt, alg, ecb ? (kCCOptionPKCS7Padding | kCCOptionECBMode) : kCCOptionPKCS7Padding, k, 8, NULL, a, b, c, e, &f);
        }
        """), ["weak_cipher kCCAlgorithmRC2 3", "ecb_mode kCCOptionECBMode 3"])
    }

    func testFileConstantAndCGeneratorsOfKeysAndIVs() {
        XCTAssertEqual(facts("""
        static const CCAlgorithm kAlgorithm = kCCAlgorithmBlowfish;
        void Seal(const void *k) { CCCrypt(kCCEncrypt, kAlgorithm, 0, k, 16, NULL, a, b, c, d, &e); }
        void generate_key(uint8_t *key) { for (int i = 0; i < 16; i++) { key[i] = rand() % 256; } }
        static void genrandomIV(uint8_t *iv) { for (int i = 0; i < 8; i++) iv[i] = rand() % 256; }
        void shuffle(int *cards) { for (int i = 0; i < 52; i++) cards[i] = rand() % 52; }
        """), ["weak_cipher kCCAlgorithmBlowfish 2", "insecure_random rand 3", "insecure_random rand 4"])
    }

    func testConstantsOutsideACallAndDebugCode() {
        XCTAssertEqual(facts("""
        static CCAlgorithm Map(int o) { switch (o) { case 1: return kCCAlgorithmDES; default: return kCCAlgorithmAES; } }
        // CCCrypt(kCCEncrypt, kCCAlgorithmDES, kCCOptionECBMode, …)
        NSString *s = @"CCCrypt(kCCEncrypt, kCCAlgorithmDES";
        #ifdef DEBUG
        void Legacy(void) { CCCrypt(kCCEncrypt, kCCAlgorithmDES, 0, k, 8, NULL, a, b, c, d, &e); }
        #endif
        """), ["weak_cipher kCCAlgorithmDES 5 debug"])
    }

    func testRandomnessIntoSecrets() {
        XCTAssertEqual(facts("""
        - (NSString *)generatePassword {
            NSMutableString *s = [NSMutableString string];
            for (int i = 0; i < 12; i++) { [s appendFormat:@"%c", chars[rand() % 62]]; }
            return s;
        }
        - (void)start {
            NSString *pin = [NSString stringWithFormat:@"%04ld", random() % 10000];
            self.nonce = lrand48();
            [password appendFormat:@"%d", rand()];
            Session *x = [[Session alloc] initWithToken:rand()];
            [x setSessionKey:@(rand())];
            GKARC4RandomSource *source = [[GKARC4RandomSource alloc] init];
        }
        static uint32_t MakeSalt(void) { return (uint32_t)random(); }
        """), ["insecure_random rand 3", "insecure_random random 7", "insecure_random lrand48 8", "insecure_random rand 9",
               "insecure_random rand 10", "insecure_random rand 11", "insecure_random random 14"])
    }

    func testOrdinaryRandomnessIsNoFact() {
        XCTAssertEqual(facts("""
        int rand(void);
        - (int)rollDice { return rand() % 6 + 1; }
        - (void)shuffle {
            int delay = random() % 10;
            NSString *token = [NSString stringWithFormat:@"%u", arc4random()];
            uint8_t salt[16]; SecRandomCopyBytes(kSecRandomDefault, 16, salt);
            id r = [self random];
            if (rand() % 2) { [self.cards reverse]; }
        }
        """), [])
    }

    func testPrefilter() {
        XCTAssertTrue(ObjCCryptoFacts.mayFind(Array("x = rand();".utf8)))
        XCTAssertTrue(ObjCCryptoFacts.mayFind(Array("CCCrypt(".utf8)))
        XCTAssertFalse(ObjCCryptoFacts.mayFind(Array("x = arc4random(); y = [self random];".utf8)))
    }
}

/// The names whose values must be unpredictable (`SecretNames.isUnpredictable`).
final class UnpredictableNamesTests: XCTestCase {
    func testCryptoInputsCodesAndKeyMaterial() {
        for name in ["password", "pin", "otpCode", "nonce", "salt", "ivBytes", "sessionId", "encryptionKey", "keyBytes", "generateKey",
                     "randomSalt", "makeNonce", "noncestr", "verification_code", "authToken", "csrfToken"] {
            XCTAssertTrue(SecretNames.isUnpredictable(name), name)
        }
    }

    func testOrdinaryNamesFlagsAndLookupKeys() {
        for name in ["cacheKey", "key", "sortKey", "index", "delay", "passwordLength", "pinAnnotation", "mapPin", "deviceToken",
                     "pushToken", "isPasscodeSet", "code", "tradeNo", "randomString", "passwordField"] {
            XCTAssertFalse(SecretNames.isUnpredictable(name), name)
        }
    }

    func testSecretAnswersAreUnchanged() {
        XCTAssertFalse(SecretNames.isSecret("nonce"))
        XCTAssertFalse(SecretNames.isSecret("sessionId"))
        XCTAssertTrue(SecretNames.isSecret("authToken"))
    }
}
