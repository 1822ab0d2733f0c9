/// Applies the file-wide facts to candidates: local class declarations, companion classes,
/// receivers, arguments.
struct ObjCCandidateResolver {
    struct Found {
        let capability: String
        let key: String
        let api: String
        let strength: EvidenceStrength
        /// The class or function name the use rests on, when the file writes it.
        var symbol: String? = nil
    }

    let table: ObjCTriggerTable
    let localClasses: Set<String>
    /// Companion and trigger classes the file names, less the ones it declares.
    let referencedClasses: Set<String>

    init(table: ObjCTriggerTable, localClasses: Set<String>, referencedClasses: Set<String>) {
        self.table = table
        self.localClasses = localClasses
        self.referencedClasses = referencedClasses.subtracting(localClasses)
    }

    func resolve(_ candidate: ObjCCandidate) -> [Found] {
        switch candidate.form {
        case .classReference(let name):
            guard !localClasses.contains(name) else { return [] }
            return (table.classes[name] ?? []).map { found($0, api: name, symbol: name) }
        case .cFunction(let name, let call):
            return (table.cFunctions[name] ?? []).map { found($0, api: call ? name + "()" : name, symbol: name) }
        case .constant(let name, let definite):
            return (table.constants[name] ?? []).map {
                found($0, api: name, strength: definite ? $0.trigger.strength : .indicative)
            }
        case .message(let use):
            return message(use)
        }
    }

    private func found(_ rule: ObjCTriggerTable.Rule, api: String, strength: EvidenceStrength? = nil, symbol: String? = nil) -> Found {
        Found(capability: rule.capability, key: rule.key, api: api, strength: strength ?? rule.trigger.strength, symbol: symbol)
    }

    private func message(_ use: ObjCSelectorUse) -> [Found] {
        let rules = table.selectors[use.selector] ?? []
        var applicable: [(rule: ObjCTriggerTable.Rule, strength: EvidenceStrength)]
        let receiver = use.receiverClass
        if let receiver {
            // The receiver names a class: companion rules count only for that very class,
            // and not when the file declares a class of that name itself.
            let real = !localClasses.contains(receiver)
            applicable = rules.filter { rule in
                guard let companion = rule.trigger.alongsideClass else { return true }
                return real && companion == receiver
            }.map { ($0, $0.trigger.strength) }
        } else {
            let satisfied = rules.filter { rule in rule.trigger.alongsideClass.map(referencedClasses.contains) ?? true }
            // As for binaries: a selector shared by companion classes of different capabilities,
            // all named in the file, cannot say which one received it.
            var capabilitiesByClass: [String: Set<String>] = [:]
            for rule in satisfied {
                if let companion = rule.trigger.alongsideClass {
                    capabilitiesByClass[companion, default: []].insert(rule.capability)
                }
            }
            let ambiguous = Set(capabilitiesByClass.values).count > 1
            applicable = satisfied.map { rule in
                (rule, ambiguous && rule.trigger.alongsideClass != nil ? .indicative : rule.trigger.strength)
            }
        }

        if use.syntax == .send, let argumentRules = table.argumentRules[use.selector] {
            let matched = argumentRules.filter { $0.part < use.arguments.count && use.arguments[$0.part].contains($0.constant) }
            if !matched.isEmpty {
                let capabilities = matched.reduce(into: Set<String>()) { $0.formUnion($1.capabilities) }
                let strengths = Set(matched.map(\.strength))
                applicable = applicable.filter { capabilities.contains($0.rule.capability) }.map { entry in
                    (entry.rule, strengths.count == 1 ? (strengths.first! ?? entry.strength) : entry.strength)
                }
            }
        }

        return applicable.map { entry in
            Found(capability: entry.rule.capability, key: entry.rule.key,
                  api: api(use, companion: entry.rule.trigger.alongsideClass), strength: entry.strength,
                  symbol: use.receiverClass.flatMap { localClasses.contains($0) ? nil : $0 })
        }
    }

    private func api(_ use: ObjCSelectorUse, companion: String?) -> String {
        if use.syntax == .selectorExpression { return "@selector(\(use.selector))" }
        let label = use.receiverClass.flatMap { localClasses.contains($0) ? nil : $0 }
            ?? companion
            ?? table.homeClasses[use.selector]?.first(where: referencedClasses.contains)
            ?? use.receiverText
            ?? "…"
        return "[\(label) \(use.selector)]"
    }
}
