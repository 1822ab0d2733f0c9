import SwiftUI

@main
struct CalendarApp: App {
    var body: some Scene {
        WindowGroup { Text("Calendar") }
    }
}
