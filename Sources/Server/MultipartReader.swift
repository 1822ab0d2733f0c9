/// A streaming `multipart/form-data` reader (RFC 7578): bytes go in as the connection delivers
/// them, the file part's bytes go out to a sink as they arrive, small fields are kept. Nothing
/// is collected whole. Every limit is checked before the bytes that would pass it are kept:
/// header block size, number of parts, size of a non-file field. Hostile input ends in a
/// `ServerError.badRequest` that says what was wrong and at which byte offset.
public final class MultipartReader {
    public struct Limits: Sendable {
        public var headerBytes = 8 * 1024
        public var parts = 16
        public var fieldBytes = 4 * 1024

        public init() {}
    }

    /// The file part's name and its declared file name (metadata only, never a path).
    public private(set) var fileField: String?
    public private(set) var fileName: String?
    public private(set) var fields: [String: String] = [:]
    public private(set) var finished = false

    enum State { case preamble, afterDelimiter, headers, body, epilogue }

    let delimiter: [UInt8]          // "\r\n--boundary"
    let fileFieldName: String
    let limits: Limits
    let sink: (ArraySlice<UInt8>) throws -> Void
    var state = State.preamble
    var buffer: [UInt8] = []
    var offset = 0                  // bytes of the body consumed before `buffer`
    var parts = 0
    var currentIsFile = false
    var currentField: String?
    var fieldBytes: [UInt8] = []
    var sawFile = false

    /// `contentType` is the request's header; the boundary comes from it.
    public init(contentType: String, fileField: String = "file", limits: Limits = Limits(),
                sink: @escaping (ArraySlice<UInt8>) throws -> Void) throws {
        guard let boundary = Self.boundary(contentType) else {
            throw ServerError.badRequest("expected Content-Type multipart/form-data with a boundary")
        }
        // The body starts with "--boundary"; treating it as preceded by CRLF makes one delimiter.
        delimiter = Array("\r\n--\(boundary)".utf8)
        fileFieldName = fileField
        self.limits = limits
        self.sink = sink
        buffer = [13, 10]
        offset = -2
    }

    /// RFC 2046: 1 to 70 characters from a fixed set, optionally quoted.
    public static func boundary(_ contentType: String) -> String? {
        let parts = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.first?.lowercased() == "multipart/form-data" else { return nil }
        for p in parts.dropFirst() {
            let kv = p.split(separator: "=", maxSplits: 1).map(String.init)
            guard kv.count == 2, kv[0].lowercased() == "boundary" else { continue }
            var b = kv[1]
            if b.hasPrefix("\""), b.hasSuffix("\""), b.count >= 2 { b = String(b.dropFirst().dropLast()) }
            let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'()+_,-./:=? ")
            guard (1...70).contains(b.count), b.allSatisfy(allowed.contains), !b.hasSuffix(" ") else { return nil }
            return b
        }
        return nil
    }

    func fail(_ what: String, at position: Int) -> ServerError {
        .badRequest("malformed multipart body at byte \(max(0, position)): \(what)")
    }

    public func feed(_ chunk: [UInt8]) throws {
        buffer += chunk
        try drain()
    }

    /// The end of the body: the closing delimiter must have been seen, with one file part.
    public func finish() throws {
        try drain()
        guard finished else { throw fail("the body ends before the closing boundary", at: offset + buffer.count) }
        guard sawFile else { throw ServerError.badRequest("the form has no file field named \"\(fileFieldName)\"") }
    }

