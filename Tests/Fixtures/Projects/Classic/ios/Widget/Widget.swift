import WidgetKit
import SwiftUI

@main
struct MyWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "MyWidget", provider: Provider()) { _ in Text("Hi") }
    }
}
