import Foundation
import Artifacts
import Evidence

public struct MissingPurposeStringRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "missing_purpose_string",
        name: "Protected resource used without a purpose string",
        summary: "A bundle's code uses a protected resource (camera, location, contacts, photos, …) but that bundle's Info.plist lacks the purpose string.",
        rationale: """
        iOS terminates an app the moment it asks for a protected resource without the matching \
        `NS…UsageDescription` key, and App Store Connect rejects the upload (ITMS-90683). Apple \
        judges each bundle on its own: an app extension that uses the camera needs the key in \
        the extension's Info.plist, not only the app's. Add the key with a sentence that says \
        why the feature needs the data. Code in embedded frameworks runs in the app, so it \
        counts for the app.
        """,
        area: .privacy, severity: .error, tags: ["privacy", "app-review"],
        references: ["ITMS-90683", "https://developer.apple.com/documentation/bundleresources/information_property_list/protected_resources"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Scanner.m": "#import <AVFoundation/AVFoundation.h>\n\nvoid startScanner(void) {\n    [AVCaptureDevice requestAccessForMediaType:AVMediaTypeVideo completionHandler:^(BOOL granted) {}];\n}\n"]),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>"),
                         "App/Scanner.m": "#import <AVFoundation/AVFoundation.h>\n\nvoid startScanner(void) {\n    [AVCaptureDevice requestAccessForMediaType:AVMediaTypeVideo completionHandler:^(BOOL granted) {}];\n}\n"]),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Scanner.m": "// [AVCaptureDevice requestAccessForMediaType:AVMediaTypeVideo completionHandler:nil];\n#if DEBUG\nvoid debugCamera(void) { [AVCaptureDevice requestAccessForMediaType:AVMediaTypeVideo completionHandler:nil]; }\n#endif\n"],
                        note: "Comments and code compiled only into debug builds are not shipping uses."),
        ])

    static let catalog = ProtectedResourceCatalog.standard
    static let hostKinds: Set<BundleKind> = [.app, .appExtension, .appClip, .watchApp]

    public func check(_ context: RuleContext) -> [Finding] {
        let product = context.product
        // Frameworks' and resource bundles' code runs in the bundle that embeds them.
        var host: [String: String] = [:]
        for b in product.bundles {
            var current = b
            while !Self.hostKinds.contains(current.kind), let p = current.parent, let parent = product.bundle(named: p) { current = parent }
            if Self.hostKinds.contains(current.kind) { host[b.name] = current.name }
        }
        var byHostAndKey: [String: [String: [Usage]]] = [:]
        for u in context.evidence.usages where u.ships && u.strength == .definite && !u.key.isEmpty {
            guard let h = host[u.bundle] else { continue }
            byHostAndKey[h, default: [:]][u.key, default: []].append(u)
        }
        var out: [Finding] = []
        for b in product.bundles where Self.hostKinds.contains(b.kind) {
            for (key, usages) in (byHostAndKey[b.name] ?? [:]).sorted(by: { $0.key < $1.key }) {
                guard b.infoValue(key) == nil else { continue }
                // Legacy keys matter only while the deployment target is below the version that
                // replaced them; when it is unknown, assume a current one.
                if let below = Self.catalog.resource(forKey: key)?.neededOnlyBelowIOS {
                    guard b.sourcePlatform ?? "iOS" == "iOS", let min = b.minimumOSVersion, min.first?.isNumber == true,
                          VersionOrder.compare(min, below) == .orderedAscending else { continue }
                }
                var seenLocations = Set<UsageLocation>()
                let sorted = usages.sorted { describe($0) < describe($1) }.filter { seenLocations.insert($0.location).inserted }
                // Binaries count wherever they are (App Store Connect checks every binary's
                // references); in sources, code outside the target's own folder — a shared
                // framework or a local package — may never run in this bundle.
                let direct = sorted.filter { isDirect($0, host: b) }
                let first = direct.first ?? sorted[0]
                let resource = Self.catalog.resource(forKey: key)?.resource ?? key
                let location = b.infoPlist.map { FileLocation(path: $0.path, position: $0.root?.position) } ?? FileLocation(path: b.path)
                var f = finding("\(b.name) uses \(resource.lowercased()) (\(describe(first))) but its Info.plist has no \(key); iOS terminates the app when it asks (ITMS-90683)",
                                bundle: b.name, at: location, key: key,
                                evidence: (direct + sorted.filter { !isDirect($0, host: b) }).prefix(5).map(evidenceRef),
                                fix: "Add \(key) to the Info.plist of \(b.name) with a sentence saying why the feature needs it.")
                if direct.isEmpty {
                    f.severity = .warning
                    let whose: String
                    if case .linked = first.origin { whose = "code it links but does not embed" } else { whose = "shared code outside the target's folder" }
                    f.message = "\(b.name) compiles code that uses \(resource.lowercased()) (\(describe(first)), \(whose)) but its Info.plist has no \(key); if this bundle can reach that code, iOS terminates it when it asks (ITMS-90683)"
                }
                out.append(f)
            }
        }
        return out
    }

    /// Whether the use is certainly in code this bundle ships (see the severity policy in the
    /// rationale): its binaries, its own sources in its folder, and the sources of frameworks it
    /// embeds. Code it links but does not embed, and its own sources outside its folder, may
    /// be unreachable or stripped by the linker.
    func isDirect(_ u: Usage, host: Artifacts.Bundle) -> Bool {
        switch u.location {
        case .binary: return true
        case .source(let path, _, _):
            switch u.origin {
            case .linked(_, _, let embedded): return embedded
            case .app, .sdk:
                // Own code of a framework bundle this one embeds ships inside it.
                if u.bundle != host.name { return true }
                return host.path.isEmpty || path.hasPrefix(host.path + "/")
            }
        }
    }

    func describe(_ u: Usage) -> String {
        let via: String
        if case .linked = u.origin { via = ", in \(u.origin.label)" } else { via = "" }
        switch u.location {
        case .source(let p, let l, _): return "\(u.api) at \(p):\(l)\(via)"
        case .binary(let p, _): return "\(u.api) in \(p)"
        }
    }

    func evidenceRef(_ u: Usage) -> EvidenceRef {
        switch u.location {
        case .source(let p, let l, _): return .file(path: p, line: l)
        case .binary(let p, let s): return .symbol(binary: p, symbol: s)
        }
    }
}

/// Numeric comparison of dotted versions ("15.0" < "15.10").
enum VersionOrder {
    static func compare(_ a: String, _ b: String) -> ComparisonResult {
        let x = a.split(separator: ".").map { Int($0) ?? 0 }, y = b.split(separator: ".").map { Int($0) ?? 0 }
        for i in 0..<max(x.count, y.count) {
            let p = i < x.count ? x[i] : 0, q = i < y.count ? y[i] : 0
            if p != q { return p < q ? .orderedAscending : .orderedDescending }
        }
        return .orderedSame
    }
}
