/// Matches what a binary references against the protected-resource catalog.
///
/// Build it once per platform (and deployment target) and reuse it: construction indexes
/// the catalog; `match` is one pass over the imported symbols plus dictionary look-ups.
public struct BinaryReferenceMatcher: Sendable {
    private struct Rule: Sendable {
        let capability: String
        let key: String
        let kind: TriggerKind
        let trigger: Trigger
    }

    private let classRules: [String: [Rule]]
    private let selectorRules: [String: [Rule]]
    private let cFunctionRules: [String: [Rule]]
    private let swiftRules: [[Rule]]
    private let swiftSearch: MangledSubstringSearch

    static let objcClassSymbolPrefix = "_OBJC_CLASS_$_"

    /// - Parameters:
    ///   - platform: the binary's platform; keys of other platforms never match.
    ///   - deploymentTarget: the binary's minimum OS version (`"15.0"`). When given for iOS
    ///     or Mac Catalyst, legacy keys needed only below an older version are left out.
    public init(catalog: ProtectedResourceCatalog = .detection, platform: ApplePlatform = .iOS,
                deploymentTarget: String? = nil) {
        var classRules: [String: [Rule]] = [:]
        var selectorRules: [String: [Rule]] = [:]
        var cFunctionRules: [String: [Rule]] = [:]
        var swiftPatterns: [String] = []
        var swiftRules: [[Rule]] = []
        for resource in catalog.resources where Self.applies(resource, platform, deploymentTarget) {
            for (kind, trigger) in resource.triggers.all {
                let rule = Rule(capability: resource.capability, key: resource.key, kind: kind, trigger: trigger)
                switch kind {
                case .objcClass: classRules[trigger.name, default: []].append(rule)
                case .selector: selectorRules[trigger.name, default: []].append(rule)
                case .cFunction: cFunctionRules[trigger.name, default: []].append(rule)
                case .swiftSymbol:
                    if let index = swiftPatterns.firstIndex(of: trigger.name) {
                        swiftRules[index].append(rule)
                    } else {
                        swiftPatterns.append(trigger.name)
                        swiftRules.append([rule])
                    }
                }
            }
        }
        self.classRules = classRules
        self.selectorRules = selectorRules
        self.cFunctionRules = cFunctionRules
        self.swiftRules = swiftRules
        self.swiftSearch = MangledSubstringSearch(swiftPatterns)
    }

    /// The capabilities the references show, deduplicated and sorted.
    public func match(_ references: BinaryReferences) -> [CapabilityUse] {
        var classes = references.objcClasses
        var uses: [CapabilityUse] = []
        // Per Swift pattern, the shortest symbol containing it (ties: the smallest), so each
        // pattern has one deterministic and readable proof, usually the metadata accessor.
        var swiftProof: [Int: String] = [:]

        for symbol in references.importedSymbols {
            if symbol.hasPrefix(Self.objcClassSymbolPrefix) {
                classes.insert(String(symbol.dropFirst(Self.objcClassSymbolPrefix.count)))
            } else if let rules = cFunctionRules[symbol] {
                for rule in rules { uses.append(use(rule, proof: symbol)) }
            } else if !swiftSearch.isEmpty, Self.isSwiftMangled(symbol) {
                for index in swiftSearch.matches(in: symbol) {
                    if let current = swiftProof[index], !Self.isBetterProof(symbol, than: current) { continue }
                    swiftProof[index] = symbol
                }
            }
        }
        for (index, symbol) in swiftProof {
            for rule in swiftRules[index] { uses.append(use(rule, proof: symbol)) }
        }
        for (name, rules) in classRules where classes.contains(name) {
            for rule in rules { uses.append(use(rule, proof: name)) }
        }
        for (selector, rules) in selectorRules where references.selectors.contains(selector) {
            let satisfied = rules.filter { rule in rule.trigger.alongsideClass.map(classes.contains) ?? true }
            let ambiguous = Self.hasAmbiguousReceiver(satisfied)
            for rule in satisfied {
                var found = use(rule, proof: selector)
                if ambiguous, rule.trigger.alongsideClass != nil { found.strength = .indicative }
                uses.append(found)
            }
        }
        return Self.deduplicated(Self.decidingMediaType(uses, references))
    }

