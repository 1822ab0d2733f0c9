import Foundation
import FuzzHarness

// The input is the project's project.pbxproj, loaded by the Xcode project loader next to the
// fixed files of FuzzHarness.loadProject, in the default configuration and in Debug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let pbxproj = Data(bytes: data, count: size)
    try? FuzzHarness.loadProject(pbxproj)
    try? FuzzHarness.loadProject(pbxproj, configuration: "Debug")
    return 0
}
