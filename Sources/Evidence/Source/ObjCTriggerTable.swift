/// The catalog's Objective-C class, selector and C-function triggers, indexed for source,
/// plus the facts a binary cannot see but source can (arguments that decide the resource).
struct ObjCTriggerTable: Sendable {
    /// What an identifier can be, so that most identifiers cost one failed look-up.
    struct Roles: OptionSet, Sendable {
        let rawValue: UInt8
        static let companionClass = Roles(rawValue: 1)
        static let triggerClass = Roles(rawValue: 2)
        static let cFunction = Roles(rawValue: 4)
        static let constant = Roles(rawValue: 8)
        static let argumentConstant = Roles(rawValue: 16)
    }

    struct Rule: Sendable {
        let capability: String
        let key: String
        let trigger: Trigger
    }

    /// A constant argument that decides which capability an ambiguous selector reaches.
    struct ArgumentRule: Sendable {
        let part: Int
        let constant: String
        let capabilities: Set<String>
        /// Strength once the argument is known (nil: the catalog's).
        let strength: EvidenceStrength?
    }

    private(set) var classes: [String: [Rule]] = [:]
    private(set) var selectors: [String: [Rule]] = [:]
    /// C symbols without the Mach-O leading underscore.
    private(set) var cFunctions: [String: [Rule]] = [:]
    /// Classes named by `alongsideClass` and trigger classes: referencing one of them in a file
    /// satisfies selectors that need it.
    private(set) var companionClasses: Set<String> = []
    /// For selectors with no companion class: classes of the same resources, to name the
    /// receiver in a readable `[Class selector]` when one of them appears in the file.
    private(set) var homeClasses: [String: [String]] = [:]
    /// Identifiers whose mere use is evidence in source (enum constants invisible in a binary).
    private(set) var constants: [String: [Rule]] = [:]
    let argumentRules: [String: [ArgumentRule]]
    /// Names of `argumentRules` constants, to collect while reading message arguments.
    let argumentConstants: Set<String>
    /// Every identifier with a role above.
    private(set) var roles: [String: Roles] = [:]

    static let cameraSourceType = "UIImagePickerControllerSourceTypeCamera"

    init(catalog: ProtectedResourceCatalog, platform: ApplePlatform) {
        var lookAlikes: [TriggerKind: Set<String>] = [:]
        for lookAlike in catalog.lookAlikes { lookAlikes[lookAlike.kind, default: []].formUnion(lookAlike.names) }

        for resource in catalog.resources where resource.platforms.contains(platform) {
            let classNames = resource.triggers.objcClasses.map(\.name)
            for (kind, trigger) in resource.triggers.all where !(lookAlikes[kind]?.contains(trigger.name) ?? false) {
                let rule = Rule(capability: resource.capability, key: resource.key, trigger: trigger)
                switch kind {
                case .objcClass:
                    classes[trigger.name, default: []].append(rule)
                    companionClasses.insert(trigger.name)
                case .selector:
                    selectors[trigger.name, default: []].append(rule)
                    if let companion = trigger.alongsideClass {
                        companionClasses.insert(companion)
                    } else {
                        for name in classNames where !(homeClasses[trigger.name]?.contains(name) ?? false) {
                            homeClasses[trigger.name, default: []].append(name)
                        }
                    }
                case .cFunction:
                    let name = trigger.name.hasPrefix("_") ? String(trigger.name.dropFirst()) : trigger.name
                    cFunctions[name, default: []].append(rule)
                case .swiftSymbol:
                    break
                }
            }
            if resource.capability == "camera" {
                constants[Self.cameraSourceType, default: []].append(Rule(
                    capability: resource.capability, key: resource.key,
                    trigger: .definite(Self.cameraSourceType,
                                       note: "UIImagePickerController's camera source; the photo-library sources need no key.")))
            }
        }

        let mediaType: [ArgumentRule] = [
            ArgumentRule(part: 0, constant: "AVMediaTypeVideo", capabilities: ["camera"], strength: .definite),
            ArgumentRule(part: 0, constant: "AVMediaTypeAudio", capabilities: ["microphone"], strength: .definite),
        ]
        let mediaTypeStatus = mediaType.map {
            ArgumentRule(part: $0.part, constant: $0.constant, capabilities: $0.capabilities, strength: nil)
        }
        let entityType: [ArgumentRule] = [
            ArgumentRule(part: 0, constant: "EKEntityTypeEvent", capabilities: ["calendars.legacy"], strength: .definite),
            ArgumentRule(part: 0, constant: "EKEntityTypeReminder", capabilities: ["reminders.legacy"], strength: .definite),
        ]
        let calendarsFor: [ArgumentRule] = [
            ArgumentRule(part: 0, constant: "EKEntityTypeEvent", capabilities: ["calendars.full"], strength: nil),
            ArgumentRule(part: 0, constant: "EKEntityTypeReminder", capabilities: ["reminders"], strength: nil),
        ]
        argumentRules = [
            "requestAccessForMediaType:completionHandler:": mediaType,
            "authorizationStatusForMediaType:": mediaTypeStatus,
            "requestAuthorizationForAccessLevel:handler:": [
                ArgumentRule(part: 0, constant: "PHAccessLevelAddOnly", capabilities: ["photos.addOnly"], strength: .definite),
                ArgumentRule(part: 0, constant: "PHAccessLevelReadWrite", capabilities: ["photos.read"], strength: .definite),
            ],
            "requestAccessToEntityType:completion:": entityType,
            "calendarsForEntityType:": calendarsFor,
        ]
        argumentConstants = Set(argumentRules.values.flatMap { $0.map(\.constant) })
        for name in companionClasses { roles[name, default: []].insert(.companionClass) }
        for name in classes.keys { roles[name, default: []].insert(.triggerClass) }
        for name in cFunctions.keys { roles[name, default: []].insert(.cFunction) }
        for name in constants.keys { roles[name, default: []].insert(.constant) }
        for name in argumentConstants { roles[name, default: []].insert(.argumentConstant) }
    }

    private static let standardTables: [ApplePlatform: ObjCTriggerTable] = Dictionary(
        uniqueKeysWithValues: ApplePlatform.allCases.map { ($0, ObjCTriggerTable(catalog: .detection, platform: $0)) })

    /// The table of a catalog, built once for the standard catalog.
    static func table(for catalog: ProtectedResourceCatalog, platform: ApplePlatform) -> ObjCTriggerTable {
        let standard = ProtectedResourceCatalog.detection
        if catalog.resources == standard.resources, catalog.lookAlikes == standard.lookAlikes,
           let table = standardTables[platform] {
            return table
        }
        return ObjCTriggerTable(catalog: catalog, platform: platform)
    }
}
