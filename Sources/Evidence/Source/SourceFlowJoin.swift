import Foundation
import Artifacts
import Formats

/// Joins the data flow's open ends over each target's code closure (issue 22, item 2): a
/// parameter that reaches a sink inside a function (a summary of that function) meets the
/// values the function's callers in other files pass; a sink whose value is a constant or a
/// zero-argument function declared in another file meets that declaration.
///
/// Demand-driven and bounded: only the names the open ends mention are looked for (one byte
/// pass over the closure's Swift files), only files that mention them are parsed again, and
/// a caller that passes its own parameter on makes a summary of its function in turn, up to
/// `maximumDepth` functions from the sink. A function is joined only where exactly one file of
/// the closure declares its name; a constant only where every declaration of it in the
/// closure (with the same type) is one. Files outside a target's closure are never joined.
enum SourceFlowJoin {
    /// Functions between a caller and the sink: `log(token)` → `log` → `NSLog` is depth 1.
    static let maximumDepth = 3
    static let maximumPending = 4096

    struct Owned { var bundle: AppBundle; var origin: UsageOrigin; var context: SourceScanContext }

    /// An open end waiting for a value: the sink's capability and key, the path from the
    /// waiting point to the sink (file-qualified), where a finding would be reported.
    struct Pending {
        var capability: String
        var key: String
        var keyIsValue: Bool
        var wants: FlowLink.Wants
        var path: String
        var at: (path: String, line: Int, column: Int)
        var ships: Bool
        var container: [String]
        var files: Set<String>
        var uniqueFunctions: Set<String>
        var depth: Int
        var defaultPath: String?
    }

    struct ExternalKey: Hashable { var name: String; var qualifier: String?; var isCall: Bool }
    struct CalleeSlot: Hashable { var callee: FlowCallee; var index: Int }

    /// A finding before attribution: valid for a bundle whose closure holds `files`.
    struct Result {
        var capability: String, key: String, api: String
        var at: (path: String, line: Int, column: Int)
        var ships: Bool
        var container: [String]
        var files: Set<String>
        var uniqueFunctions: Set<String>
        /// One finding per place whatever the path (a default left by several calls).
        var oncePerPlace = false
    }

