/// Credentials written to a log (issue 12, MASVS-STORAGE-2): a value whose name says it is a
/// secret (`SecretNames`) passed to a logging call that keeps it readable. Key: the value's name.
extension ProtectedResourceCatalog.Security {
    /// Written to the unified system log unredacted: `NSLog`, `os_log` with a `%{public}`
    /// specifier (or a scalar one), `Logger` with `privacy: .public`. It persists on the device
    /// and a connected Mac or a sysdiagnose reads it.
    public static let credentialSystemLog = "security.logging.system_log"
    /// Written to standard output or standard error: `print`, `debugPrint`, `dump`, `printf`,
    /// `fprintf(stderr, …)`. On a device that reaches no log unless the app redirects it.
    public static let credentialStandardOutput = "security.logging.standard_output"

    static let loggingPage = "https://developer.apple.com/documentation/os/generating-log-messages-from-your-code"
}
