import SwiftUI

struct DebugMenu: View {
    var body: some View { Text("Debug") }
}