    static func usages(links: [(path: String, usage: SourceUsage)], swiftFiles: [String], owners: [String: [Owned]],
                       scanner: @escaping @Sendable (String) -> (any SourceScanning)?, read: @escaping @Sendable (String) -> Data?,
                       parsed: @escaping @Sendable (String) -> (any ParsedSource)? = { _ in nil }, limits: ReaderLimits) -> [Usage] {
        guard !links.isEmpty else { return [] }
        var paramSinks: [CalleeSlot: [Pending]] = [:]
        // Findings on a parameter sensitive by its name, and the calls of its function (`namedParameterSink`).
        var namedSinks: [CalleeSlot: [Pending]] = [:]
        var callAnswers: [CalleeSlot: [(String, FlowAnswer)]] = [:]
        // Files whose calls are not known (not read, too large, not parsed): they may call anything.
        var unread = Set<String>()
        var externalSinks: [ExternalKey: [Pending]] = [:]
        var argumentAnswers: [CalleeSlot: [(String, FlowAnswer)]] = [:]
        var declarations: [String: [(String, FlowAnswer)]] = [:]
        var askedSlots = Set<CalleeSlot>(), askedNames = Set<String>()
        var results: [Result] = []
        var pendingCount = 0

        func qualified(_ text: String, _ path: String) -> String { qualify(text, file: PathUtil.lastComponent(path)) }

        func combine(_ p: Pending, _ q: String, _ a: FlowAnswer) {
            guard let value = a.value else { return }
            let path = qualified(a.path, q) + " → " + p.path
            let here = (path: q, line: a.line, column: a.column)
            var files = p.files
            files.insert(q)
            switch value {
            case .sensitive where p.wants == .sensitive:
                results.append(Result(capability: p.capability, key: p.keyIsValue ? a.what : p.key, api: path, at: here, ships: a.ships && p.ships,
                                      container: a.container, files: files, uniqueFunctions: p.uniqueFunctions))
            case .omitted where p.wants == .constant:
                // Reported once, at the sink: the default is the constant, whichever call leaves it out.
                guard let d = p.defaultPath, p.depth == 1 else { return }
                results.append(Result(capability: p.capability, key: p.key, api: d + " → " + qualified(a.path, q) + " → " + p.path, at: p.at,
                                      ships: a.ships && p.ships, container: p.container, files: files, uniqueFunctions: p.uniqueFunctions,
                                      oncePerPlace: true))
            case .constant where p.wants == .constant:
                results.append(Result(capability: p.capability, key: p.key, api: path, at: here, ships: a.ships && p.ships,
                                      container: a.container, files: files, uniqueFunctions: p.uniqueFunctions))
            case .parameter:
                guard let g = a.enclosing, p.depth < maximumDepth, !(a.partial && p.wants == .constant) else { return }
                var next = p
                next.path = path
                next.at = here
                next.ships = a.ships && p.ships
                next.container = a.container
                next.files = files
                next.uniqueFunctions.insert(g.name)
                next.depth += 1
                next.defaultPath = nil
                addParameter(next, CalleeSlot(callee: g, index: a.enclosingIndex))
            case .external where p.wants == .constant:
                var next = p
                next.path = path
                next.at = here
                next.ships = a.ships && p.ships
                next.container = a.container
                next.files = files
                next.defaultPath = nil
                addExternal(next, ExternalKey(name: a.external, qualifier: a.externalQualifier, isCall: a.externalIsCall))
            default: break
            }
        }
        func addParameter(_ p: Pending, _ slot: CalleeSlot) {
            guard pendingCount < maximumPending else { return }
            pendingCount += 1
            paramSinks[slot, default: []].append(p)
            for (q, a) in argumentAnswers[slot] ?? [] { combine(p, q, a) }
        }
        func addExternal(_ p: Pending, _ key: ExternalKey) {
            guard pendingCount < maximumPending else { return }
            pendingCount += 1
            externalSinks[key, default: []].append(p)
        }

        for (path, u) in links {
            guard let link = u.link else { continue }
            let p = Pending(capability: u.capability, key: u.key, keyIsValue: link.keyIsValue, wants: link.wants, path: qualified(link.path, path),
                            at: (path, u.line, u.column), ships: u.ships, container: u.container, files: [path],
                            uniqueFunctions: link.callee.map { [$0.name] } ?? [], depth: 1,
                            defaultPath: link.defaultPath.map { qualified($0, path) })
            switch link.role {
            case .parameterSink: if let c = link.callee { addParameter(p, CalleeSlot(callee: c, index: link.parameterIndex)) }
            case .externalSink: addExternal(p, ExternalKey(name: link.name, qualifier: link.qualifier, isCall: link.isCall))
            case .namedParameterSink:
                // Reported at the sink, in the file's own words, unless every call clears it.
                guard let c = link.callee else { continue }
                var named = p
                named.path = link.path
                named.uniqueFunctions = []
                namedSinks[CalleeSlot(callee: c, index: link.parameterIndex), default: []].append(named)
            }
        }

        let linkFiles = Set(links.map(\.path))
        // Files this join parses, kept for its later rounds, up to `keptParseBytes` of their text.
        var joinParses: [String: any ParsedSource] = [:]
        var joinParseBudget = SourceEvidence.keptParseBytes
        var declaredBy: [String: Set<String>] = [:]
        for _ in 0...maximumDepth {
            let slots = Set(paramSinks.keys).union(namedSinks.keys).subtracting(askedSlots)
            let names = Set(externalSinks.keys.map(\.name)).subtracting(askedNames)
            guard !slots.isEmpty || !names.isEmpty else { break }
            askedSlots.formUnion(slots)
            askedNames.formUnion(names)
            var asked = FlowQuery(names: names)
            for s in slots { asked.callees[s.callee, default: []].insert(s.index) }
            asked.constantCallees = Set(slots.filter { s in (paramSinks[s] ?? []).contains { $0.wants == .constant } }.map(\.callee))
            asked.everyCall = Set(slots.filter { namedSinks[$0] != nil }.map(\.callee))
            let query = asked
            // Callees whose every open end wants a sensitive value: a caller passes one only
            // where its bytes name a credential (or a source of one), or in a file with a sink.
            // Every call of an `everyCall` callee counts, whatever the caller's words.
            let sensitiveOnly = Set(slots.filter { s in (paramSinks[s] ?? []).allSatisfy { $0.wants == .sensitive } }.map(\.callee))
                .subtracting(query.everyCall)
            let words = names.union(slots.map(\.callee.name))
            let facts = SourceFactsScanner(names: words)
            let files = swiftFiles.sorted()
            let parsedHere = joinParses
            let answers: [(declared: Set<String>, answers: [FlowAnswer], parse: (parse: any ParsedSource, size: Int)?, unread: Bool)] = ConcurrentMap.map(files) { path in
                guard let scanner = scanner(path), let data = read(path), data.count <= limits.maxSourceFileBytes else {
                    return ([], [], nil, !query.everyCall.isEmpty)
                }
                let f = facts.scan(data, language: .swift)
                guard !f.mentioned.isEmpty else { return ([], [], nil, false) }
                // Only what this file can answer: calls it makes, names it declares.
                var mine = FlowQuery()
                var credentialWords: Bool?
                for (callee, indices) in query.callees where f.referenced.contains(callee.name) && writesLabel(data, of: callee) {
                    if sensitiveOnly.contains(callee) && !linkFiles.contains(path) {
                        if credentialWords == nil { credentialWords = data.withUnsafeBytes { mayHoldSensitive($0.bindMemory(to: UInt8.self)) } }
                        if credentialWords == false { continue }
                    }
                    mine.callees[callee] = indices
                    if query.constantCallees.contains(callee) { mine.constantCallees.insert(callee) }
                    if query.everyCall.contains(callee) { mine.everyCall.insert(callee) }
                }
                mine.names = query.names.filter { f.declared.contains($0) || declares(data, $0) }
                guard !mine.isEmpty else { return (f.declared, [], nil, false) }
                let asksCalls = !mine.everyCall.isEmpty
                let context = owners[path]?.first?.context ?? SourceScanContext()
                let debug = ProcessInfo.processInfo.environment["PREFLIGHT_FLOW_DEBUG"] != nil
                // The scan's own parse when it kept it (a UTF-8 file its scanner read without a skip reason).
                if let kept = parsed(path) ?? parsedHere[path] {
                    if debug { FileHandle.standardError.write(Data("flow join asks the kept parse of \(path)\n".utf8)) }
                    return (f.declared, kept.flowAnswers(context: context, query: mine), nil, false)
                }
                guard let text = String(data: data, encoding: .utf8), scanner.skipReason(source: text, limits: limits) == nil
                else { return (f.declared, [], nil, asksCalls) }
                if debug {
                    FileHandle.standardError.write(Data("flow join parses \(path) for \(mine.callees.keys.map(\.signature).sorted()) \(mine.names.sorted())\n".utf8))
                }
                // Parsed once for every round that asks the file (`flowParse`), or asked with a parse of its own.
                if let parse = scanner.flowParse(source: text, path: path, limits: limits) {
                    return (f.declared, parse.flowAnswers(context: context, query: mine), (parse, data.count), false)
                }
                return (f.declared, scanner.flowAnswers(source: text, path: path, context: context, query: mine), nil, false)
            }
            for (path, r) in zip(files, answers) {
                guard let (parse, size) = r.parse, size <= joinParseBudget else { continue }
                joinParseBudget -= size
                joinParses[path] = parse
            }
            if ProcessInfo.processInfo.environment["PREFLIGHT_FLOW_DEBUG"] != nil {
                FileHandle.standardError.write(Data("flow join: \(words.sorted()) answered by \(answers.filter { !$0.answers.isEmpty }.count) files\n".utf8))
            }
            for (path, r) in zip(files, answers) {
                for name in r.declared { declaredBy[name, default: []].insert(path) }
                if r.unread { unread.insert(path) }
                for a in r.answers {
                    switch a.kind {
                    case .call:
                        guard let c = a.callee else { continue }
                        callAnswers[CalleeSlot(callee: c, index: a.parameterIndex), default: []].append((path, a))
                    case .argument:
                        guard let c = a.callee else { continue }
                        let slot = CalleeSlot(callee: c, index: a.parameterIndex)
                        argumentAnswers[slot, default: []].append((path, a))
                        for p in paramSinks[slot] ?? [] { combine(p, path, a) }
                    case .constant, .returned:
                        declarations[a.name, default: []].append((path, a))
                    }
                }
            }
        }
        // Constants: every declaration of the name (and type) in the closure must be one.
        var externalResults: [(Pending, ExternalKey)] = []
        for (key, pendings) in externalSinks { for p in pendings { externalResults.append((p, key)) } }

        var out: [Usage] = []
        var seen = Set<String>()
        func emit(_ r: Result, for b: AppBundle, closure: Set<String>) {
            guard r.files.isSubset(of: closure),
                  r.uniqueFunctions.allSatisfy({ (declaredBy[$0] ?? []).intersection(closure).count == 1 }),
                  let owner = owners[r.at.path]?.first(where: { $0.bundle.name == b.name }) else { return }
            let identity = "\(b.name)|\(r.capability)|\(r.at.path)|\(r.at.line)|\(r.at.column)|" + (r.oncePerPlace ? "default" : r.api)
            guard seen.insert(identity).inserted else { return }
            out.append(Usage(capability: r.capability, key: r.key, api: r.api, location: .source(path: r.at.path, line: r.at.line, column: r.at.column),
                             bundle: b.name, origin: owner.origin, strength: .definite, ships: r.ships && b.kind.ships,
                             basis: nil, container: r.container))
        }
        guard !results.isEmpty || !externalResults.isEmpty || !namedSinks.isEmpty else { return [] }
        var unique: [String: AppBundle] = [:]
        for list in owners.values { for o in list where unique[o.bundle.name] == nil { unique[o.bundle.name] = o.bundle } }
        for b in unique.values.sorted(by: { $0.name < $1.name }) {
            let closure = Set(b.sourceFiles + b.linkedCode.flatMap(\.files))
            for r in results { emit(r, for: b, closure: closure) }
            for (slot, pendings) in namedSinks.sorted(by: { ($0.key.callee, $0.key.index) < ($1.key.callee, $1.key.index) }) {
                // Cleared when the closure's calls of the function are all known and all pass a sanitized value.
                let calls = (callAnswers[slot] ?? []).filter { closure.contains($0.0) }
                if !calls.isEmpty, calls.allSatisfy({ $0.1.value == .sanitized }), unread.isDisjoint(with: closure) { continue }
                for p in pendings {
                    emit(Result(capability: p.capability, key: p.key, api: p.path, at: p.at, ships: p.ships, container: p.container,
                                files: p.files, uniqueFunctions: []), for: b, closure: closure)
                }
            }
            for (p, key) in externalResults {
                let found = (declarations[key.name] ?? []).filter { path, a in
                    closure.contains(path) && a.qualifier == key.qualifier && (a.kind == .returned) == key.isCall
                }.sorted { ($0.0, $0.1.line) < ($1.0, $1.1.line) }
                guard let first = found.first, found.allSatisfy({ $0.1.value == .constant }), p.wants == .constant else { continue }
                var files = p.files
                files.insert(first.0)
                emit(Result(capability: p.capability, key: p.key, api: qualified(first.1.path, first.0) + " → " + p.path, at: p.at,
                            ships: p.ships, container: p.container, files: files, uniqueFunctions: p.uniqueFunctions), for: b, closure: closure)
            }
        }
        return out.sorted { ($0.bundle, $0.capability, "\($0.location)", $0.api) < ($1.bundle, $1.capability, "\($1.location)", $1.api) }
    }

