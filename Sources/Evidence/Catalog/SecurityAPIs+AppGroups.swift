extension ProtectedResourceCatalog.Security {
    /// An app group a call names: `UserDefaults(suiteName: "group.x")`,
    /// `containerURL(forSecurityApplicationGroupIdentifier: "group.x")` and their Objective-C
    /// forms, with a literal or a file-local string constant. Key: the group (`group.` form only:
    /// on iOS every app group identifier starts with it, and a suite of another name is a
    /// private preferences domain, not a group).
    public static let appGroup = "security.app_group"

    /// Whether a suite name or container identifier is written as an iOS app group.
    public static func isAppGroupIdentifier(_ value: String) -> Bool {
        value.hasPrefix("group.") && value.count > 6 && !value.contains("\\(") && !value.contains(" ")
    }
}
