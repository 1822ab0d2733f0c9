import Foundation
#if canImport(UIKit)
import UIKit
#endif

func debugOnly(secret: String) {
    #if DEBUG
    NSLog("secret %@", secret)
    UserDefaults.standard.set(secret, forKey: "secret")
    #elseif os(macOS)
    print(secret)
    #else
    _ = UIDevice.current.identifierForVendor
    #endif
    #if targetEnvironment(simulator) || (os(iOS) && !DEBUG)
    let _ = ProcessInfo.processInfo.systemUptime
    #endif
}