    /// Words a sensitive value's name or source is made of (`SecretNames`, the keychain, secure fields, key types).
    static let sensitiveWords = LoggingPrefilter.table(["password", "passwd", "passphrase", "passcode", "secret", "credential", "token",
                                                        "apikey", "api_key", "privatekey", "private_key", "jwt", "keychain", "ssn",
                                                        "creditcard", "cardnumber", "cvv", "pincode", "issecuretextentry", "secitemcopymatching",
                                                        "symmetrickey", "seckey", "secidentity", "securefield", "valet"])

    static func mayHoldSensitive(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { LoggingPrefilter.containsFoldingCase(bytes, sensitiveWords) }

    /// Whether the bytes hold the first argument label a call of the function must write (`didRequestLoadQuery:`).
    static func writesLabel(_ data: Data, of callee: FlowCallee) -> Bool {
        guard let i = callee.labels.indices.first(where: { callee.labels[$0] != "_" && !callee.defaults[$0] }) else { return true }
        return data.range(of: Data((callee.labels[i] + ":").utf8)) != nil
    }

    /// Whether the bytes declare `let name`/`var name` (a constant the join asks for; `func` is in the byte facts).
    static func declares(_ data: Data, _ name: String) -> Bool {
        for keyword in ["let ", "var "] {
            let needle = Data((keyword + name).utf8)
            var from = data.startIndex
            while let r = data.range(of: needle, in: from..<data.endIndex) {
                let next = r.upperBound < data.endIndex ? data[r.upperBound] : 0x20
                if !WordTable.isIdentifierByte(next) { return true }
                from = r.upperBound
            }
        }
        return false
    }

    /// `… (line 12) …` → `… (Log.swift:12) …`.
    static func qualify(_ text: String, file: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let r = rest.range(of: "(line ") {
            out += rest[..<r.lowerBound]
            let after = rest[r.upperBound...]
            let digits = after.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, after.dropFirst(digits.count).first == ")" {
                out += "(\(file):\(digits))"
                rest = after.dropFirst(digits.count + 1)
            } else {
                out += "(line "
                rest = after
            }
        }
        return out + rest
    }
}
