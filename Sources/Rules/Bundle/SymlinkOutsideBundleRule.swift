import Foundation
import Artifacts

public struct SymlinkOutsideBundleRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "symlink_outside_bundle",
        name: "Symbolic link out of the app",
        summary: "A symbolic link in the app or archive points outside it.",
        rationale: """
        A link that leaves the bundle either dangles on the device or, in an archive, is an \
        attempt to make an unpacking tool write or read outside its folder. Preflight never \
        follows it. Replace the link with the file it should contain.
        """,
        area: .bundle, severity: .error, tags: ["security"],
        triggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundlePackageType</key><string>APPL</string>")],
                        symlinks: ["Frameworks/libssl.dylib↓": "../../../../usr/lib/libssl.dylib"], kind: .app),
            RuleExample(["Info.plist": plistXML("<key>CFBundlePackageType</key><string>APPL</string>")],
                        symlinks: ["GoogleService-Info.plist↓": "/Users/ci/secrets/GoogleService-Info.plist"], kind: .app,
                        note: "An absolute link, as a build script that links a secret into the app instead of copying it leaves behind."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundlePackageType</key><string>APPL</string>")],
                        symlinks: ["Frameworks/libfoo.dylib": "libfoo.1.dylib"], kind: .app),
            RuleExample(["Info.plist": plistXML("<key>CFBundlePackageType</key><string>APPL</string>"),
                         "Frameworks/MyKit.framework/Versions/A/MyKit": "binary",
                         "Frameworks/MyKit.framework/Versions/A/Resources/Info.plist": plistXML("<key>CFBundleExecutable</key><string>MyKit</string>")],
                        symlinks: ["Frameworks/MyKit.framework/Versions/Current": "A",
                                   "Frameworks/MyKit.framework/MyKit": "Versions/Current/MyKit",
                                   "Frameworks/MyKit.framework/Resources": "Versions/Current/Resources"], kind: .app,
                        note: "A versioned framework (Mac Catalyst) links to its own current version: every link stays inside the app."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        context.product.problems.compactMap { p in
            guard case .symlinkOutsideTree(let target) = p.kind else { return nil }
            return finding("\(p.path) is a symbolic link to \(target), outside the scanned tree; it was not followed",
                           bundle: p.bundle, at: FileLocation(path: p.path), fingerprint: [p.path])
        }
    }
}
