import Foundation

/// SHA-256 and SHA-1 (FIPS 180-4), streamed. Preflight needs them to name batch inputs and to
/// check code-signature seals (`CodeResources` lists SHA-1 and SHA-256 hashes); the platform
/// has no hash on Linux, and swift-crypto would add a BoringSSL build to every scanner build
/// for two functions. Checked against the FIPS test vectors and `sha256sum`.
public protocol StreamingDigest {
    init()
    mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8
    mutating func finalize() -> [UInt8]
}

extension StreamingDigest {
    public static func hash<Bytes: Sequence>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var digest = Self()
        digest.update(bytes)
        return digest.finalize()
    }

    public static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        hash(bytes).hexString
    }
}

extension Array where Element == UInt8 {
    public var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(count * 2)
        for byte in self {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// The block buffering both hashes share: 64-byte blocks, a 64-bit big-endian bit length.
struct MerkleDamgardBuffer {
    var block = [UInt8](repeating: 0, count: 64)
    var filled = 0
    var length: UInt64 = 0

    /// Feeds bytes; `compress` is called for each full block.
    mutating func feed<Bytes: Sequence>(_ bytes: Bytes, _ compress: (UnsafePointer<UInt8>) -> Void) where Bytes.Element == UInt8 {
        if let done = bytes.withContiguousStorageIfAvailable({ feedBuffer($0, compress) }) { return done }
        for byte in bytes {
            block[filled] = byte
            filled += 1
            length &+= 1
            if filled == 64 {
                block.withUnsafeBufferPointer { compress($0.baseAddress!) }
                filled = 0
            }
        }
    }

    private mutating func feedBuffer(_ input: UnsafeBufferPointer<UInt8>, _ compress: (UnsafePointer<UInt8>) -> Void) {
        guard var pointer = input.baseAddress else { return }
        var remaining = input.count
        length &+= UInt64(remaining)
        if filled > 0 {
            let take = Swift.min(64 - filled, remaining)
            for i in 0..<take { block[filled + i] = pointer[i] }
            filled += take
            pointer += take
            remaining -= take
            guard filled == 64 else { return }
            block.withUnsafeBufferPointer { compress($0.baseAddress!) }
            filled = 0
        }
        while remaining >= 64 {
            compress(pointer)
            pointer += 64
            remaining -= 64
        }
        for i in 0..<remaining { block[i] = pointer[i] }
        filled = remaining
    }

    /// Appends the padding and the length; calls `compress` for the last one or two blocks.
    mutating func pad(_ compress: (UnsafePointer<UInt8>) -> Void) {
        let bits = length &* 8
        block[filled] = 0x80
        filled += 1
        if filled > 56 {
            for i in filled..<64 { block[i] = 0 }
            block.withUnsafeBufferPointer { compress($0.baseAddress!) }
            filled = 0
        }
        for i in filled..<56 { block[i] = 0 }
        for i in 0..<8 { block[56 + i] = UInt8(truncatingIfNeeded: bits >> (56 - 8 * UInt64(i))) }
        block.withUnsafeBufferPointer { compress($0.baseAddress!) }
        filled = 0
    }
}

@inline(__always) private func bigEndianWord(_ p: UnsafePointer<UInt8>, _ i: Int) -> UInt32 {
    UInt32(p[4 * i]) << 24 | UInt32(p[4 * i + 1]) << 16 | UInt32(p[4 * i + 2]) << 8 | UInt32(p[4 * i + 3])
}

@inline(__always) private func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }

private func bigEndianBytes(_ words: [UInt32]) -> [UInt8] {
    words.flatMap { w in [UInt8(w >> 24), UInt8(w >> 16 & 0xff), UInt8(w >> 8 & 0xff), UInt8(w & 0xff)] }
}

/// A Merkle–Damgård hash: a state of 32-bit words, 64-byte blocks, a compression function.
struct BlockHasher {
    var state: [UInt32]
    var buffer = MerkleDamgardBuffer()
    let compress: (inout [UInt32], UnsafePointer<UInt8>) -> Void

    mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        var state = self.state
        buffer.feed(bytes) { compress(&state, $0) }
        self.state = state
    }

    mutating func finalize() -> [UInt8] {
        var state = self.state
        buffer.pad { compress(&state, $0) }
        return bigEndianBytes(state)
    }
}

public struct SHA256Digest: StreamingDigest {
    private var hasher = BlockHasher(state: [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19],
                                     compress: SHA256Digest.compress)

    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    public init() {}

    public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 { hasher.update(bytes) }

    public mutating func finalize() -> [UInt8] { hasher.finalize() }

    private static func compress(_ h: inout [UInt32], _ p: UnsafePointer<UInt8>) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            for i in 0..<16 { w[i] = bigEndianWord(p, i) }
            for i in 16..<64 {
                let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
                let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7]
            k.withUnsafeBufferPointer { k in
                for i in 0..<64 {
                    let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                    let t1 = hh &+ s1 &+ ((e & f) ^ (~e & g)) &+ k[i] &+ w[i]
                    let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                    let t2 = s0 &+ ((a & b) ^ (a & c) ^ (b & c))
                    hh = g; g = f; f = e; e = d &+ t1; d = c; c = b; b = a; a = t1 &+ t2
                }
            }
            h[0] &+= a; h[1] &+= b; h[2] &+= c; h[3] &+= d; h[4] &+= e; h[5] &+= f; h[6] &+= g; h[7] &+= hh
        }
    }
}

public struct SHA1Digest: StreamingDigest {
    private var hasher = BlockHasher(state: [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0],
                                     compress: SHA1Digest.compress)

    public init() {}

    public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 { hasher.update(bytes) }

    public mutating func finalize() -> [UInt8] { hasher.finalize() }

    private static func compress(_ h: inout [UInt32], _ p: UnsafePointer<UInt8>) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { w in
            for i in 0..<16 { w[i] = bigEndianWord(p, i) }
            for i in 16..<80 {
                let x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
                w[i] = (x << 1) | (x >> 31)
            }
            var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4]
            for i in 0..<80 {
                let (f, k): (UInt32, UInt32)
                switch i {
                case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5a827999)
                case 20..<40: (f, k) = (b ^ c ^ d, 0x6ed9eba1)
                case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8f1bbcdc)
                default: (f, k) = (b ^ c ^ d, 0xca62c1d6)
                }
                let t = ((a << 5) | (a >> 27)) &+ f &+ e &+ k &+ w[i]
                e = d; d = c; c = (b << 30) | (b >> 2); b = a; a = t
            }
            h[0] &+= a; h[1] &+= b; h[2] &+= c; h[3] &+= d; h[4] &+= e
        }
    }
}
