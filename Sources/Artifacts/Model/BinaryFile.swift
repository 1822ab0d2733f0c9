import Foundation
import Formats

/// A Mach-O file of a bundle as loaded: its parsed structure, or why it could not be read.
public struct BinaryFile: Sendable {
    public var path: String
    public var macho: MachOFile?
    public var error: FormatError?

    public init(path: String, macho: MachOFile?, error: FormatError? = nil) {
        self.path = path
        self.macho = macho
        self.error = error
    }
}
