import CommonCrypto
import CryptoKit
import Foundation

let masterKey = "0123456789abcdef"
enum Config { static let iv: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16] }

func encrypt(_ input: [UInt8], out: inout [UInt8], moved: inout Int) {
    let key = [UInt8](masterKey.utf8)
    CCCrypt(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionECBMode), key, 16, Config.iv, input, input.count, &out, out.count, &moved)
    _ = SymmetricKey(data: Data(masterKey.utf8))
    _ = Insecure.MD5.hash(data: Data(masterKey.utf8))
}
