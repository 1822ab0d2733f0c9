import Foundation
import Rules
