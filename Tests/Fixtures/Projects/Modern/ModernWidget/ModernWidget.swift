import WidgetKit
import SwiftUI

@main
struct ModernWidgetBundle: WidgetBundle {
    var body: some Widget { EmptyWidget() }
}
