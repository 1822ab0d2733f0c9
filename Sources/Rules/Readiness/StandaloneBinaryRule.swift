import Foundation
import Artifacts
import Formats

public struct StandaloneBinaryRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "standalone_binary",
        name: "Loose dynamic library in the app",
        summary: "A built app contains a .dylib that is not the executable of a bundle nor one of Xcode's Swift runtime libraries.",
        rationale: """
        iOS loads code only from the executables of bundles: the app, its extensions and its \
        frameworks. A dynamic library outside a framework bundle is not supported (Apple's \
        "Placing content in a bundle"), except the Swift runtime libraries Xcode copies into \
        `Frameworks/` for old deployment targets (`libswift*.dylib`), and App Store Connect \
        rejects the upload (ITMS-90171 "Invalid Bundle Structure - The binary file … is not \
        permitted. Your app can't contain standalone executables or libraries, other than a \
        valid CFBundleExecutable of supported bundles").

        Fix: wrap the library in a framework (an `.xcframework` of frameworks), or link it \
        statically. Built apps only; `.dylib` files are checked by name, so a loose executable \
        without an extension or a static archive is not found by this rule.
        """,
        area: .bundle, severity: .error, tags: ["app-store", "bundle-structure"],
        references: ["https://developer.apple.com/documentation/bundleresources/placing-content-in-a-bundle"],
        itms: ["ITMS-90171"],
        triggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>")],
                        binaryFixtures: ["Example": "App", "Frameworks/libcrypto.dylib↓": "MyKit.framework/MyKit"], kind: .app),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>"),
                         "Frameworks/Kit.framework/Info.plist": plistXML("<key>CFBundleExecutable</key><string>Kit</string>")],
                        binaryFixtures: ["Example": "App", "Frameworks/Kit.framework/Kit": "MyKit.framework/MyKit",
                                         "Frameworks/Kit.framework/libhelper.dylib↓": "MyKit.framework/MyKit"],
                        kind: .app, note: "A library beside a framework's executable."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>")],
                        binaryFixtures: ["Example": "App", "Frameworks/libswiftCore.dylib": "MyKit.framework/MyKit"],
                        kind: .app, note: "Xcode's Swift runtime for old deployment targets."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>"),
                         "Frameworks/Kit.framework/Info.plist": plistXML("<key>CFBundleExecutable</key><string>Kit</string>")],
                        binaryFixtures: ["Example": "App", "Frameworks/Kit.framework/Kit": "MyKit.framework/MyKit"], kind: .app),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        guard Readiness.builtKinds.contains(context.product.kind) else { return [] }
        var out: [Finding] = []
        for b in context.product.bundles where b.kind.ships {
            for path in b.binaryPaths where path != b.executablePath && PathUtil.pathExtension(path) == "dylib" {
                let name = PathUtil.lastComponent(path)
                if name.hasPrefix("libswift"), PathUtil.lastComponent(PathUtil.parent(path)) == "Frameworks" { continue }
                out.append(finding("\(path) is a standalone dynamic library; iOS apps may only contain the executables of bundles (ITMS-90171)",
                                   bundle: b.name, at: FileLocation(path: path),
                                   fix: "Ship \(name) inside a framework bundle, or link it statically.", fingerprint: [name]))
            }
        }
        return out
    }
}
