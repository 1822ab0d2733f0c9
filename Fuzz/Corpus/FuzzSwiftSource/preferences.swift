import Foundation

final class Session {
    func save(password: String, user: String) {
        UserDefaults.standard.set(password, forKey: "password")
        UserDefaults(suiteName: "group.com.example.shared")?.set(user, forKey: "user")
    }
}
