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
                        symlinks: ["Frameworks/libssl.dylib": "../../../../usr/lib/libssl.dylib"], kind: .app),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundlePackageType</key><string>APPL</string>")],
                        symlinks: ["Frameworks/libfoo.dylib": "libfoo.1.dylib"], kind: .app),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        context.product.problems.compactMap { p in
            guard case .symlinkOutsideTree(let target) = p.kind else { return nil }
            return finding("\(p.path) is a symbolic link to \(target), outside the scanned tree; it was not followed",
                           bundle: p.bundle, at: FileLocation(path: p.path), fingerprint: [p.path])
        }
    }
}