    /// `requestAccessForMediaType:` and `authorizationStatusForMediaType:` accept only
    /// `AVMediaTypeVideo` (camera) and `AVMediaTypeAudio` (microphone). A binary that imports
    /// one of the two constants and not the other can pass only that one: its use of the
    /// selector is that capability's, definitely, and not the other's.
    static let mediaTypeSelectors: Set<String> = ["requestAccessForMediaType:completionHandler:", "authorizationStatusForMediaType:"]
    static let mediaTypeConstants = ["_AVMediaTypeVideo": "camera", "_AVMediaTypeAudio": "microphone"]

    private static func decidingMediaType(_ uses: [CapabilityUse], _ references: BinaryReferences) -> [CapabilityUse] {
        let imported = mediaTypeConstants.filter { references.importedSymbols.contains($0.key) }
        guard imported.count == 1, let capability = imported.first?.value else { return uses }
        return uses.compactMap { use in
            guard use.proofKind == .selector, mediaTypeSelectors.contains(use.proof) else { return use }
            guard use.capability == capability else { return nil }
            var decided = use
            // Reading the status shows no prompt: it stays a hint.
            if use.proof == "requestAccessForMediaType:completionHandler:" { decided.strength = .definite }
            return decided
        }
    }

    /// A selector shared by classes of different capabilities (`requestAuthorization:` on
    /// SFSpeechRecognizer and MPMediaLibrary) cannot say which class received it when the
    /// binary references several of them; then none of those uses is definite.
    private static func hasAmbiguousReceiver(_ rules: [Rule]) -> Bool {
        var capabilitiesByClass: [String: Set<String>] = [:]
        for rule in rules {
            guard let receiver = rule.trigger.alongsideClass else { continue }
            capabilitiesByClass[receiver, default: []].insert(rule.capability)
        }
        return Set(capabilitiesByClass.values).count > 1
    }

    private static func isBetterProof(_ candidate: String, than current: String) -> Bool {
        let candidateLength = candidate.utf8.count, currentLength = current.utf8.count
        return candidateLength != currentLength ? candidateLength < currentLength : candidate < current
    }

    private func use(_ rule: Rule, proof: String) -> CapabilityUse {
        CapabilityUse(capability: rule.capability, key: rule.key, proof: proof, proofKind: rule.kind,
                      strength: rule.trigger.strength, alongsideClass: rule.trigger.alongsideClass)
    }

    /// One use per capability, key, proof and companion class; the strongest wins.
    private static func deduplicated(_ uses: [CapabilityUse]) -> [CapabilityUse] {
        var strongest: [CapabilityUse: CapabilityUse] = [:]
        for use in uses {
            var identity = use
            identity.strength = .indicative
            if let existing = strongest[identity], existing.strength >= use.strength { continue }
            strongest[identity] = use
        }
        return strongest.values.sorted()
    }

    private static func applies(_ resource: ProtectedResource, _ platform: ApplePlatform,
                                _ deploymentTarget: String?) -> Bool {
        guard resource.platforms.contains(platform) else { return false }
        if platform == .iOS || platform == .macCatalyst,
           let below = resource.neededOnlyBelowIOS, let target = deploymentTarget,
           !OSVersion.isLess(target, than: below) {
            return false
        }
        return true
    }

    /// `$s…`/`_$s…` (Swift 5) and `$S…`/`_$S…` (Swift 4.2) manglings.
    static func isSwiftMangled(_ symbol: String) -> Bool {
        var bytes = symbol.utf8.makeIterator()
        var first = bytes.next()
        if first == UInt8(ascii: "_") { first = bytes.next() }
        guard first == UInt8(ascii: "$"), let kind = bytes.next() else { return false }
        return kind == UInt8(ascii: "s") || kind == UInt8(ascii: "S")
    }
}

/// Dotted numeric OS versions ("13", "13.0", "17.4.1").
enum OSVersion {
    static func isLess(_ lhs: String, than rhs: String) -> Bool {
        let left = components(lhs), right = components(rhs)
        for index in 0..<max(left.count, right.count) {
            let l = index < left.count ? left[index] : 0
            let r = index < right.count ? right[index] : 0
            if l != r { return l < r }
        }
        return false
    }

    private static func components(_ version: String) -> [Int] {
        version.split(separator: ".").map { Int($0) ?? 0 }
    }
}
