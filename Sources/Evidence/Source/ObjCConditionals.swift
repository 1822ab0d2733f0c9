/// What the preprocessor knows about one macro in one build configuration.
enum ObjCMacroValue: Equatable {
    case undefined
    /// Defined; the integer value when the body is an integer literal (nil otherwise).
    case defined(Int?)
    /// May or may not be defined.
    case unknown
}

/// The `#if` / `#elif` / `#else` / `#endif` stack, evaluated in two configurations at once:
/// the **release device** build (what ships: `DEBUG` undefined, simulator macros 0) and
/// **any** build (debug and simulator builds included). Values are three-valued: true,
/// false, or unknown (nil) for macros whose value cannot be known from one file.
///
/// A branch is *dead* (not scanned) when no build compiles it (`#if 0`), *not shipping*
/// when only non-release builds compile it (`#if DEBUG`, simulator-only), and shipping
/// otherwise, unknown macros included.
struct ObjCConditionals {
    enum Region: Equatable { case shipping, notShipping, dead }

    private struct Frame {
        var parentRelease: Bool?
        var parentAny: Bool?
        /// Whether an earlier branch of this `#if` chain was taken.
        var takenRelease: Bool?
        var takenAny: Bool?
        var release: Bool?
        var any: Bool?
        var sawElse = false
    }

    private var frames: [Frame] = []
    /// `#if`s nested deeper than `maxDepth`: counted, never evaluated.
    private var overflow = 0
    let maxDepth: Int

    private(set) var release: [String: ObjCMacroValue]
    private(set) var any: [String: ObjCMacroValue]

    /// Macros of the release device build, before `definitions` override them.
    static let releaseDefaults: [String: ObjCMacroValue] = [
        "DEBUG": .undefined,
        "TARGET_OS_SIMULATOR": .defined(0),
        "TARGET_IPHONE_SIMULATOR": .defined(0),
    ]

    /// Macros that differ between builds: defined in TargetConditionals.h with an unknown value,
    /// or set only by some build configurations.
    static let anyDefaults: [String: ObjCMacroValue] = [
        "DEBUG": .unknown,
        "TARGET_OS_SIMULATOR": .defined(nil),
        "TARGET_IPHONE_SIMULATOR": .defined(nil),
    ]

    init(definitions: [String: String], maxDepth: Int) {
        self.maxDepth = maxDepth
        var release = Self.releaseDefaults
        var any = Self.anyDefaults
        for (name, body) in definitions {
            let value = ObjCMacroValue.defined(ObjCConditionEvaluator.integerLiteral(body)
                                               ?? (body.isEmpty ? 1 : nil))
            release[name] = value
            any[name] = value
        }
        self.release = release
        self.any = any
    }

    var current: (release: Bool?, any: Bool?) {
        guard let top = frames.last else { return (true, true) }
        return (top.release, top.any)
    }

    var region: Region {
        let (release, any) = current
        if any == false { return .dead }
        if release == false { return .notShipping }
        return .shipping
    }

    // MARK: directives

    /// `#if`, `#ifdef`, `#ifndef`: `condition` evaluates the expression in one configuration.
    mutating func pushIf(_ condition: (_ macros: [String: ObjCMacroValue]) -> Bool?) {
        if overflow > 0 || frames.count >= maxDepth {
            overflow += 1
            return
        }
        let (parentRelease, parentAny) = current
        // Dead code is never evaluated: its conditions may be nonsense.
        let inRelease = parentAny == false ? false : condition(release)
        let inAny = parentAny == false ? false : condition(any)
        frames.append(Frame(parentRelease: parentRelease, parentAny: parentAny,
                            takenRelease: inRelease, takenAny: inAny,
                            release: Tri.and(parentRelease, inRelease), any: Tri.and(parentAny, inAny)))
    }

    /// `#elif`, `#elifdef`, `#elifndef`; `nil` condition for `#else`.
    mutating func alternative(_ condition: ((_ macros: [String: ObjCMacroValue]) -> Bool?)?) {
        if overflow > 0 { return }
        guard var frame = frames.popLast() else { return }
        if frame.sawElse {
            // `#elif` after `#else` is an error; the rest of the chain is never compiled.
            frame.release = false
            frame.any = false
            frames.append(frame)
            return
        }
        let dead = frame.parentAny == false
        let inRelease: Bool? = dead ? false : (condition.map { $0(release) } ?? true)
        let inAny: Bool? = dead ? false : (condition.map { $0(any) } ?? true)
        let branchRelease = Tri.and(Tri.not(frame.takenRelease), inRelease)
        let branchAny = Tri.and(Tri.not(frame.takenAny), inAny)
        frame.takenRelease = Tri.or(frame.takenRelease, inRelease)
        frame.takenAny = Tri.or(frame.takenAny, inAny)
        frame.release = Tri.and(frame.parentRelease, branchRelease)
        frame.any = Tri.and(frame.parentAny, branchAny)
        if condition == nil { frame.sawElse = true }
        frames.append(frame)
    }

    mutating func popIf() {
        if overflow > 0 {
            overflow -= 1
        } else if !frames.isEmpty {
            frames.removeLast()
        }
    }

    /// `#define NAME body` in the current region: a configuration where the region surely
    /// compiles learns the value; one where it may compile forgets what it knew.
    mutating func define(_ name: String, _ value: ObjCMacroValue) {
        let (inRelease, inAny) = current
        Self.apply(name, value, when: inRelease, to: &release)
        Self.apply(name, value, when: inAny, to: &any)
    }

    private static func apply(_ name: String, _ value: ObjCMacroValue, when active: Bool?,
                              to macros: inout [String: ObjCMacroValue]) {
        switch active {
        case true: macros[name] = value
        case nil: if macros[name] != value { macros[name] = .unknown }
        case false: break
        }
    }
}

/// Kleene three-valued logic; nil is unknown.
enum Tri {
    static func not(_ value: Bool?) -> Bool? { value.map { !$0 } }

    static func and(_ lhs: Bool?, _ rhs: Bool?) -> Bool? {
        if lhs == false || rhs == false { return false }
        if lhs == true && rhs == true { return true }
        return nil
    }

    static func or(_ lhs: Bool?, _ rhs: Bool?) -> Bool? {
        if lhs == true || rhs == true { return true }
        if lhs == false && rhs == false { return false }
        return nil
    }
}
