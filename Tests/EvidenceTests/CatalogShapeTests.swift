import XCTest
@testable import Evidence

final class CatalogShapeTests: XCTestCase {
    let catalog = ProtectedResourceCatalog.standard

    func testEveryEntryHasATriggerASourceAndAUniqueKeyAndCapability() {
        XCTAssertEqual(Set(catalog.resources.map(\.capability)).count, catalog.resources.count, "capability ids repeat")
        XCTAssertEqual(Set(catalog.resources.map(\.key)).count, catalog.resources.count, "keys repeat")
        for resource in catalog.resources {
            XCTAssertFalse(resource.triggers.isEmpty, "\(resource.key) has no trigger")
            XCTAssertFalse(resource.source.isEmpty, "\(resource.key) has no source")
            XCTAssertFalse(resource.platforms.isEmpty, "\(resource.key) has no platform")
            XCTAssertNotNil(resource.capability.range(of: #"^[a-z][a-zA-Z_]*(\.[a-z][a-zA-Z_]*)*$"#, options: .regularExpression),
                            "capability id \(resource.capability) is not a stable dotted id")
        }
    }

    func testCapabilityIdsTheRulesRelyOnExist() {
        let expected = [
            "camera": "NSCameraUsageDescription",
            "microphone": "NSMicrophoneUsageDescription",
            "location.whenInUse": "NSLocationWhenInUseUsageDescription",
            "location.always": "NSLocationAlwaysAndWhenInUseUsageDescription",
            "photos.read": "NSPhotoLibraryUsageDescription",
            "photos.addOnly": "NSPhotoLibraryAddUsageDescription",
            "contacts": "NSContactsUsageDescription",
            "calendars.full": "NSCalendarsFullAccessUsageDescription",
            "calendars.writeOnly": "NSCalendarsWriteOnlyAccessUsageDescription",
            "reminders": "NSRemindersFullAccessUsageDescription",
            "speech": "NSSpeechRecognitionUsageDescription",
            "motion": "NSMotionUsageDescription",
            "bluetooth": "NSBluetoothAlwaysUsageDescription",
            "health.share": "NSHealthShareUsageDescription",
            "health.update": "NSHealthUpdateUsageDescription",
            "homekit": "NSHomeKitUsageDescription",
            "nfc": "NFCReaderUsageDescription",
            "faceid": "NSFaceIDUsageDescription",
            "media_library": "NSAppleMusicUsageDescription",
            "local_network": "NSLocalNetworkUsageDescription",
            "tracking": "NSUserTrackingUsageDescription",
            "siri": "NSSiriUsageDescription",
            "focus": "NSFocusStatusUsageDescription",
        ]
        for (capability, key) in expected {
            XCTAssertEqual(catalog.resource(forCapability: capability)?.key, key, capability)
            XCTAssertEqual(catalog.resource(forKey: key)?.capability, capability, key)
        }
    }

    func testTriggerNamesHaveTheShapeOfTheirKind() {
        for resource in catalog.resources {
            for trigger in resource.triggers.objcClasses {
                XCTAssertNotNil(trigger.name.range(of: #"^[A-Za-z_][A-Za-z0-9_]*$"#, options: .regularExpression),
                                "\(resource.key): class \(trigger.name)")
            }
            for trigger in resource.triggers.selectors {
                XCTAssertNotNil(trigger.name.range(of: #"^[a-z_][A-Za-z0-9_]*(:([A-Za-z_][A-Za-z0-9_]*:)*)?$"#, options: .regularExpression),
                                "\(resource.key): selector \(trigger.name)")
            }
            for trigger in resource.triggers.cFunctions {
                XCTAssertNotNil(trigger.name.range(of: #"^_[A-Za-z][A-Za-z0-9_]*$"#, options: .regularExpression),
                                "\(resource.key): C symbol \(trigger.name) must carry the Mach-O underscore")
            }
            for trigger in resource.triggers.swiftSymbols {
                XCTAssertTrue(trigger.name.first?.isNumber == true,
                              "\(resource.key): Swift substring \(trigger.name) must start with a length")
                XCTAssertNotNil(trigger.demangled, "\(resource.key): \(trigger.name) names no type")
            }
            for (kind, trigger) in resource.triggers.all where kind != .selector {
                XCTAssertNil(trigger.alongsideClass, "\(resource.key): only selectors take a companion class")
            }
        }
    }

    func testTriggersAreUniqueWithinAnEntry() {
        for resource in catalog.resources {
            var seen = Set<String>()
            for (kind, trigger) in resource.triggers.all {
                let identity = "\(kind)|\(trigger.name)|\(trigger.alongsideClass ?? "")"
                XCTAssertTrue(seen.insert(identity).inserted, "\(resource.key) repeats \(identity)")
            }
        }
    }

    func testLookAlikesAreNeverTriggers() {
        var triggerNames: [TriggerKind: Set<String>] = [:]
        for resource in catalog.resources {
            for (kind, trigger) in resource.triggers.all { triggerNames[kind, default: []].insert(trigger.name) }
        }
        for lookAlike in catalog.lookAlikes {
            XCTAssertFalse(lookAlike.names.isEmpty, lookAlike.api)
            XCTAssertFalse(lookAlike.reason.isEmpty, lookAlike.api)
            XCTAssertFalse(lookAlike.source.isEmpty, lookAlike.api)
            if let capability = lookAlike.resemblesCapability {
                XCTAssertNotNil(catalog.resource(forCapability: capability), "\(lookAlike.api): unknown \(capability)")
            }
            for name in lookAlike.names {
                XCTAssertFalse(triggerNames[lookAlike.kind, default: []].contains(name),
                               "\(name) is both a no-permission look-alike and a trigger")
            }
        }
    }

    func testLegacyKeysSayWhenTheyStopMattering() {
        let expected = [
            "NSBluetoothPeripheralUsageDescription": "13.0",
            "NSLocationAlwaysUsageDescription": "11.0",
            "NSCalendarsUsageDescription": "17.0",
            "NSRemindersUsageDescription": "17.0",
        ]
        for (key, version) in expected {
            XCTAssertEqual(catalog.resource(forKey: key)?.neededOnlyBelowIOS, version, key)
            XCTAssertNotNil(catalog.resource(forKey: key)?.deprecation, key)
        }
    }

    func testMachOPlatformNumbers() {
        XCTAssertEqual(ApplePlatform(machOPlatform: 2), .iOS)
        XCTAssertEqual(ApplePlatform(machOPlatform: 7), .iOS, "iOS simulator")
        XCTAssertEqual(ApplePlatform(machOPlatform: 6), .macCatalyst)
        XCTAssertEqual(ApplePlatform(machOPlatform: 11), .visionOS)
        XCTAssertNil(ApplePlatform(machOPlatform: 10), "DriverKit")
    }
}
