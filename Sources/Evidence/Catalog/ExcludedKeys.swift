extension ProtectedResourceCatalog {
    /// High- and medium-confidence keys of the reference data that have no entry, and why.
    /// Low-confidence keys (seen only in third-party key lists) are left out without a note.
    static let excludedPurposeStringKeys: [String: String] = [
        "NSDesktopFolderUsageDescription":
            "macOS privacy control triggered by file paths at run time; no API a binary references.",
        "NSDocumentsFolderUsageDescription":
            "macOS privacy control triggered by file paths at run time; no API a binary references.",
        "NSDownloadsFolderUsageDescription":
            "macOS privacy control triggered by file paths at run time; no API a binary references.",
        "NSNetworkVolumesUsageDescription":
            "macOS privacy control triggered by file paths at run time; no API a binary references.",
        "NSRemovableVolumesUsageDescription":
            "macOS privacy control triggered by file paths at run time; no API a binary references.",
        "NSFileProviderDomainUsageDescription":
            "macOS privacy control triggered by reading files a file provider manages; no API a binary references.",
        "NSAppDataUsageDescription":
            "macOS 14 app-container protection triggered by file paths of other apps; no API a binary references.",
        "NSSystemAdministrationUsageDescription":
            "macOS only; the reference data names no triggering API.",
        "OSBundleUsageDescription":
            "DriverKit driver usage; the reference data names no triggering API.",
    ]
}
