/// Caps on what an input can make a reader do. Every reader takes one; exceeding a cap is a
/// `FormatError` of kind `.limitExceeded` naming the cap, never a partial silent result.
public struct ReaderLimits: Sendable, Equatable {
    /// Largest single file (decompressed archive entry or file on disk) a reader accepts.
    public var maxFileBytes: Int = 1 << 31
    /// Sum of decompressed bytes read from one archive.
    public var maxTotalBytes: Int = 8 << 30
    /// Largest ratio of decompressed to compressed size for an archive entry.
    public var maxCompressionRatio: Int = 1_000
    /// Number of entries in an archive or files in a folder.
    public var maxArchiveEntries: Int = 200_000
    /// Nesting depth of property lists, JSON and pbxproj objects.
    public var maxNestingDepth: Int = 256
    /// Objects in one property list, JSON document or pbxproj.
    public var maxPlistObjects: Int = 2_000_000
    /// Load commands in one Mach-O slice.
    public var maxLoadCommands: Int = 65_536
    /// Symbols in one Mach-O symbol table.
    public var maxSymbols: Int = 10_000_000
    /// Length of one string read from a binary (symbol names, dylib paths, C strings).
    public var maxStringLength: Int = 1 << 20
    /// Slices in a fat Mach-O.
    public var maxFatSlices: Int = 64
    /// Largest source file the source scanners read.
    public var maxSourceFileBytes: Int = 8 << 20

    public init() {}

    public static let `default` = ReaderLimits()

    /// Names and values, for documentation and `--limit name=value` flags.
    public var named: [(String, Int)] {
        [("max-file-bytes", maxFileBytes), ("max-total-bytes", maxTotalBytes),
         ("max-compression-ratio", maxCompressionRatio), ("max-archive-entries", maxArchiveEntries),
         ("max-nesting-depth", maxNestingDepth), ("max-plist-objects", maxPlistObjects),
         ("max-load-commands", maxLoadCommands), ("max-symbols", maxSymbols),
         ("max-string-length", maxStringLength), ("max-fat-slices", maxFatSlices),
         ("max-source-file-bytes", maxSourceFileBytes)]
    }

    /// Sets a limit by its documented name; returns false for an unknown name.
    public mutating func set(_ name: String, to value: Int) -> Bool {
        switch name {
        case "max-file-bytes": maxFileBytes = value
        case "max-total-bytes": maxTotalBytes = value
        case "max-compression-ratio": maxCompressionRatio = value
        case "max-archive-entries": maxArchiveEntries = value
        case "max-nesting-depth": maxNestingDepth = value
        case "max-plist-objects": maxPlistObjects = value
        case "max-load-commands": maxLoadCommands = value
        case "max-symbols": maxSymbols = value
        case "max-string-length": maxStringLength = value
        case "max-fat-slices": maxFatSlices = value
        case "max-source-file-bytes": maxSourceFileBytes = value
        default: return false
        }
        return true
    }
}
