import Evidence

/// The catalog and the Swift API table, indexed by the names the scanner meets in a tree.
struct SwiftAPIIndex: Sendable {
    /// Capability id → purpose-string key, for capabilities the scanner reports.
    let keys: [String: String]
    /// Swift type name → uses of a bare reference to the type.
    let typeReferences: [String: [SwiftAPIUse]]
    let methods: [String: [SwiftAPI]]
    let properties: [String: [SwiftAPI]]
    let assignments: [String: [SwiftAPI]]
    /// Created type → initializer entries.
    let initializers: [String: [SwiftAPI]]
    let functions: [String: [SwiftAPI]]
    /// `.name` written with no receiver → entries.
    let implicitMembers: [String: [SwiftAPI]]
    /// Names an implicit member's entry needs the file to write (`FileAttributeKey`).
    let implicitMemberContext: Set<String>
    /// Every name the prefilter looks for.
    let names: Set<String>
    /// Names whose mention alone may lead to a match.
    let strongNames: Set<String>
    /// Member names that can match only where the file also writes one of these names.
    let conditionalNames: [String: Set<String>]

    /// Whether a file mentioning these names can hold a match: false lets the scan skip parsing.
    func mayMatch(_ mentioned: Set<String>) -> Bool {
        if !mentioned.isDisjoint(with: strongNames) { return true }
        return conditionalNames.contains { mentioned.contains($0.key) && !mentioned.isDisjoint(with: $0.value) }
    }

    static let standard = SwiftAPIIndex(catalog: .detection)

    /// Resources that exist only on macOS are left out: the scanner does not know the
    /// target's platform, and an iOS source referencing `CLLocationManager` must not be told
    /// it needs the macOS location key.
    static func isReported(_ resource: ProtectedResource) -> Bool {
        !resource.platforms.subtracting([.macOS]).isEmpty
    }

    init(catalog: ProtectedResourceCatalog, table: [SwiftAPI] = SwiftAPITable.entries) {
        var keys: [String: String] = [:]
        var typeReferences: [String: [SwiftAPIUse]] = [:]
        var functions: [String: [SwiftAPI]] = [:]

        func addTypeReference(_ name: String, _ use: SwiftAPIUse) {
            var uses = typeReferences[name, default: []]
            if let existing = uses.firstIndex(where: { $0.capability == use.capability }) {
                if use.strength > uses[existing].strength { uses[existing] = use }
            } else {
                uses.append(use)
            }
            typeReferences[name] = uses
        }

        // Security facts in Swift are the security visitor's: it resolves values, not names.
        for resource in catalog.resources where Self.isReported(resource) && !ProtectedResourceCatalog.Security.isSecurity(resource.capability) {
            if keys[resource.capability] == nil { keys[resource.capability] = resource.key }
            for trigger in resource.triggers.objcClasses {
                let name = SwiftAPITable.swiftNamesOfObjCClasses[trigger.name] ?? trigger.name
                addTypeReference(name, SwiftAPIUse(capability: resource.capability, strength: trigger.strength))
            }
            for trigger in resource.triggers.swiftSymbols {
                guard let demangled = trigger.demangled, let name = demangled.split(separator: ".").last else { continue }
                addTypeReference(String(name), SwiftAPIUse(capability: resource.capability, strength: trigger.strength))
            }
            for trigger in resource.triggers.cFunctions {
                let name = trigger.name.hasPrefix("_") ? String(trigger.name.dropFirst()) : trigger.name
                guard !SwiftAPITable.cFunctionsNotCalled.contains(name) else { continue }
                let use = SwiftAPIUse(capability: resource.capability, strength: trigger.strength)
                functions[name, default: []].append(.function(name, .fixed([use])))
            }
        }

        var methods: [String: [SwiftAPI]] = [:]
        var properties: [String: [SwiftAPI]] = [:]
        var assignments: [String: [SwiftAPI]] = [:]
        var initializers: [String: [SwiftAPI]] = [:]
        var implicitMembers: [String: [SwiftAPI]] = [:]
        for entry in table {
            switch entry.kind {
            case .method: methods[entry.name, default: []].append(entry)
            case .property: properties[entry.name, default: []].append(entry)
            case .assignment: assignments[entry.name, default: []].append(entry)
            case .function: functions[entry.name, default: []].append(entry)
            case .implicitMember: implicitMembers[entry.name, default: []].append(entry)
            case .initializer:
                for type in entry.receivers { initializers[type, default: []].append(entry) }
            }
        }

        // A match starts from a type, initializer or function name, a distinctive member, or a
        // member whose receiver type or listed literal argument the file also writes (an
        // unknown receiver counts only with a listed literal).
        var strong = Set(typeReferences.keys).union(initializers.keys).union(functions.keys)
        strong.formUnion(LaunchRecordingVisitor.triggerNames)
        var conditional: [String: Set<String>] = [:]
        for entry in table where entry.kind != .initializer && entry.kind != .function {
            if entry.distinctive || entry.receivers.isEmpty {
                strong.insert(entry.name)
            } else {
                conditional[entry.name, default: []].formUnion(entry.receivers)
                if case .literal(_, let cases) = entry.decision { conditional[entry.name, default: []].formUnion(cases.keys) }
            }
        }
        conditional = conditional.filter { !strong.contains($0.key) }
        self.strongNames = strong
        self.conditionalNames = conditional
        self.names = conditional.values.reduce(strong.union(conditional.keys)) { $0.union($1) }
        self.keys = keys
        self.typeReferences = typeReferences
        self.methods = methods
        self.properties = properties
        self.assignments = assignments
        self.initializers = initializers
        self.functions = functions
        self.implicitMembers = implicitMembers
        self.implicitMemberContext = Set(implicitMembers.values.flatMap { $0.flatMap(\.receivers) })
    }
}
