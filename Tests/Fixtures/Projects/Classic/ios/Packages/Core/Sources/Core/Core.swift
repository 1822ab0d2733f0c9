import Foundation
import CoreObjC

public enum Core {
    public static var launches: Int { UserDefaults.standard.integer(forKey: "launches") }
}
