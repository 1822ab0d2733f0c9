import Foundation
import os

func signIn(token: String) {
    NSLog("token: %@", token)
    print("session \(token)")
    os_log("%{public}@", token)
}

func log(_ message: String) { NSLog("%@", message) }

func forward(accessToken: String) {
    log(accessToken)
}
