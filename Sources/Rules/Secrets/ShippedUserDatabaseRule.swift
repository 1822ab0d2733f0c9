import Foundation
import Artifacts
import Evidence

public struct ShippedUserDatabaseRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "shipped_user_database",
        name: "Database with user data shipped",
        summary: "An app ships an SQLite database whose user, account, credential or session tables already hold rows (built apps; projects: the files a shipping target copies).",
        rationale: """
        A seed database is a normal resource, but one whose `users`, `accounts`, `credentials`, \
        `sessions` or `tokens` table (Core Data: `ZUSER`, …) has rows usually means a developer's \
        test data or a copy of real accounts went out with the build; every downloader can open \
        it with `sqlite3`. Preflight reads only the schema (page 1) and each table's first page: \
        it says which tables have rows, not what they hold. Empty tables are not reported, and \
        `preflight inspect` lists every shipped database with its tables.

        Fix: ship the schema (or let Core Data create it) and load user data at run time; if the \
        rows are meant to ship, check that nothing personal or secret is among them.
        """,
        area: .storage, severity: .warning, tags: ["security", "privacy", "masvs-storage-14"],
        references: ["https://mas.owasp.org/MASVS/controls/MASVS-STORAGE-2/", "https://www.sqlite.org/fileformat.html"],
        triggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>")],
                        binaryFixtures: ["Seed.sqlite↓": "stores/seed-users.sqlite"], kind: .app,
                        note: "A Core Data store whose ZUSER table has a row."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>")],
                        binaryFixtures: ["Data/accounts.db↓": "stores/seed-users.sqlite"], kind: .app,
                        note: "Any of .sqlite, .sqlite3, .db, .sqlitedb is read."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                            ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"], synchronizedFolders: ["App"]),
                         ]),
                         "App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>")],
                        binaryFixtures: ["App/Seed.sqlite↓": "stores/seed-users.sqlite"], kind: .project,
                        note: "A project: a file of the app's synchronized folder is copied into the bundle."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>")],
                        binaryFixtures: ["Catalog.sqlite": "stores/catalog.sqlite"], kind: .app,
                        note: "A product catalogue with rows and an empty users table."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>"),
                         "cache.db": "not a database"], kind: .app, note: "A file that is not SQLite is only listed by inspect."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                            ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"], synchronizedFolders: ["App"]),
                            ExampleTarget("AppTests", type: "bundle.unit-test", synchronizedFolders: ["AppTests"]),
                         ]),
                         "App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>")],
                        binaryFixtures: ["AppTests/Seed.sqlite": "stores/seed-users.sqlite", "Fixtures/users.db": "stores/seed-users.sqlite"],
                        kind: .project, note: "A project: databases of a test target's folder, or of no target, do not ship."),
        ])

    /// Words of a table name that mean accounts or credentials.
    static let userWords: Set<String> = ["user", "users", "account", "accounts", "credential", "credentials", "password", "passwords",
                                         "session", "sessions", "token", "tokens", "login", "logins", "member", "members", "customer", "customers"]

    /// `ZUSER` → [user], `tbl_user_accounts` → [tbl, user, accounts], `UserProfile` → [user, profile].
    static func words(of table: String) -> [String] {
        var name = table
        // Core Data prefixes entity tables with Z.
        if name.count > 1, name.first == "Z", name.dropFirst().allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "_" }) { name.removeFirst() }
        var out: [String] = [], current = ""
        var previousLower = false
        for ch in name {
            if !(ch.isLetter || ch.isNumber) {
                if !current.isEmpty { out.append(current.lowercased()) }
                current = ""; previousLower = false
                continue
            }
            if ch.isUppercase, previousLower, !current.isEmpty { out.append(current.lowercased()); current = "" }
            current.append(ch)
            previousLower = ch.isLowercase
        }
        if !current.isEmpty { out.append(current.lowercased()) }
        return out
    }

    public func check(_ context: RuleContext) -> [Finding] {
        context.evidence.shippedStores.compactMap { s in
            guard let schema = s.schema else { return nil }
            let tables = schema.tables.filter { t in t.populated && Self.words(of: t.name).contains { Self.userWords.contains($0) } }
            guard !tables.isEmpty else { return nil }
            let names = tables.map { t in t.rowsOnRootPage.map { "\(t.name) (\($0) row\($0 == 1 ? "" : "s"))" } ?? "\(t.name) (more than one page of rows)" }
            return finding("\(s.bundle ?? "The app") ships the SQLite database \(s.path) with rows in \(names.joined(separator: ", ")); anyone who downloads the app can read them",
                           bundle: s.bundle, at: FileLocation(path: s.path),
                           fix: "Ship the schema without user rows and load user data at run time, or check that the shipped rows hold nothing personal or secret.",
                           fingerprint: [s.path] + tables.map(\.name))
        }
    }
}
