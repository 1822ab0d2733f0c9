import Foundation

enum Format {
    static func price(_ value: Decimal) -> String { "\(value)" }
}
