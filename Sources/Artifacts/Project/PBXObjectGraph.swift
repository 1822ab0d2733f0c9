import Foundation
import Formats

/// The `objects` table of a parsed `project.pbxproj`, with typed accessors that never trap on
/// missing or mistyped attributes.
struct PBXObjectGraph {
    static let format = "project.pbxproj"

    /// Path of the pbxproj relative to the input root.
    let path: String
    let objects: [String: PlistDictionary]
    let objectPositions: [String: SourcePosition]
    let rootID: String

    init(root: PlistNode, path: String) throws {
        self.path = path
        guard let top = root.dictionary else {
            throw Self.error("the top level is of type \(root.value.typeName), not a dictionary", root.position)
        }
        guard let objectsNode = top["objects"] else {
            throw Self.error("no 'objects' dictionary", root.position)
        }
        guard let objectsDict = objectsNode.dictionary else {
            throw Self.error("'objects' is of type \(objectsNode.value.typeName), not a dictionary", objectsNode.position)
        }
        guard let rootEntry = top.entry("rootObject") else {
            throw Self.error("no 'rootObject'", root.position)
        }
        guard let rootID = rootEntry.value.string else {
            throw Self.error("'rootObject' is of type \(rootEntry.value.value.typeName), not an object identifier", rootEntry.value.position)
        }
        var objects: [String: PlistDictionary] = [:], positions: [String: SourcePosition] = [:]
        for e in objectsDict.entries {
            guard let d = e.value.dictionary else { continue }
            objects[e.key] = d
            positions[e.key] = e.keyPosition ?? e.value.position
        }
        guard let rootObject = objects[rootID] else {
            throw Self.error("'rootObject' \(rootID) is not in 'objects'", rootEntry.value.position)
        }
        guard rootObject["isa"]?.string == "PBXProject" else {
            throw Self.error("'rootObject' \(rootID) is a \(rootObject["isa"]?.string ?? "object without isa"), not a PBXProject",
                             rootEntry.value.position)
        }
        self.objects = objects
        self.objectPositions = positions
        self.rootID = rootID
    }

    static func error(_ reason: String, _ position: SourcePosition?) -> FormatError {
        FormatError(.malformed, format: format, reason: reason, line: position?.line, column: position?.column)
    }

    func object(_ id: String) -> PlistDictionary? { objects[id] }
    func isa(_ id: String) -> String? { objects[id]?["isa"]?.string }
    func string(_ id: String, _ key: String) -> String? { objects[id]?[key]?.string }
    func ids(_ id: String, _ key: String) -> [String] { objects[id]?[key]?.strings ?? [] }

    /// Where `key` of object `id` was written (else the object itself).
    func location(_ id: String, key: String? = nil) -> FileLocation {
        var pos = objectPositions[id]
        if let key, let e = objects[id]?.entry(key) { pos = e.keyPosition ?? pos }
        return FileLocation(path: path, position: pos)
    }

    /// A problem about an object that is referenced but absent or of an unexpected kind.
    func malformed(_ reason: String, at id: String?, key: String? = nil, bundle: String? = nil) -> LoadProblem {
        let loc = id.map { location($0, key: key) }
        return LoadProblem(.unreadable(FormatError(.malformed, format: Self.format, reason: reason,
                                                   line: loc?.position?.line, column: loc?.position?.column)),
                           path: path, bundle: bundle)
    }
}
