import Evidence

/// Which Apple modules a Swift file sees: those it imports, those they re-export
/// (`APIModules.reexports`) and those the target's code `@_exported import`s. A use whose
/// name the file writes counts only when its module is visible; the import that made it
/// visible becomes the use's `basis`.
struct ModuleVisibility {
    let imports: Set<String>
    let exported: Set<String>

    func filter(_ usages: [SourceUsage]) -> [SourceUsage] {
        usages.compactMap { usage in
            guard let symbol = usage.symbol, let module = APIModules.module(ofSymbol: symbol) else { return usage }
            guard let basis = basis(for: module) else { return nil }
            var u = usage
            u.basis = basis
            return u
        }
    }

    /// How the file sees `module`, or nil when it does not.
    func basis(for module: String) -> String? {
        if imports.contains(module) { return "import \(module)" }
        for i in imports.sorted() where APIModules.visible(from: [i]).contains(module) {
            return "import \(i) (re-exports \(module))"
        }
        if exported.contains(module) { return "@_exported import \(module) in the target" }
        for e in exported.sorted() where APIModules.visible(from: [e]).contains(module) {
            return "@_exported import \(e) in the target (re-exports \(module))"
        }
        return nil
    }
}
