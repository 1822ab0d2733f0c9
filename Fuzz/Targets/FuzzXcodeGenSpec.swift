import Artifacts
import Foundation
import Formats
import FuzzHarness

// The input is an XcodeGen project.yml, loaded as a folder next to a source file, an
// Info.plist and an included spec, so that YAML reading, includes, templates, settings and the
// generated project graph are all reached.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let files: [String: Data] = [
        "project.yml": Data(bytes: data, count: size),
        "base.yml": Data("targetTemplates:\n  T:\n    platform: iOS\n    sources: [App]\n".utf8),
        "App/A.swift": Data("import UIKit\n".utf8),
        "App/Info.plist": Data("<plist><dict><key>CFBundleIdentifier</key><string>a</string></dict></plist>".utf8),
    ]
    _ = try? ProductLoader.load(source: MemorySource(name: "fuzz", files: files), kind: .folder, limits: FuzzHarness.projectLimits)
    return 0
}
