import Foundation
import Artifacts

public struct InvalidBundleVersionRule: Rule {
    public init() {}

    static let keys = ["CFBundleShortVersionString", "CFBundleVersion"]

    public static let description = RuleDescription(
        identifier: "invalid_bundle_version",
        name: "Missing or malformed bundle version",
        summary: "An app, extension or framework has no CFBundleShortVersionString or CFBundleVersion, or one that is not up to three period-separated integers.",
        rationale: """
        App Store Connect checks both version keys of every bundle in the upload, embedded \
        frameworks included, and rejects the build when one is missing or empty (ITMS-90057 for \
        `CFBundleShortVersionString`, ITMS-90056 for `CFBundleVersion`) or is not a \
        period-separated list of at most three non-negative integers (ITMS-90060: `5.0.0-beta1`, \
        `7.1.2.1`, `1.0 `). `CFBundleVersion` must be period-separated integers too (`42`, \
        `2024.05.17`; Apple documents at most three, but uploads with four, such as Automattic's \
        `4.54.0.1`, are accepted, so only its characters are checked). Vendored frameworks are \
        the usual culprits: fix their Info.plist, or ask the vendor for a fixed build.

        In projects the values are read as Xcode will write them: `$(MARKETING_VERSION)` and \
        `$(CURRENT_PROJECT_VERSION)` are expanded from the target's build settings. A value that \
        still names a setting Preflight could not resolve (set on the command line or by a CI \
        script) is never reported, and neither is a key missing from a project target: a build \
        script may still add it. Built apps are checked for both.
        """,
        area: .bundle, severity: .error, tags: ["app-store", "versions"],
        references: ["https://developer.apple.com/documentation/bundleresources/information_property_list/cfbundleshortversionstring",
                     "https://developer.apple.com/documentation/bundleresources/information_property_list/cfbundleversion"],
        itms: ["ITMS-90056", "ITMS-90057", "ITMS-90060"],
        triggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>\n↓<key>CFBundleShortVersionString</key><string>2.1.0-beta1</string>\n<key>CFBundleVersion</key><string>42</string>")],
                        kind: .app, note: "A pre-release suffix is not allowed (ITMS-90060)."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleShortVersionString</key><string>2.1</string>\n<key>CFBundleVersion</key><string>42</string>"),
                         "Frameworks/Vendor.framework/Info.plist": plistXMLMarkingRoot("<key>CFBundleShortVersionString</key><string>1.0</string>\n<key>CFBundlePackageType</key><string>FMWK</string>")],
                        kind: .app, note: "A vendored framework without CFBundleVersion (ITMS-90056)."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleShortVersionString</key><string>2.1</string>\n↓<key>CFBundleVersion</key><string>2.1-rc3</string>")],
                        kind: .app, note: "A build number with letters."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist", "↓MARKETING_VERSION": "1.0 beta"])]),
                         "App/Info.plist": plistXML("<key>CFBundleShortVersionString</key><string>$(MARKETING_VERSION)</string>\n<key>CFBundleVersion</key><string>1</string>")],
                        kind: .project, note: "In a project the setting that makes the value is reported."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleShortVersionString</key><string>2.1.0</string>\n<key>CFBundleVersion</key><string>2024.05.17</string>"),
                         "Frameworks/Vendor.framework/Info.plist": plistXML("<key>CFBundleShortVersionString</key><string>5.0</string>\n<key>CFBundleVersion</key><string>1</string>"),
                         "Kit.bundle/Info.plist": plistXML("<key>CFBundleName</key><string>Kit</string>")],
                        kind: .app, note: "Resource bundles are not checked."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"])]),
                         "App/Info.plist": plistXML("<key>CFBundleShortVersionString</key><string>$(MARKETING_VERSION)</string>\n<key>CFBundleVersion</key><string>$(BUILD_NUMBER)</string>")],
                        kind: .project, note: "Settings Preflight cannot resolve (set by CI) are unknown, not wrong."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleShortVersionString</key><string>4.54</string>\n<key>CFBundleVersion</key><string>4.54.0.1</string>")],
                        kind: .app, note: "A four-part build number is accepted in practice (Simplenote)."),
            RuleExample(["Tool.xcodeproj/project.pbxproj": exampleProject(targets: [ExampleTarget("Tool", settings: ["INFOPLIST_FILE": "Tool/Info.plist", "SDKROOT": "macosx"])]),
                         "Tool/Info.plist": plistXML("<key>CFBundleName</key><string>Tool</string>")],
                        kind: .project, note: "A project target without version keys: a script may add them, and a developer tool is never uploaded (ugglan's Codegen)."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        let built = Readiness.builtKinds.contains(context.product.kind)
        var out: [Finding] = []
        for b in context.product.bundles where Readiness.validatedKinds.contains(b.kind) {
            // A bundle with no readable Info.plist is reported by missing/malformed_info_plist.
            guard Readiness.hasReadableInfoPlist(b) || !b.generatedInfoPlistKeys.isEmpty else { continue }
            for key in Self.keys {
                let short = key == "CFBundleShortVersionString"
                guard let raw = b.infoValue(key) else {
                    // Projects and folders: a build script, a CI setting or a generated Info.plist
                    // may still add the key (and a macOS tool target is never uploaded).
                    guard built else { continue }
                    let f = finding("\(b.name) has no \(key) (\(short ? "ITMS-90057" : "ITMS-90056")); App Store Connect rejects every bundle without it",
                                    bundle: b.name, at: Readiness.location(of: key, in: b), key: key,
                                    fix: "Add \(key) (\(short ? "the marketing version, e.g. 1.2.0" : "the build number, e.g. 42")) to \(b.name)'s Info.plist.",
                                    fingerprint: [key, "missing"])
                    out.append(f)
                    continue
                }
                guard let written = raw.node.string else {
                    out.append(finding("\(key) of \(b.name) is a \(raw.node.value.typeName), not a string", bundle: b.name,
                                       at: raw.location, key: key, fingerprint: [key, "type"]))
                    continue
                }
                let value = b.expandingBuildSettings(in: written)
                if Readiness.isUnresolved(value) { continue }
                // Where the value comes from: the setting `$(MARKETING_VERSION)` names, in projects.
                var location = raw.location
                if written.contains("$"), let setting = Self.settingName(written), let loc = b.buildSettings[setting]?.location { location = loc }
                if value.trimmingCharacters(in: .whitespaces).isEmpty {
                    var f = finding("\(key) of \(b.name) is empty (\(short ? "ITMS-90057" : "ITMS-90056"))", bundle: b.name, at: location, key: key,
                                    fingerprint: [key, "empty"])
                    if !built && written.contains("$") { f.severity = .warning }
                    out.append(f)
                } else if short ? !Readiness.isWellFormedVersion(value) : !Self.isNumericBuild(value) {
                    out.append(finding("\(key) of \(b.name) is \"\(value)\": App Store Connect accepts only \(short ? "up to three period-separated non-negative integers such as 1.2.3 (ITMS-90060)" : "period-separated non-negative integers such as 42 or 1.2.3")",
                                       bundle: b.name, at: location, key: key,
                                       fix: "Use a value such as \(short ? "2.1.0" : "42 or 2.1.0"); keep pre-release labels out of the version.",
                                       fingerprint: [key, value]))
                }
            }
        }
        return out
    }

    /// `CFBundleVersion`: period-separated non-negative integers. Apple documents at most three,
    /// but App Store Connect accepts four (Automattic's apps ship `4.54.0.1`), so only the
    /// characters are checked.
    static func isNumericBuild(_ s: String) -> Bool {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        return !parts.isEmpty && parts.allSatisfy { p in !p.isEmpty && p.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
    }

    /// `MARKETING_VERSION` for a value that is exactly `$(MARKETING_VERSION)` or `${…}`.
    static func settingName(_ s: String) -> String? {
        let t = s.trimmingCharacters(in: .whitespaces)
        guard t.count > 3, t.hasPrefix("$(") && t.hasSuffix(")") || t.hasPrefix("${") && t.hasSuffix("}") else { return nil }
        let name = t.dropFirst(2).dropLast()
        return name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } ? String(name) : nil
    }
}
