import Foundation
import Artifacts
import Formats

public struct BinaryMinimumOSRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "binary_minimum_os",
        name: "Binary built for a newer iOS than its Info.plist says",
        summary: "A bundle's executable was linked for a newer iOS (LC_BUILD_VERSION / LC_VERSION_MIN minos) than the MinimumOSVersion of its Info.plist.",
        rationale: """
        The `MinimumOSVersion` of a bundle promises the systems it runs on; the linker writes \
        the real floor into the binary (`minos` of `LC_BUILD_VERSION`, or `LC_VERSION_MIN_IPHONEOS` \
        in older binaries). When the binary's floor is higher, the App Store offers the app to \
        devices that cannot load it, and App Store Connect rejects embedded frameworks that do \
        this with ITMS-90208 ("does not support the minimum OS Version specified in the \
        Info.plist"). It happens when a framework is rebuilt with a new deployment target but \
        its hand-written Info.plist is not updated, or the reverse. Make both say the same.

        Only built apps are checked; simulator and Mac slices are left to \
        `unsupported_architectures`.
        """,
        area: .binary, severity: .error, tags: ["app-store", "versions"],
        references: ["https://developer.apple.com/documentation/bundleresources/information_property_list/minimumosversion"],
        itms: ["ITMS-90208"],
        triggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>\n<key>MinimumOSVersion</key><string>15.0</string>"),
                         "Frameworks/MyKit.framework/Info.plist": plistXML("<key>CFBundleExecutable</key><string>MyKit</string>\n↓<key>MinimumOSVersion</key><string>13.0</string>")],
                        binaryFixtures: ["Example": "App", "Frameworks/MyKit.framework/MyKit": "MyKit.framework/MyKit"],
                        kind: .app, note: "MyKit was linked for iOS 15.0 but its Info.plist claims 13.0."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>\n↓<key>MinimumOSVersion</key><string>14.0</string>")],
                        binaryFixtures: ["Example": "App"], kind: .app,
                        note: "The app itself: linked for iOS 15.0, offered to iOS 14 devices."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>\n<key>MinimumOSVersion</key><string>15.0</string>"),
                         "Frameworks/MyKit.framework/Info.plist": plistXML("<key>CFBundleExecutable</key><string>MyKit</string>\n<key>MinimumOSVersion</key><string>15.0</string>")],
                        binaryFixtures: ["Example": "App", "Frameworks/MyKit.framework/MyKit": "MyKit.framework/MyKit"], kind: .app),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>\n<key>MinimumOSVersion</key><string>16.0</string>")],
                        binaryFixtures: ["Example": "App"], kind: .app,
                        note: "A binary that runs on older systems than the bundle promises is fine."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        guard Readiness.builtKinds.contains(context.product.kind) else { return [] }
        var out: [Finding] = []
        for b in context.product.bundles where Readiness.validatedKinds.contains(b.kind) {
            guard let declared = b.infoValue("MinimumOSVersion"), let plistMin = declared.node.string,
                  let exe = b.binaries.first(where: { $0.path == b.executablePath }), let macho = exe.macho else { continue }
            let device = macho.slices.filter { $0.platform == "iOS" }
            guard let newest = device.compactMap(\.minOS).max(by: { Readiness.compareVersions($0, $1) == .orderedAscending }),
                  Readiness.compareVersions(newest, plistMin) == .orderedDescending else { continue }
            out.append(finding("\(exe.path) was linked for iOS \(newest) but \(b.name)'s Info.plist says MinimumOSVersion \(plistMin)\(b.kind == .framework ? " (ITMS-90208)" : ""); devices between the two cannot load it",
                               bundle: b.name, at: declared.location, key: "MinimumOSVersion",
                               fix: "Set MinimumOSVersion to \(newest), or relink \(PathUtil.lastComponent(exe.path)) with a deployment target of \(plistMin).",
                               fingerprint: [newest, plistMin]))
        }
        return out
    }
}
