import SwiftUI

@main
struct ModernApp: App {
    var body: some Scene { WindowGroup { ContentView() } }
}
