import Foundation

/// `LC_CODE_SIGNATURE`: a big-endian SuperBlob (magic 0xfade0cc0) of typed blobs.
extension SliceParser {
    /// A signature that does not parse is kept as `codeSignatureError` (App Store Connect
    /// rejects it, a rule says so); limits still stop the read.
    mutating func readCodeSignature() throws {
        guard let range = codeSignature, !range.isEmpty else { return }
        do {
            slice.codeSignature = try Self.parseSuperBlob(r, range, limits: limits)
        } catch let e as FormatError {
            if case .limitExceeded = e.kind { throw e }
            slice.codeSignatureError = e
        }
    }

    static func parseSuperBlob(_ r: ByteReader, _ range: Range<Int>, limits: ReaderLimits) throws -> CodeSignature {
        let format = MachOReader.format
        let base = range.lowerBound
        func bad(_ reason: String, _ offset: Int) -> FormatError {
            FormatError.malformed(format, "code signature: " + reason, offset: offset)
        }
        guard range.count >= 12 else { throw bad("SuperBlob header (12 bytes) does not fit in datasize \(range.count)", base) }
        let magic = try r.u32(base, bigEndian: true)
        guard magic == 0xfade_0cc0 else {
            throw bad("SuperBlob magic 0x\(String(magic, radix: 16)) is not 0xfade0cc0", base)
        }
        let length = Int(try r.u32(base + 4, bigEndian: true))
        let count = Int(try r.u32(base + 8, bigEndian: true))
        guard length >= 12, length <= range.count else {
            throw bad("SuperBlob length \(length) is outside 12...\(range.count)", base + 4)
        }
        guard count <= (length - 12) / 8 else {
            throw bad("SuperBlob count \(count) does not fit in its length \(length)", base + 8)
        }
        var sig = CodeSignature()
        var sawCodeDirectory = false
        for k in 0..<count {
            let type = try r.u32(base + 12 + k * 8, bigEndian: true)
            let offset = Int(try r.u32(base + 16 + k * 8, bigEndian: true))
            sig.slotTypes.append(type)
            guard offset >= 12 + count * 8, offset <= length - 8 else {
                throw bad("blob \(k) (type 0x\(String(type, radix: 16))) offset \(offset) is outside the SuperBlob", base + 16 + k * 8)
            }
            let b = base + offset
            let blobMagic = try r.u32(b, bigEndian: true)
            let blobLength = Int(try r.u32(b + 4, bigEndian: true))
            guard blobLength >= 8, blobLength <= length - offset else {
                throw bad("blob \(k) (magic 0x\(String(blobMagic, radix: 16))) length \(blobLength) extends past the end of the SuperBlob", b + 4)
            }
            let payload = Data(r.bytes[(b + 8)..<(b + blobLength)])
            switch blobMagic {
            case 0xfade_0c02 where !sawCodeDirectory:  // CodeDirectory (the first one: slot 0)
                sawCodeDirectory = true
                guard blobLength >= 44 else { throw bad("CodeDirectory length \(blobLength) is too small", b) }
                let version = try r.u32(b + 8, bigEndian: true)
                sig.codeDirectoryFlags = try r.u32(b + 12, bigEndian: true)
                let identOffset = Int(try r.u32(b + 20, bigEndian: true))
                sig.identifier = try cdString(r, b, blobLength, identOffset, "identifier", limits: limits, bad: bad)
                readSpecialSlots(r, b, blobLength, into: &sig)
                if version >= 0x20200, blobLength >= 52 {
                    let teamOffset = Int(try r.u32(b + 48, bigEndian: true))
                    if teamOffset != 0 {
                        sig.teamID = try cdString(r, b, blobLength, teamOffset, "team identifier", limits: limits, bad: bad)
                    }
                }
            case 0xfade_7171:
                sig.entitlementsXML = payload
            case 0xfade_7172:
                sig.entitlementsDER = payload
            case 0xfade_0b01 where type == 0x10000:  // CMS signature wrapper (other slots use the magic for other data); empty for ad-hoc signatures
                sig.hasCMSSignature = blobLength > 8
                if blobLength > 8 {
                    do { sig.cmsCertificates = try CMSSignedData.certificates(payload, limits: limits) } catch let e as FormatError {
                        sig.cmsError = FormatError(e.kind, format: format, reason: "code signature: CMS blob: \(e.reason)",
                                                   offset: b + 8 + (e.offset ?? 0))
                    }
                }
            default:
                break
            }
        }
        return sig
    }

    /// The hash type and the special-slot hashes of a CodeDirectory (slot 1 the Info.plist,
    /// 3 `CodeResources`), stored before `hashOffset` in reverse order. Slots that do not fit
    /// in the blob are left out: the structure checks above already judge the blob.
    private static func readSpecialSlots(_ r: ByteReader, _ b: Int, _ blobLength: Int, into sig: inout CodeSignature) {
        guard let hashOffset = try? Int(r.u32(b + 16, bigEndian: true)), let special = try? Int(r.u32(b + 24, bigEndian: true)),
              let size = try? Int(r.u8(b + 36)), let type = try? r.u8(b + 37) else { return }
        sig.hashType = type
        guard size > 0, size <= 64 else { return }
        for slot in 1...max(1, min(special, 7)) where slot <= special {
            let start = hashOffset - slot * size
            guard start >= 8, hashOffset <= blobLength else { continue }
            sig.specialSlotHashes[slot] = Array(r.bytes[(b + start)..<(b + start + size)])
        }
    }

    private static func cdString(_ r: ByteReader, _ b: Int, _ blobLength: Int, _ offset: Int, _ what: String,
                                 limits: ReaderLimits, bad: (String, Int) -> FormatError) throws -> String {
        guard offset >= 8, offset < blobLength else {
            throw bad("CodeDirectory \(what) offset \(offset) is outside the blob", b)
        }
        let start = b + offset, end = b + blobLength
        var i = start
        while i < end, r.bytes[i] != 0 {
            i += 1
        }
        guard i < end else { throw bad("CodeDirectory \(what) is not NUL-terminated inside the blob", start) }
        guard i - start <= limits.maxStringLength else {
            throw FormatError.limit(MachOReader.format, "max-string-length", "code signature: CodeDirectory \(what) is longer than \(limits.maxStringLength) bytes", offset: start)
        }
        return String(decoding: r.bytes[start..<i], as: UTF8.self)
    }
}
