import Foundation

enum Formatting {
    static let date = Date.FormatStyle.dateTime
}
