/// The kind of binary reference a trigger names.
public enum TriggerKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// An Objective-C runtime class name, as after `_OBJC_CLASS_$_`.
    case objcClass
    /// An Objective-C selector, as in `__objc_selrefs`.
    case selector
    /// A C symbol as imported on Mach-O, with its leading underscore.
    case cFunction
    /// A substring of a mangled Swift symbol naming a Swift-only type.
    case swiftSymbol
}

/// One API reference that requires (or suggests) a protected resource.
public struct Trigger: Sendable, Hashable, Codable {
    /// Class name, selector, C symbol, or mangled-name substring.
    public let name: String
    public let strength: EvidenceStrength
    /// For selectors with common names: the trigger counts only when this Objective-C
    /// class is referenced by the same binary too.
    public let alongsideClass: String?
    /// For Swift symbol substrings: the type it names, as `swift-demangle` prints it.
    public let demangled: String?
    public let note: String?

    public init(name: String, strength: EvidenceStrength, alongsideClass: String? = nil,
                demangled: String? = nil, note: String? = nil) {
        self.name = name
        self.strength = strength
        self.alongsideClass = alongsideClass
        self.demangled = demangled
        self.note = note
    }

    public static func definite(_ name: String, with alongsideClass: String? = nil,
                                note: String? = nil) -> Trigger {
        Trigger(name: name, strength: .definite, alongsideClass: alongsideClass, note: note)
    }

    public static func indicative(_ name: String, with alongsideClass: String? = nil,
                                  note: String? = nil) -> Trigger {
        Trigger(name: name, strength: .indicative, alongsideClass: alongsideClass, note: note)
    }

    /// A Swift type identified by the `<len><module><len><type><kind>` part of its mangling.
    public static func swift(_ mangled: String, _ demangled: String, _ strength: EvidenceStrength,
                             note: String? = nil) -> Trigger {
        Trigger(name: mangled, strength: strength, demangled: demangled, note: note)
    }
}

/// Triggers of one protected resource, split by the kind of reference.
public struct Triggers: Sendable, Hashable, Codable {
    public var objcClasses: [Trigger]
    public var selectors: [Trigger]
    public var cFunctions: [Trigger]
    public var swiftSymbols: [Trigger]

    public init(objcClasses: [Trigger] = [], selectors: [Trigger] = [],
                cFunctions: [Trigger] = [], swiftSymbols: [Trigger] = []) {
        self.objcClasses = objcClasses
        self.selectors = selectors
        self.cFunctions = cFunctions
        self.swiftSymbols = swiftSymbols
    }

    public subscript(kind: TriggerKind) -> [Trigger] {
        switch kind {
        case .objcClass: objcClasses
        case .selector: selectors
        case .cFunction: cFunctions
        case .swiftSymbol: swiftSymbols
        }
    }

    public var isEmpty: Bool { TriggerKind.allCases.allSatisfy { self[$0].isEmpty } }

    /// Every trigger with its kind, in kind order then catalog order.
    public var all: [(kind: TriggerKind, trigger: Trigger)] {
        TriggerKind.allCases.flatMap { kind in self[kind].map { (kind, $0) } }
    }
}