    func find(_ needle: [UInt8], in hay: [UInt8], from start: Int = 0) -> Int? {
        guard needle.count <= hay.count else { return nil }
        var i = start
        while i + needle.count <= hay.count {
            if hay[i] == needle[0] && hay[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    func consume(_ n: Int) {
        buffer.removeFirst(n)
        offset += n
    }

    func drain() throws {
        while true {
            switch state {
            case .epilogue:
                // Anything after the closing delimiter is ignored (RFC 2046), but not kept.
                offset += buffer.count
                buffer.removeAll()
                return
            case .preamble:
                guard let i = find(delimiter, in: buffer) else {
                    // Keep only what could still start the delimiter.
                    if buffer.count > delimiter.count { consume(buffer.count - delimiter.count) }
                    if offset > limits.headerBytes { throw fail("no opening boundary", at: offset) }
                    return
                }
                consume(i + delimiter.count)
                state = .afterDelimiter
            case .afterDelimiter:
                guard try afterDelimiter() else { return }
            case .headers:
                guard let end = find([13, 10, 13, 10], in: buffer) else {
                    if buffer.count > limits.headerBytes { throw fail("part headers longer than \(limits.headerBytes) bytes", at: offset) }
                    return
                }
                guard end <= limits.headerBytes else { throw fail("part headers longer than \(limits.headerBytes) bytes", at: offset) }
                try startPart(headers: Array(buffer[..<end]))
                consume(end + 4)
                state = .body
            case .body:
                if let i = find(delimiter, in: buffer) {
                    try emit(buffer[..<i])
                    consume(i + delimiter.count)
                    try endPart()
                    state = .afterDelimiter
                } else {
                    let keep = delimiter.count - 1
                    if buffer.count > keep {
                        let n = buffer.count - keep
                        try emit(buffer[..<n])
                        consume(n)
                    }
                    return
                }
            }
        }
    }

    /// After a delimiter: "--" closes the body, CRLF starts a part. False: need more bytes.
    func afterDelimiter() throws -> Bool {
        // Transport padding (spaces and tabs) may follow a delimiter.
        var i = 0
        while i < buffer.count && (buffer[i] == 32 || buffer[i] == 9) { i += 1 }
        guard i <= 64 else { throw fail("padding after a boundary", at: offset) }
        guard buffer.count >= i + 2 else { return false }
        if buffer[i] == 45 && buffer[i + 1] == 45 {
            consume(i + 2)
            finished = true
            state = .epilogue
            return true
        }
        guard buffer[i] == 13 && buffer[i + 1] == 10 else { throw fail("a boundary is not followed by CRLF or --", at: offset + i) }
        consume(i + 2)
        parts += 1
        guard parts <= limits.parts else { throw fail("more than \(limits.parts) parts", at: offset) }
        state = .headers
        return true
    }

    func startPart(headers raw: [UInt8]) throws {
        let text = String(decoding: raw, as: UTF8.self)
        var name: String?, filename: String?
        for line in text.split(separator: "\r\n") {
            let kv = line.split(separator: ":", maxSplits: 1)
            guard kv.count == 2 else { throw fail("a part header without a colon", at: offset) }
            guard kv[0].trimmingCharacters(in: .whitespaces).lowercased() == "content-disposition" else { continue }
            let params = Self.parameters(String(kv[1]))
            guard params.kind == "form-data" else { throw fail("a part that is not form-data", at: offset) }
            name = params.values["name"]
            filename = params.values["filename"]
        }
        guard let name else { throw fail("a part without a name", at: offset) }
        if name == fileFieldName {
            guard !sawFile else { throw fail("a second file part", at: offset) }
            sawFile = true
            currentIsFile = true
            fileField = name
            fileName = filename.map(Self.displayName)
        } else {
            currentIsFile = false
            currentField = name
            fieldBytes = []
        }
    }

    func emit(_ bytes: ArraySlice<UInt8>) throws {
        guard !bytes.isEmpty else { return }
        if currentIsFile {
            try sink(bytes)
        } else if currentField != nil {
            guard fieldBytes.count + bytes.count <= limits.fieldBytes else {
                throw fail("field \(currentField ?? "") is longer than \(limits.fieldBytes) bytes", at: offset)
            }
            fieldBytes += bytes
        } else {
            throw fail("bytes outside a part", at: offset)
        }
    }

    func endPart() throws {
        if !currentIsFile, let f = currentField { fields[f] = String(decoding: fieldBytes, as: UTF8.self) }
        currentIsFile = false
        currentField = nil
        fieldBytes = []
    }

    /// `form-data; name="file"; filename="App.ipa"` → kind and parameters (quotes removed).
    static func parameters(_ value: String) -> (kind: String, values: [String: String]) {
        var items: [String] = [], current = "", quoted = false, escaped = false
        for ch in value {
            if escaped { current.append(ch); escaped = false; continue }
            if quoted && ch == "\\" { escaped = true; continue }
            if ch == "\"" { quoted.toggle(); continue }
            if ch == ";" && !quoted { items.append(current); current = ""; continue }
            current.append(ch)
        }
        items.append(current)
        let kind = items.first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        var values: [String: String] = [:]
        for item in items.dropFirst() {
            let kv = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if kv.count == 2 { values[kv[0].lowercased()] = kv[1] }
        }
        return (kind, values)
    }

    /// A file name as shown to people: its last path component, printable characters only,
    /// at most 200 characters. Never used to build a path.
    public static func displayName(_ raw: String) -> String {
        let last = raw.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let printable = String(last.unicodeScalars.filter { !$0.properties.isNoncharacterCodePoint && $0.value >= 0x20 && $0.value != 0x7f }
            .map(Character.init))
        let trimmed = String(printable.prefix(200)).trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty || trimmed == "." || trimmed == ".." ? "upload.ipa" : trimmed
    }
}
