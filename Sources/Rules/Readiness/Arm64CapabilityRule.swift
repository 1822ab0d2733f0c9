import Foundation
import Artifacts
import Formats

public struct Arm64CapabilityRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "arm64_capability_missing",
        name: "arm64-only app without the arm64 capability",
        summary: "A built app whose executable holds only 64-bit code supports iOS versions older than 11 but does not require arm64 in UIRequiredDeviceCapabilities.",
        rationale: """
        iOS 10 and earlier still ran on 32-bit devices. An app that supports them \
        (`MinimumOSVersion` below 11.0) but ships only an arm64 slice must keep those devices \
        from installing it by requiring `arm64` in `UIRequiredDeviceCapabilities`, or App \
        Store Connect rejects it (ITMS-90502 "Apps that only contain the arm64 slice must also \
        have 'arm64' in the list of UIRequiredDeviceCapabilities"). Old templates listed \
        `armv7` there instead. From iOS 11 on every device is 64-bit and the key is not needed.

        Fix: raise the deployment target to 11.0 or later (App Store Connect warns below 15.0, \
        see `minimum_os_version_too_low`), or replace `armv7` by `arm64` in the capabilities. \
        Built apps only: a project's architectures are decided when it is built.
        """,
        area: .binary, severity: .error, tags: ["app-store", "architectures"],
        references: ["https://developer.apple.com/documentation/bundleresources/information-property-list/uirequireddevicecapabilities"],
        itms: ["ITMS-90502"],
        triggering: [
            RuleExample(["Info.plist": plistXML("""
                         <key>CFBundleExecutable</key><string>Example</string>
                         <key>MinimumOSVersion</key><string>10.0</string>
                         <key>UIRequiredDeviceCapabilities</key>
                         ↓<array><string>armv7</string></array>
                         """)], binaryFixtures: ["Example": "App"], kind: .app),
            RuleExample(["Info.plist": plistXMLMarkingRoot("<key>CFBundleExecutable</key><string>Example</string>\n<key>MinimumOSVersion</key><string>9.0</string>")],
                        binaryFixtures: ["Example": "App"], kind: .app, note: "No capabilities at all."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("""
                         <key>CFBundleExecutable</key><string>Example</string>
                         <key>MinimumOSVersion</key><string>10.0</string>
                         <key>UIRequiredDeviceCapabilities</key><dict><key>arm64</key><true/></dict>
                         """)], binaryFixtures: ["Example": "App"], kind: .app),
            RuleExample(["Info.plist": plistXML("""
                         <key>CFBundleExecutable</key><string>Example</string>
                         <key>MinimumOSVersion</key><string>15.0</string>
                         <key>UIRequiredDeviceCapabilities</key><array><string>armv7</string></array>
                         """)], binaryFixtures: ["Example": "App"], kind: .app, note: "iOS 11 and later run on 64-bit devices only."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        guard Readiness.builtKinds.contains(context.product.kind) else { return [] }
        return context.product.bundles.compactMap { b in
            guard b.kind == .app || b.kind == .appClip, let minOS = b.infoValue("MinimumOSVersion")?.node.string,
                  Readiness.compareVersions(minOS, "11.0") == .orderedAscending,
                  let exe = b.binaries.first(where: { $0.path == b.executablePath }), let macho = exe.macho else { return nil }
            let device = macho.slices.filter(Readiness.isDeviceSlice).map(\.arch)
            guard !device.isEmpty, device.allSatisfy({ $0.hasPrefix("arm64") && $0 != "arm64_32" }) else { return nil }
            let caps = DeviceCapabilities.entries(b)
            if caps?.entries.contains(where: { ($0.name == "arm64" || $0.name == "arm64e") && $0.required }) == true { return nil }
            let at = caps.map { FileLocation(path: $0.value.location.path, position: $0.value.node.position ?? $0.value.location.position) } ?? AppTraits.infoLocation(b)
            return finding("\(b.name) contains only \(Set(device).sorted().joined(separator: ", ")) code and supports iOS \(minOS), but UIRequiredDeviceCapabilities does not require arm64 (ITMS-90502)",
                           bundle: b.name, at: at, key: "UIRequiredDeviceCapabilities",
                           fix: "Raise the deployment target to 11.0 or later, or require arm64 in UIRequiredDeviceCapabilities.",
                           fingerprint: ["arm64"])
        }
    }
}
