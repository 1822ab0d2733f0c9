import Foundation
import Artifacts

public struct NestedFrameworksRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "nested_frameworks",
        name: "Frameworks inside an extension or framework",
        summary: "An app extension or framework of a built app contains its own `Frameworks` folder (whatever it holds) or nested bundles.",
        rationale: """
        Only the app (and a watch app or App Clip) may embed frameworks. App Store Connect \
        rejects an upload whose extensions or frameworks contain a `Frameworks` folder \
        (ITMS-90206 "Invalid Bundle. The bundle at … contains disallowed file 'Frameworks'") or \
        nested bundles (ITMS-90205). It happens when an extension target embeds a framework \
        ("Embed & Sign" on the extension) or when Swift libraries are copied into a framework \
        (`ALWAYS_EMBED_SWIFT_STANDARD_LIBRARIES = YES` on a framework or extension target). \
        Embed the frameworks in the app only, link them from the extension, and turn that \
        setting off for non-app targets.
        """,
        area: .bundle, severity: .error, tags: ["app-store", "structure"],
        references: ["https://developer.apple.com/documentation/xcode/embedding-frameworks-in-an-app"],
        itms: ["ITMS-90205", "ITMS-90206"],
        triggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>"),
                         "PlugIns/Share.appex/Info.plist": plistXML("<key>CFBundleExecutable</key><string>Share</string>"),
                         "PlugIns/Share.appex/Frameworks/Kit.framework↓/Info.plist": plistXML("<key>CFBundleExecutable</key><string>Kit</string>")],
                        kind: .app, note: "The share extension embeds a framework of its own."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>"),
                         "Frameworks/Kit.framework/Info.plist": plistXML("<key>CFBundleExecutable</key><string>Kit</string>")],
                        binaryFixtures: ["Frameworks/Kit.framework/Frameworks/libswiftCore.dylib↓": "MyKit.framework/MyKit"],
                        kind: .app, note: "Swift libraries copied into a framework."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>"),
                         "PlugIns/Share.appex/Info.plist": plistXML("<key>CFBundleExecutable</key><string>Share</string>"),
                         "PlugIns/Share.appex/Frameworks↓/Kit.h": "// a header left behind"],
                        kind: .app, note: "A Frameworks folder with no framework in it is refused too."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>"),
                         "Frameworks/Kit.framework/Info.plist": plistXML("<key>CFBundleExecutable</key><string>Kit</string>"),
                         "Frameworks/Kit.framework/Kit.bundle/Info.plist": plistXML("<key>CFBundleName</key><string>Kit</string>"),
                         "PlugIns/Share.appex/Info.plist": plistXML("<key>CFBundleExecutable</key><string>Share</string>")],
                        kind: .app, note: "Resource bundles inside a framework are allowed."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>"),
                         "Watch/Watch.app/Info.plist": plistXML("<key>CFBundleExecutable</key><string>Watch</string>"),
                         "Watch/Watch.app/Frameworks/Kit.framework/Info.plist": plistXML("<key>CFBundleExecutable</key><string>Kit</string>")],
                        kind: .app, note: "A watch app embeds its own frameworks."),
        ])

    static let containers: Set<BundleKind> = [.appExtension, .framework]
    static let codeBundles: Set<BundleKind> = [.app, .appExtension, .appClip, .watchApp, .framework]

    public func check(_ context: RuleContext) -> [Finding] {
        guard Readiness.builtKinds.contains(context.product.kind) else { return [] }
        var out: [Finding] = []
        for b in context.product.bundles where Self.containers.contains(b.kind) {
            let frameworksFolder = (b.path.isEmpty ? "" : b.path + "/") + "Frameworks/"
            for child in context.product.bundles where child.parentID == b.id && Self.codeBundles.contains(child.kind) {
                let inFrameworks = child.path.hasPrefix(frameworksFolder)
                out.append(finding("\(b.name) contains \(child.name)\(inFrameworks ? " in a Frameworks folder" : ""): only the app may embed frameworks and other code bundles (\(inFrameworks ? "ITMS-90206" : "ITMS-90205"))",
                                   bundle: b.name, at: FileLocation(path: child.path),
                                   fix: "Embed \(child.name) in the app only and link it from \(b.name) (set its embedding to \"Do Not Embed\" in the \(b.name) target).",
                                   fingerprint: [child.name]))
            }
            var reportedFolder = out.contains { $0.bundle == b.name && ($0.file ?? "").hasPrefix(frameworksFolder) }
            for path in b.binaryPaths where path.hasPrefix(frameworksFolder) {
                reportedFolder = true
                out.append(finding("\(b.name) contains \(path): a Frameworks folder is not allowed in an extension or framework (ITMS-90206)",
                                   bundle: b.name, at: FileLocation(path: path),
                                   fix: "Set ALWAYS_EMBED_SWIFT_STANDARD_LIBRARIES = NO for the \(b.name) target and embed libraries in the app only.",
                                   fingerprint: [PathUtil.lastComponent(path)]))
            }
            // The folder itself is refused, whatever it holds (an empty one, headers, resources).
            let folder = String(frameworksFolder.dropLast())
            if !reportedFolder, let index = context.product.resources?.index, index.entry(folder) != nil {
                let held = index.files(under: folder).filter { $0.kind != .directory }.count
                out.append(finding("\(b.name) contains a Frameworks folder (\(held == 0 ? "empty" : held == 1 ? "1 file" : "\(held) files")): App Store Connect rejects a Frameworks folder in an extension or framework, whatever it holds (ITMS-90206)",
                                   bundle: b.name, at: FileLocation(path: folder),
                                   fix: "Remove the Frameworks folder from \(b.name): embed frameworks in the app only, and check the build phases of the \(b.name) target that copy files into it.",
                                   fingerprint: ["folder"]))
            }
        }
        return out
    }
}
