import Foundation
import Artifacts
import Evidence

public struct FileProtectionNoneRule: Rule {
    public init() {}
    typealias Security = ProtectedResourceCatalog.Security

    public static let description = RuleDescription(
        identifier: "file_protection_none",
        name: "File written without protection",
        summary: "Code writes a file with no data protection (.noFileProtection, FileProtectionType.none, NSFileProtectionNone): it is readable whenever the device is on, locked or not.",
        rationale: """
        iOS encrypts every file with a key of its protection class. The default \
        (`completeUntilFirstUserAuthentication`) keeps a file unreadable from a restart until the \
        user first unlocks; `complete` also while the device is locked. A file given `none` is \
        protected only by the device's UID key: it is readable at any time, before any unlock, \
        and by any process that gets the device's storage. Apple's *Encrypting Your App's Files* \
        asks for the strongest class the app's access pattern allows; code that must write while \
        locked can keep `completeUntilFirstUserAuthentication` (or `completeUnlessOpen` for a file \
        it keeps open).

        Reported for the protection written in code: a write with `Data.WritingOptions.noFileProtection`, \
        `FileManager` attributes (`[.protectionKey: FileProtectionType.none]`), \
        `URLResourceValues.fileProtection = .none`, Core Data's \
        `NSPersistentStoreFileProtectionKey`, and Objective-C's `NSFileProtectionNone` / \
        `NSDataWritingFileProtectionNone`. A **warning** in the bundle's own sources; a **note** \
        for a binary that imports `NSFileProtectionNone` (it may only compare with it) and for \
        code the bundle may not run.
        """,
        area: .storage, severity: .warning, tags: ["security", "data-protection", "MASVS-STORAGE-1"],
        references: ["https://developer.apple.com/documentation/uikit/encrypting-your-app-s-files",
                     "https://developer.apple.com/documentation/foundation/fileprotectiontype"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Cache.swift": """
                         import Foundation

                         func save(_ data: Data, to url: URL) throws {
                             try data.write(
                                 to: url, options: [.atomic, ↓.noFileProtection])
                         }

                         func unprotect(_ path: String) throws {
                             try FileManager.default.setAttributes([.protectionKey: ↓FileProtectionType.none], ofItemAtPath: path)
                         }

                         func mark(_ url: URL) throws {
                             var values = URLResourceValues()
                             values.fileProtection = ↓.none
                             var copy = url
                             try copy.setResourceValues(values)
                         }
                         """]),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Store.m": """
                         #import <CoreData/CoreData.h>

                         NSDictionary *StoreOptions(void) {
                             return @{NSPersistentStoreFileProtectionKey: ↓NSFileProtectionNone};
                         }

                         BOOL SaveLog(NSData *data, NSString *path) {
                             return [data writeToFile:path options:↓NSDataWritingFileProtectionNone error:NULL];
                         }
                         """]),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>App</string>")],
                        binaryFixtures: ["App↓": "Storage/kvstore"], kind: .app,
                        note: "A built app whose executable imports NSFileProtectionNone: a note."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Log.swift": """
                         import Foundation

                         func openLog(at path: String) -> FileHandle? {
                             FileManager.default.createFile(atPath: path, contents: nil, attributes: [.protectionKey: ↓.none])
                             return FileHandle(forWritingAtPath: path)
                         }
                         """],
                        note: "A log created empty and then written through a handle keeps the class it was created with."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Cache.swift": """
                         import Foundation

                         func save(_ data: Data, to url: URL) throws {
                             try data.write(
                                 to: url, options: [.atomic, .completeFileProtection])
                             try FileManager.default.setAttributes([.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication],
                                                                   ofItemAtPath: url.path)
                         }

                         func firstName(_ names: [String]?) -> String? {
                             switch names {
                             case .none: return nil
                             case .some(let n): return n.first
                             }
                         }
                         """],
                        note: "Complete protection, the system default written out, and Optional's .none."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Debug.swift": """
                         import Foundation

                         #if DEBUG
                         func dump(_ data: Data, to url: URL) throws {
                             try data.write(
                                 to: url, options: .noFileProtection)
                         }
                         #endif
                         """],
                        note: "Debug-only code does not ship."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Marker.swift": """
                         import Foundation

                         func markOnboardingSeen(in folder: URL) {
                             let marker = folder.appendingPathComponent("onboarding-seen").path
                             FileManager.default.createFile(atPath: marker, contents: nil, attributes: [.protectionKey: .none])
                         }
                         """],
                        note: "An empty marker file: its existence is all it holds, so there is no data to protect."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        var seen = Set<String>()
        for (host, fact) in SecurityFacts(context).all(Security.fileProtection) where fact.usage.key == "none" {
            let u = fact.usage
            let place = SecurityFacts.location(u)
            // One place can be read two ways (`[.protectionKey: FileProtectionType.none]`).
            guard seen.insert("\(host.name)|\(place.path)|\(place.position?.line ?? 0)|\(place.position?.column ?? 0)").inserted else { continue }
            var f = finding("\(host.name) writes a file with no data protection (\(UsageReading.describe(u))): it is readable before the first unlock and while the device is locked",
                            bundle: host.name, at: place, key: "none", evidence: [UsageReading.evidenceRef(u)],
                            fix: "Use .completeFileProtection (or .completeFileProtectionUntilFirstUserAuthentication for a file background code writes while locked); omitting the option keeps the default, completeUntilFirstUserAuthentication.",
                            fingerprint: [place.path, u.api])
            if !SecurityFacts.isSource(u) || !fact.direct || SecurityFacts.isPackaged(u) { f.severity = .note }
            out.append(f)
        }
        return out
    }
}
