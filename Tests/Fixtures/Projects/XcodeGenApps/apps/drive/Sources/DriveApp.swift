import SwiftUI

@main
struct DriveApp: App {
    var body: some Scene {
        WindowGroup { Text("Drive") }
    }
}
