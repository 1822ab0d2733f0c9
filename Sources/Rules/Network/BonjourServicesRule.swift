import Foundation
import Artifacts
import Evidence
import Formats

public struct BonjourServicesRule: Rule {
    public init() {}

    static let key = "NSBonjourServices"
    /// APIs that browse for Bonjour services: on iOS 14+ they find only the types the bundle's
    /// `NSBonjourServices` lists (catalog: `NSLocalNetworkUsageDescription`'s triggers).
    static let browsers = ["NetServiceBrowser", "NWBrowser", "DNSServiceBrowse", "nw_browser_create", "MCNearbyServiceBrowser",
                           "MCBrowserViewController"]

    public static let description = RuleDescription(
        identifier: "bonjour_services",
        name: "Bonjour service types not declared",
        summary: "Code browses for Bonjour services that NSBonjourServices does not list, or an NSBonjourServices entry is not a service type.",
        rationale: """
        Since iOS 14, local network privacy lets an app browse only for the Bonjour service \
        types its Info.plist lists in `NSBonjourServices` (each `_name._tcp` or `_name._udp`); \
        a browse for any other type fails — `NetServiceBrowser` reports error −72008, \
        `NWBrowser` and `DNSServiceBrowse` a `NoAuth` (−65555) error — and the user sees no \
        device. `NSLocalNetworkUsageDescription`, which the same browse needs, is \
        `missing_purpose_string`'s.

        - **warning**: a bundle whose own code or binary browses (`NetServiceBrowser`, \
        `NWBrowser`, `DNSServiceBrowse`, `nw_browser_create`, `MCNearbyServiceBrowser`) and \
        whose Info.plist has no `NSBonjourServices`; a service type its code names as a whole \
        string (`"_printer._tcp"`) that a browsing bundle's `NSBonjourServices` does not list; an \
        entry that is not a service type (no leading underscores, a protocol other than \
        `_tcp`/`_udp`, a name longer than 15 characters or with other characters than letters, \
        digits and hyphens): it matches nothing.
        - Not reported: service types in a bundle that never browses (advertising with \
        `NetService`/`NWListener` alone is not limited by the list), code of test targets and \
        `#if DEBUG` branches, and service types built at run time.

        Fix: list every type the code browses for, e.g. `_ipp._tcp`; for MultipeerConnectivity \
        list `_<serviceType>._tcp` and `_<serviceType>._udp`.
        """,
        area: .network, severity: .warning, tags: ["local-network", "privacy"],
        references: [
            "https://developer.apple.com/documentation/bundleresources/information-property-list/nsbonjourservices",
            "https://developer.apple.com/documentation/technotes/tn3179-understanding-local-network-privacy",
        ],
        triggering: [
            RuleExample(["App/Info.plist": plistXMLMarkingRoot("""
                         <key>CFBundleIdentifier</key><string>com.example.app</string>
                         <key>NSLocalNetworkUsageDescription</key><string>Finds printers on your Wi-Fi network.</string>
                         """),
                         "App/Printers.swift": """
                         import Network

                         let browser = NWBrowser(for: .bonjour(type: "_ipp._tcp", domain: nil), using: .tcp)
                         """],
                        note: "NWBrowser without NSBonjourServices: on iOS 14 and later the browse fails."),
            RuleExample(["App/Info.plist": plistXML("""
                         <key>CFBundleIdentifier</key><string>com.example.app</string>
                         <key>NSLocalNetworkUsageDescription</key><string>Finds speakers on your Wi-Fi network.</string>
                         <key>NSBonjourServices</key>
                         <array>
                         \t<string>_speaker._tcp</string>
                         \t↓<string>speaker.tcp</string>
                         \t↓<string>_airplay._http</string>
                         </array>
                         """),
                         "App/Speakers.swift": """
                         import Foundation

                         let browser = NetServiceBrowser()
                         func start() {
                             browser.searchForServices(ofType: "_speaker._tcp.", inDomain: "local.")
                             browser.searchForServices(ofType: "↓_raop._tcp", inDomain: "local.")
                         }
                         """],
                        note: "Two entries that are not service types, and a browsed type the list does not name."),
            RuleExample(["App/Info.plist": plistXML("""
                         <key>CFBundleIdentifier</key><string>com.example.app</string>
                         <key>NSLocalNetworkUsageDescription</key><string>Finds the camera rig on your network.</string>
                         <key>NSBonjourServices</key>
                         <array>
                         \t↓<string>_example-camera-rig._tcp</string>
                         </array>
                         """),
                         "App/Rig.swift": """
                         import Network

                         let browser = NWBrowser(for: .bonjour(type: "_example-camera-rig._tcp", domain: nil), using: .tcp)
                         """],
                        note: "A type longer than 15 characters that the code browses for exactly: the entry matches (only a note on its length)."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("""
                         <key>CFBundleIdentifier</key><string>com.example.app</string>
                         <key>NSLocalNetworkUsageDescription</key><string>Finds printers on your Wi-Fi network.</string>
                         <key>NSBonjourServices</key>
                         <array>
                         \t<string>_ipp._tcp</string>
                         \t<string>_printer-status._udp</string>
                         \t<string>_googlecast._tcp</string>
                         \t<string>_F007D354._googlecast._tcp</string>
                         </array>
                         """),
                         "App/Printers.swift": """
                         import Network

                         let browser = NWBrowser(for: .bonjour(type: "_ipp._tcp", domain: nil), using: .tcp)
                         let status = "_printer-status._udp."
                         """],
                        note: "Every browsed type is listed; a trailing dot is the same type; a subtype entry (Google Cast's `_<app id>._googlecast._tcp`) is well formed."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Server.swift": """
                         import Network

                         let listener = try NWListener(using: .tcp)
                         func advertise() { listener.service = NWListener.Service(name: "Chat", type: "_chat._tcp") }
                         #if DEBUG
                         let debugBrowser = NWBrowser(for: .bonjour(type: "_debug._tcp", domain: nil), using: .tcp)
                         #endif
                         """],
                        note: "Advertising alone is not limited by the list; a browser in a debug branch does not ship."),
        ])

    /// Whether an usage is a Bonjour browse.
    static func isBrowse(_ u: Usage) -> Bool {
        u.capability == "local_network" && u.strength == .definite && browsers.contains { u.api.contains($0) }
    }

    /// A browse in code this bundle certainly runs: its binaries, or its own sources.
    static func isOwn(_ u: Usage, _ bundle: AppBundle) -> Bool {
        u.origin == .app && isOwn(u.location, u.bundle, bundle)
    }

    static func isOwn(_ location: UsageLocation, _ owner: String, _ bundle: AppBundle) -> Bool {
        if case .binary = location { return true }
        return owner == bundle.name
    }

    /// What is wrong with an `NSBonjourServices` entry; nil when it is a service type.
    static func problem(_ entry: String) -> String? {
        if entry.contains("$(") || entry.contains("${") { return nil }
        if BonjourServiceTypeScanner.serviceType(Substring(entry)) != nil { return nil }
        var s = Substring(entry)
        if s.hasSuffix(".") { s = s.dropLast() }
        let labels = s.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return "it is not `_name._tcp` or `_name._udp`" }
        let proto = labels[labels.count - 1].lowercased()
        guard proto == "_tcp" || proto == "_udp" else { return "the protocol '\(labels[labels.count - 1])' is neither `_tcp` nor `_udp`" }
        let name = labels[labels.count - 2]
        guard BonjourServiceTypeScanner.isServiceName(name) else {
            return "the service name '\(name)' is not `_` and 1–15 letters, digits or hyphens"
        }
        return "only a subtype (`_sub._name._tcp`) may come before the service name"
    }

    public func check(_ context: RuleContext) -> [Finding] {
        let chains = EmbeddingChains(context.product)
        var browses: [String: [Usage]] = [:]
        for u in context.shippingUsages where Self.isBrowse(u) {
            guard let host = chains.host(of: u.bundle), Self.isOwn(u, host) else { continue }
            browses[host.id, default: []].append(u)
        }
        var out: [Finding] = []
        for b in context.product.bundles where EmbeddingChains.hostKinds.contains(b.kind) {
            let value = b.infoValue(Self.key)
            // Types the bundle's own code names, as written (long names included).
            let named = Set(context.evidence.bonjourServiceTypes.filter { t in
                t.ships && t.origin == .app && chains.host(of: t.bundle)?.id == b.id && Self.isOwn(t.location, t.bundle, b)
            }.map { $0.type.lowercased() })
            var listed: Set<String> = []
            if let value {
                if let items = value.node.array {
                    for item in items.prefix(1_000) {
                        let place = FileLocation(path: value.location.path, position: item.position ?? value.location.position)
                        guard let s = item.string else {
                            out.append(finding("\(b.name): an entry of NSBonjourServices is a \(item.value.typeName), not a service type string",
                                               bundle: b.name, at: place, key: Self.key, fix: "Write each entry as _name._tcp or _name._udp."))
                            continue
                        }
                        let long = BonjourServiceTypeScanner.serviceType(Substring(s), maxNameLength: BonjourServiceTypeScanner.longNameLimit)
                        if Self.problem(s) != nil, let long, named.contains(long.lowercased()) {
                            // Judged as the code uses it: the entry matches the browse; only the length is off.
                            listed.insert(long.lowercased())
                            var f = finding("\(b.name): the NSBonjourServices entry '\(s)' has a service name longer than the 15 characters DNS-SD allows (RFC 6335); the code names exactly this type, so the entry matches its browse, but a responder that enforces the limit will not register or answer it",
                                            bundle: b.name, at: place, key: Self.key,
                                            fix: "Shorten the service name to 15 characters or fewer, in the code, the list and the devices that advertise it.",
                                            fingerprint: [s, "long"])
                            f.severity = .note
                            out.append(f)
                        } else if let reason = Self.problem(s) {
                            out.append(finding("\(b.name): the NSBonjourServices entry '\(s)' is not a Bonjour service type: \(reason); it matches no browse",
                                               bundle: b.name, at: place, key: Self.key, fix: "Write the type as _name._tcp or _name._udp, e.g. _ipp._tcp.",
                                               fingerprint: [s]))
                        } else if let type = BonjourServiceTypeScanner.serviceType(Substring(s)) {
                            listed.insert(type.lowercased())
                        }
                    }
                } else {
                    out.append(finding("\(b.name): NSBonjourServices is a \(value.node.value.typeName), not an array of service types",
                                       bundle: b.name, at: value.location, key: Self.key, fix: "Make NSBonjourServices an array of strings such as _ipp._tcp."))
                }
            }
            guard let uses = browses[b.id], let first = uses.first else { continue }
            guard value != nil else {
                let location = b.infoPlist.map { FileLocation(path: $0.path, position: $0.root?.position) } ?? FileLocation(path: b.path)
                out.append(finding("\(b.name) browses for Bonjour services (\(Self.describe(first))) but its Info.plist has no NSBonjourServices: on iOS 14 and later the browse finds nothing and fails (NetService error -72008, NoAuth -65555)",
                                   bundle: b.name, at: location, key: Self.key, evidence: uses.prefix(5).map(Self.evidence),
                                   fix: "Add NSBonjourServices to the Info.plist of \(b.name) with every service type the code browses for, e.g. _ipp._tcp."))
                continue
            }
            guard value?.node.array != nil else { continue }
            var reported = Set<String>()
            for t in context.evidence.bonjourServiceTypes where t.ships && t.origin == .app && chains.host(of: t.bundle)?.id == b.id
                && Self.isOwn(t.location, t.bundle, b) {
                let lower = t.type.lowercased()
                guard !listed.contains(lower), reported.insert(lower).inserted else { continue }
                let place: FileLocation
                let ref: EvidenceRef
                switch t.location {
                case .source(let path, let line, let column):
                    place = FileLocation(path: path, position: SourcePosition(line: line, column: column))
                    ref = .file(path: path, line: line)
                case .binary(let path, let symbol):
                    place = FileLocation(path: path)
                    ref = .symbol(binary: path, symbol: symbol)
                }
                out.append(finding("\(b.name) names the Bonjour service type \(t.type) and browses for services, but its NSBonjourServices does not list \(t.type): on iOS 14 and later a browse for it fails",
                                   bundle: b.name, at: place, key: Self.key, evidence: [ref],
                                   fix: "Add \(t.type) to NSBonjourServices in the Info.plist of \(b.name), or remove the type if the code no longer browses for it.",
                                   fingerprint: [t.type]))
            }
        }
        return out
    }

    static func describe(_ u: Usage) -> String {
        switch u.location {
        case .source(let p, let l, _): return "\(u.api) at \(p):\(l)"
        case .binary(let p, _): return "\(u.api) in \(p)"
        }
    }

    static func evidence(_ u: Usage) -> EvidenceRef {
        switch u.location {
        case .source(let p, let l, _): return .file(path: p, line: l)
        case .binary(let p, let s): return .symbol(binary: p, symbol: s)
        }
    }
}
