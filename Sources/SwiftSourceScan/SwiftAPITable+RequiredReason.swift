import Evidence

/// Swift spellings of the required-reason APIs (`NSPrivacyAccessedAPITypes`). The catalog's
/// C functions (`stat`, `mach_absolute_time`, …) and `NSUserDefaults` (as `UserDefaults`) are
/// matched from the catalog; this table holds the members. Keys in a dictionary or an array
/// are usually written without their type (`attributes[.creationDate]`,
/// `resourceValues(forKeys: [.volumeAvailableCapacityKey])`): distinctive ones count alone,
/// the short date keys only where the file also writes a `FileAttributeKey` API.
extension SwiftAPITable {
    typealias API = ProtectedResourceCatalog.RequiredReasonAPI

    /// Names that make `.creationDate` / `.modificationDate` a `FileAttributeKey`.
    static let fileAttributeAPIs = ["FileAttributeKey", "attributesOfItem", "setAttributes", "createFile", "createDirectory"]
    /// Names that make `.systemSize` a `FileAttributeKey`.
    static let fileSystemAttributeAPIs = ["FileAttributeKey", "attributesOfFileSystem"]

    static let requiredReasonAPIs: [SwiftAPI] = fileTimestampAPIs + diskSpaceAPIs + [
        // -[NSProcessInfo systemUptime]
        .property(["ProcessInfo"], "systemUptime", .fixed([.definite(API.systemBootTime)]), distinctive: true),
        // +[UITextInputMode activeInputModes]
        .property(["UITextInputMode"], "activeInputModes", .fixed([.definite(API.activeKeyboards)]), distinctive: true),
    ]

    static let fileTimestampAPIs: [SwiftAPI] = [
        .property(["FileAttributeKey"], "creationDate", .fixed([.definite(API.fileTimestamp)])),
        .property(["FileAttributeKey"], "modificationDate", .fixed([.definite(API.fileTimestamp)])),
        .property(["URLResourceKey"], "creationDateKey", .fixed([.definite(API.fileTimestamp)]), distinctive: true),
        .property(["URLResourceKey"], "contentModificationDateKey", .fixed([.definite(API.fileTimestamp)]), distinctive: true),
        .property(["UIDocument"], "fileModificationDate", .fixed([.definite(API.fileTimestamp)]), distinctive: true),
        .implicitMember("creationDateKey", .fixed([.definite(API.fileTimestamp)])),
        .implicitMember("contentModificationDateKey", .fixed([.definite(API.fileTimestamp)])),
        .implicitMember("creationDate", .fixed([.definite(API.fileTimestamp)]), whenFileWrites: fileAttributeAPIs),
        .implicitMember("modificationDate", .fixed([.definite(API.fileTimestamp)]), whenFileWrites: fileAttributeAPIs),
    ]

    static let diskSpaceAPIs: [SwiftAPI] = {
        let volumeKeys = ["volumeAvailableCapacityKey", "volumeAvailableCapacityForImportantUsageKey",
                          "volumeAvailableCapacityForOpportunisticUsageKey", "volumeTotalCapacityKey"]
        let use = SwiftAPIDecision.fixed([.definite(API.diskSpace)])
        return volumeKeys.flatMap { key in
            [SwiftAPI.property(["URLResourceKey"], key, use, distinctive: true), .implicitMember(key, use)]
        } + [
            .property(["FileAttributeKey"], "systemFreeSize", use, distinctive: true),
            .property(["FileAttributeKey"], "systemSize", use),
            .implicitMember("systemFreeSize", use),
            .implicitMember("systemSize", use, whenFileWrites: fileSystemAttributeAPIs),
        ]
    }()
}
