import Foundation
import Artifacts
import Evidence
import Formats

/// What Preflight sees in an input, for `preflight inspect`: bundles, binaries, entitlements,
/// manifests and languages. The JSON shape is part of the documented contract.
public enum InspectReport {
    public struct Options: Sendable {
        public var includeSymbols = false
        public init(includeSymbols: Bool = false) { self.includeSymbols = includeSymbols }
    }

    /// Certificate pinning each bundle's code shows, by bundle id: a positive fact, not a finding.
    public static func pinning(_ loaded: LoadedInput) -> [String: [PinningFact]] { PinningEvidence.scan(loaded) }

    /// `pinning`: certificate pinning the code shows, by bundle id (`PinningEvidence.scan`).
    /// `stores`: databases and key stores each bundle ships, by bundle name (`shippedStores`).
    public static func json(_ product: Product, tool: ToolInfo, options: Options = Options(), pinning: [String: [PinningFact]] = [:],
                            domains: [String: [ContactedDomain]] = [:], stores: [String: [ShippedStore]] = [:]) throws -> String {
        var doc: [String: Any] = [
            "schemaVersion": 1,
            "tool": ["name": tool.name, "version": tool.version],
            "input": ["path": product.input, "kind": product.kind.rawValue],
            "bundles": product.bundles.map {
                bundle($0, parent: product.parent(of: $0), options: options, pinning: pinning[$0.id] ?? [], domains: domains[$0.name] ?? [],
                       stores: stores[$0.name] ?? [])
            },
            "problems": product.problems.map(problem),
        ]
        if !product.projects.isEmpty { doc["projects"] = product.projects }
        if product.kind != .machO { doc["sdks"] = product.sdks.map { sdk($0, product: product) } }
        if product.kind == .machO { doc["binaries"] = product.looseBinaries.map { binary($0, options: options) } }
        let data = try JSONSerialization.data(withJSONObject: doc, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    static func bundle(_ b: AppBundle, parent: AppBundle?, options: Options, pinning: [PinningFact] = [],
                       domains: [ContactedDomain] = [], stores: [ShippedStore] = []) -> [String: Any] {
        var d: [String: Any] = ["name": b.name, "kind": b.kind.rawValue, "path": b.path]
        d["id"] = b.identifier ?? NSNull()
        d["infoPlist"] = b.infoPlistPath ?? NSNull()
        d["version"] = b.shortVersion ?? NSNull()
        d["build"] = b.buildVersion ?? NSNull()
        d["minOS"] = b.minimumOSVersion ?? NSNull()
        if let p = parent { d["parent"] = p.name }
        if let e = b.entitlements {
            d["entitlements"] = ["source": b.entitlementsSource ?? e.path, "keys": e.root?.dictionary?.keys ?? []] as [String: Any]
        }
        d["privacyManifests"] = b.privacyManifestPaths
        if let p = b.provisioningProfile {
            var o: [String: Any] = ["kind": p.kind.rawValue, "teamIdentifiers": p.teamIdentifiers,
                                    "provisionedDeviceCount": p.provisionedDevices.count]
            o["name"] = p.name ?? NSNull()
            o["teamName"] = p.teamName ?? NSNull()
            o["expirationDate"] = p.expirationDate.map { ISO8601DateFormatter().string(from: $0) } ?? NSNull()
            o["expired"] = p.isExpired(at: Date())
            o["certificates"] = p.developerCertificates.map { c -> Any in CMSSignedData.subjectCommonName(c) ?? NSNull() }
            o["entitlementKeys"] = p.entitlements?.dictionary?.keys ?? []
            d["provisioningProfile"] = o
        }
        d["languages"] = b.languages
        if !b.generatedInfoPlistKeys.isEmpty { d["generatedInfoPlistKeys"] = b.generatedInfoPlistKeys.keys.sorted() }
        if !b.sourceFiles.isEmpty { d["sourceFileCount"] = b.sourceFiles.count }
        if let ats = ats(b) { d["ats"] = ats }
        if !pinning.isEmpty { d["certificatePinning"] = pinning.map { ["kind": $0.kind, "path": $0.path] } }
        if !domains.isEmpty { d["contactedDomains"] = domainsJSON(domains) }
        if !stores.isEmpty { d["shippedStores"] = stores.map(storeJSON) }
        d["binaries"] = b.binaries.map { binary($0, options: options) }
        return d
    }

    static func binary(_ f: BinaryFile, options: Options) -> [String: Any] {
        var d: [String: Any] = ["path": f.path]
        if let e = f.error { d["error"] = e.description }
        guard let m = f.macho else { d["slices"] = [Any](); return d }
        d["fat"] = m.isFat
        d["slices"] = m.slices.map { s -> [String: Any] in
            var o: [String: Any] = [
                "arch": s.arch,
                "fileType": s.fileTypeName,
                "platform": s.platform ?? NSNull(),
                "minOS": s.minOS ?? NSNull(),
                "sdk": s.sdk ?? NSNull(),
                "linkedLibraries": s.linkedLibraries.map(\.path),
                "weakLibraries": s.linkedLibraries.filter { $0.kind == .weak }.map(\.path),
                "rpaths": s.rpaths,
                "encrypted": (s.encryption?.cryptID ?? 0) != 0,
                "pie": s.isPIE,
                "importedSymbolCount": s.importedSymbols.count,
                "objcClassRefCount": s.objcClassRefs.count,
                "objcSelectorRefCount": s.objcSelectorRefs.count,
            ]
            o["uuid"] = s.uuid ?? NSNull()
            o["signed"] = s.codeSignature != nil
            o["hardening"] = hardeningJSON(s)
            if let signer = s.codeSignature.flatMap({ CMSSignedData.leaf($0.cmsCertificates) }) { o["signedBy"] = CMSSignedData.subjectCommonName(signer) ?? NSNull() }
            if let e = s.codeSignatureError { o["signatureError"] = e.description }
            if options.includeSymbols { o["importedSymbols"] = s.importedSymbols }
            return o
        }
        return d
    }

    /// One SDK of the inventory: what it is, how it was recognised, whether it is on Apple's
    /// list of commonly used SDKs and what of its manifest and signature the input shows.
    static func sdk(_ c: SDKComponent, product: Product) -> [String: Any] {
        var d: [String: Any] = ["name": c.name, "kind": c.kind.rawValue, "recognisedBy": c.recognisedBy, "path": c.location.path,
                                "privacyManifests": c.privacyManifests, "signature": c.signature.rawValue]
        d["version"] = c.version ?? NSNull()
        d["files"] = c.filesPath ?? NSNull()
        d["listed"] = ThirdPartySDKCatalog.listedName(of: c) ?? NSNull()
        if let line = c.location.position?.line { d["line"] = line }
        if let o = c.origin { d["origin"] = o }
        if let i = c.identifier { d["identifier"] = i }
        if let b = c.bundleID.flatMap({ product.bundle(id: $0)?.name }) { d["bundle"] = b }
        return d
    }

    static func sdkText(_ c: SDKComponent) -> String {
        var out = "  \(c.name)\(c.version.map { " \($0)" } ?? "") [\(c.kind.rawValue)]"
        if let listed = ThirdPartySDKCatalog.listedName(of: c) { out += " listed by Apple\(listed == c.name ? "" : " as \(listed)")" }
        out += "\n    recognised by: \(c.recognisedBy), \(c.location.path)\(c.location.position.map { ":\($0.line)" } ?? "")\n"
        if let o = c.origin { out += "    origin:        \(o)\n" }
        guard let files = c.filesPath else { return out + "    files:         not in the input\n" }
        out += "    files:         \(files)\n"
        out += c.privacyManifests.isEmpty ? "    no privacy manifest\n" : c.privacyManifests.map { "    privacy manifest: \($0)\n" }.joined()
        if c.signature != .notApplicable { out += "    signature:     \(c.signaturePath ?? c.signature.rawValue)\n" }
        return out
    }

    static func problem(_ p: LoadProblem) -> [String: Any] {
        var d: [String: Any] = ["path": p.path, "problem": describe(p.kind)]
        if let b = p.bundle { d["bundle"] = b }
        return d
    }

    public static func describe(_ k: LoadProblem.Kind) -> String {
        switch k {
        case .unreadable(let e): return "unreadable: \(e)"
        case .inaccessible(let r): return r
        case .missingReference(let s): return "\(s) names a file that does not exist"
        case .caseMismatch(let s, let actual): return "\(s) names a file that exists only as \(actual)"
        case .missingInfoPlist: return "bundle has no Info.plist"
        case .missingExecutable(let n): return "CFBundleExecutable \(n) is missing"
        case .symlinkOutsideTree(let t): return "symbolic link to \(t) outside the tree"
        case .payloadNotAtRoot: return "the app's Payload folder is not at the root of the archive"
        }
    }

    public static func text(_ product: Product, options: Options = Options(), pinning: [String: [PinningFact]] = [:],
                            domains: [String: [ContactedDomain]] = [:], stores: [String: [ShippedStore]] = [:]) -> String {
        var out = "\(product.input) (\(product.kind.rawValue))\n"
        for b in product.bundles {
            out += "\n\(b.name) [\(b.kind.rawValue)]\(product.parent(of: b).map { " in \($0.name)" } ?? "")\n"
            out += "  path:        \(b.path.isEmpty ? "." : b.path)\n"
            if let id = b.identifier { out += "  identifier:  \(id)\n" }
            if let v = b.shortVersion { out += "  version:     \(v)\(b.buildVersion.map { " (\($0))" } ?? "")\n" }
            if let m = b.minimumOSVersion { out += "  minimum OS:  \(m)\n" }
            if let p = b.infoPlistPath { out += "  Info.plist:  \(p)\n" }
            if !b.generatedInfoPlistKeys.isEmpty { out += "  generated Info.plist keys: \(b.generatedInfoPlistKeys.count)\n" }
            if let e = b.entitlements { out += "  entitlements (\(b.entitlementsSource ?? e.path)): \((e.root?.dictionary?.keys ?? []).joined(separator: ", "))\n" }
            for m in b.privacyManifestPaths { out += "  privacy manifest: \(m)\n" }
            if let p = b.provisioningProfile {
                let expiry = p.expirationDate.map { ISO8601DateFormatter().string(from: $0) } ?? "no expiry"
                let expired = p.isExpired(at: Date()) ? " (expired)" : ""
                out += "  profile:     \(p.kindName)\(p.name.map { " '\($0)'" } ?? ""), team \(p.teamIdentifiers.joined(separator: ", ")), expires \(expiry)\(expired)\n"
                let certs = p.developerCertificates.compactMap(CMSSignedData.subjectCommonName)
                if !certs.isEmpty { out += "  profile certificates: \(certs.joined(separator: "; "))\n" }
            }
            if !b.languages.isEmpty { out += "  languages:   \(b.languages.joined(separator: ", "))\n" }
            if !b.sourceFiles.isEmpty { out += "  sources:     \(b.sourceFiles.count) files\n" }
            out += atsText(b)
            for p in pinning[b.id] ?? [] { out += "  certificate pinning: \(p.kind) (\(p.path))\n" }
            out += domainsText(domains[b.name] ?? [])
            out += (stores[b.name] ?? []).map(storeText).joined()
            for f in b.binaries { out += binaryText(f, indent: "  ", options: options) }
        }
        for f in product.looseBinaries { out += binaryText(f, indent: "", options: options) }
        if !product.sdks.isEmpty { out += "\nSDKs:\n" + product.sdks.map(sdkText).joined() }
        if !product.problems.isEmpty {
            out += "\nproblems:\n" + product.problems.map { "  \($0.path): \(describe($0.kind))\n" }.joined()
        }
        return out
    }

    static func binaryText(_ f: BinaryFile, indent: String, options: Options) -> String {
        var out = "\(indent)binary: \(f.path)\n"
        if let e = f.error { return out + "\(indent)  error: \(e)\n" }
        for s in f.macho?.slices ?? [] {
            out += "\(indent)  \(s.arch) \(s.fileTypeName), \(s.platform ?? "unknown platform") \(s.minOS ?? "?")"
            out += (s.encryption?.cryptID ?? 0) != 0 ? ", encrypted" : ""
            out += ", \(s.importedSymbols.count) imported symbols"
            if let e = s.codeSignatureError {
                out += ", invalid signature (\(e.reason))"
            } else if let sig = s.codeSignature {
                out += CMSSignedData.leaf(sig.cmsCertificates).flatMap(CMSSignedData.subjectCommonName).map { ", signed by \($0)" } ?? (sig.isAdHoc ? ", signed ad hoc" : ", signed")
            } else {
                out += ", unsigned"
            }
            out += "\n"
            for l in s.linkedLibraries { out += "\(indent)    \(l.kind == .weak ? "weak " : "")\(l.path)\n" }
            out += HardeningFacts(s).summary.map { "\(indent)    hardening: \($0)\n" }.joined()
            if options.includeSymbols { out += s.importedSymbols.map { "\(indent)    \($0)\n" }.joined() }
        }
        return out
    }
}
