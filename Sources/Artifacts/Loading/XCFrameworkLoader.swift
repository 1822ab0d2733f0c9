/// An `.xcframework` as SDK vendors ship it: each library slice (`ios-arm64/Kit.framework`,
/// `ios-arm64_x86_64-simulator/Kit.framework`) is a framework bundle of its own, named with
/// its library identifier so slices stay apart (`Kit.framework (ios-arm64)`), with its
/// `PrivacyInfo.xcprivacy` and binaries. Static-library slices (`libKit.a`) hold no bundle.
enum XCFrameworkLoader {
    static func bundles(index: FileIndex) -> [AppBundle] {
        var out: [AppBundle] = []
        for e in index.entries where e.kind == .directory && PathUtil.pathExtension(e.path) == "framework" {
            let parts = e.path.split(separator: "/")
            guard parts.count == 2 else { continue }
            var slice = BuiltAppLoader.bundles(appRoot: e.path, rootName: String(parts[1]), index: index)
            guard !slice.isEmpty else { continue }
            slice[0].kind = .framework
            slice[0].name = "\(parts[1]) (\(parts[0]))"
            out += slice
        }
        return out
    }
}
