import Foundation
import Artifacts

public struct FrameworkMinimumOSRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "framework_minimum_os",
        name: "Framework requires a newer iOS than the app",
        summary: "An embedded framework's MinimumOSVersion (or deployment target) is higher than the app's, so the app would launch on systems where the framework cannot load.",
        rationale: """
        An app that supports iOS 14 but embeds a framework built for iOS 16 crashes at launch \
        on iOS 14 and 15: dyld refuses the framework. App Store Connect rejects such uploads \
        with ITMS-90208 ("The bundle … does not support the minimum OS Version specified in the \
        Info.plist"). Raise the app's deployment target, or use a build of the framework made \
        for the app's minimum.

        Built apps compare the Info.plist values; projects compare the deployment targets of \
        the targets that embed each other, as Xcode will write them.
        """,
        area: .bundle, severity: .error, tags: ["app-store", "versions"],
        references: ["https://developer.apple.com/documentation/bundleresources/information_property_list/minimumosversion"],
        itms: ["ITMS-90208"],
        triggering: [
            RuleExample(["Info.plist": plistXML("<key>MinimumOSVersion</key><string>14.0</string>"),
                         "Frameworks/Charts.framework/Info.plist": plistXML("↓<key>MinimumOSVersion</key><string>16.0</string>")],
                        kind: .app, note: "The framework needs iOS 16, the app starts on iOS 14."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                            ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist", "IPHONEOS_DEPLOYMENT_TARGET": "15.0"], embeds: ["Kit"]),
                            ExampleTarget("Kit", type: "framework", settings: ["INFOPLIST_FILE": "Kit/Info.plist", "↓IPHONEOS_DEPLOYMENT_TARGET": "17.0"]),
                         ]),
                         "App/Info.plist": plistXML("<key>CFBundleName</key><string>App</string>"),
                         "Kit/Info.plist": plistXML("<key>CFBundleName</key><string>Kit</string>")],
                        kind: .project, note: "A framework target with a higher deployment target than the app that embeds it."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("<key>MinimumOSVersion</key><string>16.0</string>"),
                         "Frameworks/Charts.framework/Info.plist": plistXML("<key>MinimumOSVersion</key><string>12.0</string>"),
                         "PlugIns/Widget.appex/Info.plist": plistXML("<key>MinimumOSVersion</key><string>17.0</string>")],
                        kind: .app, note: "Frameworks may support older systems; an extension may require a newer one (it is simply unavailable there)."),
            RuleExample(["Info.plist": plistXML("<key>MinimumOSVersion</key><string>16</string>"),
                         "Frameworks/Charts.framework/Info.plist": plistXML("<key>MinimumOSVersion</key><string>16.0.0</string>")],
                        kind: .app, note: "16 and 16.0.0 are the same version."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        for b in context.product.bundles where b.kind == .framework {
            // The host whose process loads the framework: the app, or an extension that embeds it.
            var host = context.product.parent(of: b)
            var seen: Set<String> = [b.id]
            while let h = host, h.kind == .framework || h.kind == .resourceBundle || h.kind == .other, seen.insert(h.id).inserted {
                host = context.product.parent(of: h)
            }
            guard let host, EmbeddingChains.hostKinds.contains(host.kind),
                  let mine = b.minimumOSVersion, let theirs = host.minimumOSVersion,
                  !Readiness.isUnresolved(mine), !Readiness.isUnresolved(theirs),
                  Readiness.compareVersions(mine, theirs) == .orderedDescending else { continue }
            out.append(finding("\(b.name) requires iOS \(mine) but \(host.name) supports iOS \(theirs) (ITMS-90208); the framework cannot load on the systems in between",
                               bundle: b.name, at: minimumLocation(b), key: "MinimumOSVersion",
                               fix: "Raise \(host.name)'s deployment target to \(mine), or build \(b.name) for iOS \(theirs).",
                               fingerprint: [mine, theirs]))
        }
        return out
    }

    /// Where the framework's minimum is written: the Info.plist key, else the deployment target setting.
    func minimumLocation(_ b: AppBundle) -> FileLocation? {
        if let v = b.infoValue("MinimumOSVersion") { return v.location }
        for s in ["IPHONEOS_DEPLOYMENT_TARGET", "WATCHOS_DEPLOYMENT_TARGET", "TVOS_DEPLOYMENT_TARGET", "XROS_DEPLOYMENT_TARGET"] {
            if let loc = b.buildSettings[s]?.location { return loc }
        }
        return Readiness.location(of: "MinimumOSVersion", in: b)
    }
}
