/// What one Mach-O slice references, as the binary reader found it.
public struct BinaryReferences: Sendable, Hashable {
    /// Objective-C classes referenced through class refs (runtime names).
    public var objcClasses: Set<String>
    /// Selector names from `__objc_selrefs`.
    public var selectors: Set<String>
    /// Undefined symbols, raw: `_OBJC_CLASS_$_CLLocationManager`, `_ABAddressBookCreate`,
    /// `_$s12CoreLocation16CLLocationUpdateVMa`.
    public var importedSymbols: [String]

    public init(objcClasses: Set<String> = [], selectors: Set<String> = [],
                importedSymbols: [String] = []) {
        self.objcClasses = objcClasses
        self.selectors = selectors
        self.importedSymbols = importedSymbols
    }
}
