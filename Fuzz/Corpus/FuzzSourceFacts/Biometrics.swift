import Foundation
import LocalAuthentication

public enum Biometrics {
    public static func unlock(_ done: @escaping (Bool) -> Void) {
        let context = LAContext()
        context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock your notes") { ok, _ in
            done(ok)
        }
    }
}
