import Formats

/// Finds uses of protected APIs in Objective-C, C and C++ source (`.m`, `.mm`, `.c`,
/// `.cpp`, `.h`) with a lexer, not a text search: comments, string literals, `#include`
/// lines and code no build compiles never count, and code only debug or simulator builds
/// compile counts with `ships == false`.
///
/// What counts, with the catalog's strengths:
/// - a class name used as an identifier (`[CLLocationManager new]`, `CLLocationManager *m`),
///   unless the file declares a class of that name itself (`@interface CLLocationManager : …`);
///   `@class` forward declarations do not count;
/// - a selector, rebuilt from the keyword parts of a message send (`[x requestAccessForMediaType:…
///   completionHandler:…]`), from dot syntax (`map.showsUserLocation = YES` is
///   `setShowsUserLocation:`) or from `@selector(…)`. A selector that needs a companion class
///   counts when the receiver is that class, or, when the receiver's class is unknown, when
///   the file names the class; a receiver of another class (`[MyHelper startUpdatingLocation]`)
///   does not count;
/// - a C function or constant from the catalog (Mach-O underscore removed): `ABAddressBookCreate(`;
/// - arguments that decide the resource: `AVMediaTypeVideo` / `AVMediaTypeAudio`,
///   `PHAccessLevelAddOnly` / `PHAccessLevelReadWrite`, `EKEntityTypeEvent` / `EKEntityTypeReminder`;
///   and `UIImagePickerControllerSourceTypeCamera` (the photo-library sources are no use).
///
/// Each occurrence is reported once per line; the output is sorted by position. Lines and
/// columns are 1-based, columns in UTF-8 bytes.
public enum ObjCSourceScanner {
    /// `#if` nesting read before further levels are counted but no longer evaluated.
    public static let maxConditionalDepth = ReaderLimits.default.maxNestingDepth
    /// Usages reported for one file at most.
    public static let maxUsagesPerFile = 10_000

    /// Usages of protected APIs in one Objective-C/C/C++ file. `path` is for messages only.
    ///
    /// - Parameters:
    ///   - definitions: macros of the shipping build (`-D` flags); they override the built-in
    ///     assumptions (`DEBUG` undefined, `TARGET_OS_SIMULATOR` 0). A body that is an integer
    ///     literal gives the macro that value; an empty body means 1.
    ///   - platform: keys of other platforms never match (as for binaries).
    public static func scan(source: String, path: String, catalog: ProtectedResourceCatalog = .detection,
                            definitions: [String: String] = [:],
                            platform: ApplePlatform = .iOS) -> [SourceUsage] {
        _ = path
        guard source.utf8.count <= ReaderLimits.default.maxSourceFileBytes else { return [] }
        let table = ObjCTriggerTable.table(for: catalog, platform: platform)
        var (positions, bytes) = ObjCSourcePositions.splice(Array(source.utf8))
        var parser = ObjCSourceParser(
            lexer: ObjCLexer(bytes: bytes, definitions: definitions, maxConditionalDepth: maxConditionalDepth),
            table: table)
        parser.run()
        let resolver = ObjCCandidateResolver(table: table, localClasses: parser.localClasses,
                                             referencedClasses: parser.referencedClasses)
        var usages: [SourceUsage] = []
        var seen: Set<SourceUsageIdentity> = []
        for candidate in parser.candidates {
            let found = resolver.resolve(candidate)
            guard !found.isEmpty else { continue }
            let (line, column) = positions.lineAndColumn(candidate.offset)
            for use in found {
                let usage = SourceUsage(capability: use.capability, key: use.key, api: use.api, line: line,
                                        column: column, strength: use.strength, ships: candidate.ships, symbol: use.symbol)
                guard seen.insert(SourceUsageIdentity(usage)).inserted else { continue }
                usages.append(usage)
            }
        }
        // The fact readers share one lexing of the file, done only when one of them may find something.
        let security = ObjCSecurityFacts.mayFind(bytes) || ObjCAppGroupFacts.mayFind(bytes)
        let logging = ObjCLoggingFacts.mayFind(bytes)
        let crypto = ObjCCryptoFacts.mayFind(bytes)
        let calls = ObjCCallFacts.mayFind(bytes)
        if security || logging || crypto || calls.biometric || calls.wrapper {
            let file = ObjCLexedFile(bytes: bytes, definitions: definitions)
            if security { usages += ObjCSecurityFacts.scan(file, positions: &positions) }
            if logging { usages += ObjCLoggingFacts.scan(file, positions: &positions) }
            if crypto { usages += ObjCCryptoFacts.scan(file, positions: &positions) }
            usages += ObjCCallFacts.scan(file, biometric: calls.biometric, wrapper: calls.wrapper, positions: &positions)
        }
        usages.sort { lhs, rhs in
            (lhs.line, lhs.column, lhs.capability, lhs.key, lhs.api)
                < (rhs.line, rhs.column, rhs.capability, rhs.key, rhs.api)
        }
        if usages.count > maxUsagesPerFile { usages.removeLast(usages.count - maxUsagesPerFile) }
        return usages
    }
}

/// One report per capability, key, API, line, shipping state and strength; the first seen wins.
private struct SourceUsageIdentity: Hashable {
    let capability: String, key: String, api: String, line: Int, ships: Bool, strength: EvidenceStrength

    init(_ usage: SourceUsage) {
        capability = usage.capability
        key = usage.key
        api = usage.api
        line = usage.line
        ships = usage.ships
        strength = usage.strength
    }
}
