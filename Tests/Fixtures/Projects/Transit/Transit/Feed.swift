import Foundation

/// Timetable downloads. legacy.transit-data.com is allowed plain HTTP by the app's exception
/// domain; api.transit-data.com is not.
enum Feed {
    static func stops() {
        URLSession.shared.dataTask(with: URL(string: "http://legacy.transit-data.com/stops.json")!).resume()
    }

    static func routes() {
        URLSession.shared.dataTask(with: URL(string: "http://api.transit-data.com/v2/routes")!).resume()
    }

    static func account() {
        URLSession.shared.dataTask(with: URL(string: "https://secure.transit-data.com/v2/account")!).resume()
    }

    /// Shown in the about screen; never loaded here.
    static let mirror = "http://mirror.transit-data.org/timetables"
}
