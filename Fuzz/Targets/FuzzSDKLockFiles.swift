import Artifacts
import Foundation
import Formats
import FuzzHarness

// The input is split at NUL bytes into a Podfile.lock, a Package.resolved and a
// Cartfile.resolved, loaded as a project folder beside a pod, a package checkout and a Carthage
// build folder, so that the three lock-file readers and the SDK inventory are all reached.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let parts = Data(bytes: data, count: size).split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
    func part(_ i: Int) -> Data { i < parts.count ? Data(parts[i]) : Data() }
    let files: [String: Data] = [
        "Podfile.lock": part(0),
        "App.xcworkspace/xcshareddata/swiftpm/Package.resolved": part(1),
        "Cartfile.resolved": part(2),
        "Pods/Alamofire/Source/AF.swift": Data("import Foundation\n".utf8),
        "Carthage/Build/Kit.xcframework/Info.plist": Data("<plist><dict/></plist>".utf8),
        "App/Info.plist": Data("<plist><dict><key>CFBundleIdentifier</key><string>a</string></dict></plist>".utf8),
    ]
    _ = try? ProductLoader.load(source: MemorySource(name: "fuzz", files: files), kind: .folder, limits: FuzzHarness.projectLimits)
    return 0
}
