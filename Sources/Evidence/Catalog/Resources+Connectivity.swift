extension ProtectedResourceCatalog {
    static let bluetoothTriggers = Triggers(
        objcClasses: [
            .indicative("CBCentralManager", note: "Also referenced to read the class-level authorization."),
            .indicative("CBPeripheralManager", note: "Also referenced to read the class-level authorization."),
        ],
        selectors: [
            .definite("initWithDelegate:queue:", with: "CBCentralManager", note: "Creating a manager shows the prompt; without the key the app crashes."),
            .definite("initWithDelegate:queue:options:", with: "CBCentralManager"),
            .definite("initWithDelegate:queue:", with: "CBPeripheralManager"),
            .definite("initWithDelegate:queue:options:", with: "CBPeripheralManager"),
            .definite("scanForPeripheralsWithServices:options:"),
            .definite("startAdvertising:", with: "CBPeripheralManager"),
        ])

    static let connectivityResources: [ProtectedResource] = [
        ProtectedResource(
            key: "NSBluetoothAlwaysUsageDescription", capability: "bluetooth",
            resource: "Bluetooth (Core Bluetooth)",
            platforms: [.iOS, .macCatalyst, .macOS, .tvOS, .watchOS, .visionOS], minimumOS: "iOS 13.0",
            triggers: bluetoothTriggers,
            source: protectedResourcesPage, confidence: .high),

        ProtectedResource(
            key: "NSBluetoothPeripheralUsageDescription", capability: "bluetooth.legacy",
            resource: "Bluetooth peripherals (before iOS 13)",
            platforms: [.iOS],
            deprecation: "Replaced by NSBluetoothAlwaysUsageDescription in iOS 13.",
            neededOnlyBelowIOS: "13.0",
            triggers: bluetoothTriggers,
            source: protectedResourcesPage, confidence: .high),

        ProtectedResource(
            key: "NSLocalNetworkUsageDescription", capability: "local_network",
            resource: "Local network (Bonjour, connections to local hosts, multicast)",
            // TN3179: local network privacy exists on iOS/iPadOS 14+, visionOS and macOS 15+; tvOS
            // and watchOS have no prompt, whatever the key's availability says.
            platforms: [.iOS, .macCatalyst, .macOS, .visionOS], minimumOS: "iOS 14.0",
            related: [
                RelatedRequirement(.infoPlistKey, "NSBonjourServices", when: "browsing or advertising Bonjour services (else NetService error -72008)"),
                RelatedRequirement(.entitlement, "com.apple.developer.networking.multicast", when: "sending raw multicast or broadcast"),
            ],
            triggers: Triggers(
                objcClasses: [
                    .definite("NSNetServiceBrowser"),
                    .indicative("NSNetService", note: "Resolving or publishing; may come from a browser already counted."),
                    .definite("MCNearbyServiceBrowser"),
                    .definite("MCNearbyServiceAdvertiser"),
                    .definite("MCAdvertiserAssistant"),
                    .definite("MCBrowserViewController"),
                ],
                cFunctions: [
                    .definite("_DNSServiceBrowse"),
                    .definite("_DNSServiceRegister"),
                    .indicative("_DNSServiceResolve"),
                    .definite("_nw_browser_create"),
                    .definite("_nw_connection_group_create", note: "Multicast groups."),
                    .indicative("_nw_listener_create", note: "Only advertising a service or accepting local peers triggers the prompt."),
                ],
                swiftSymbols: [
                    .swift("7Network9NWBrowserC", "Network.NWBrowser", .definite),
                    .swift("7Network10NWListenerC", "Network.NWListener", .indicative,
                           note: "Only advertising a service or accepting local peers triggers the prompt."),
                    .swift("7Network17NWConnectionGroupC", "Network.NWConnectionGroup", .definite),
                    .swift("7Network16NWMulticastGroupV", "Network.NWMulticastGroup", .definite),
                ]),
            notes: "Connections to local addresses (NWConnection, URLSession, BSD sockets) also trigger it; a binary cannot tell local hosts from remote ones.",
            source: "https://developer.apple.com/documentation/bundleresources/information-property-list/nslocalnetworkusagedescription",
            confidence: .high),

        ProtectedResource(
            key: "NFCReaderUsageDescription", capability: "nfc",
            resource: "NFC reader",
            platforms: [.iOS], minimumOS: "iOS 11.0",
            related: [
                RelatedRequirement(.entitlement, "com.apple.developer.nfc.readersession.formats"),
                RelatedRequirement(.infoPlistKey, "com.apple.developer.nfc.readersession.iso7816.select-identifiers", when: "reading ISO 7816 tags"),
                RelatedRequirement(.infoPlistKey, "com.apple.developer.nfc.readersession.felica.systemcodes", when: "reading FeliCa tags"),
            ],
            triggers: Triggers(objcClasses: [
                .definite("NFCNDEFReaderSession"),
                .definite("NFCTagReaderSession"),
                .definite("NFCVASReaderSession"),
            ]),
            source: protectedResourcesPage, confidence: .high),

        ProtectedResource(
            key: "NSNearbyInteractionUsageDescription", capability: "nearby_interaction",
            resource: "Nearby Interaction (ultra wideband) sessions",
            platforms: [.iOS, .watchOS], minimumOS: "iOS 14.0",
            triggers: Triggers(objcClasses: [.definite("NISession")]),
            source: protectedResourcesPage, confidence: .high),

        ProtectedResource(
            key: "NSNearbyInteractionAllowOnceUsageDescription", capability: "nearby_interaction.legacy",
            resource: "Nearby Interaction, one-time permission (legacy)",
            platforms: [.iOS],
            deprecation: "Superseded by NSNearbyInteractionUsageDescription; the OS version is not confirmed.",
            triggers: Triggers(objcClasses: [
                .indicative("NISession", note: "Only apps that still support the old one-time permission need this key."),
            ]),
            source: protectedResourcesPage, confidence: .high),

        ProtectedResource(
            key: "NSHomeKitUsageDescription", capability: "homekit",
            resource: "HomeKit configuration data",
            platforms: [.iOS, .macCatalyst, .tvOS, .watchOS, .visionOS],
            related: [RelatedRequirement(.entitlement, "com.apple.developer.homekit")],
            triggers: Triggers(objcClasses: [.definite("HMHomeManager")]),
            source: protectedResourcesPage, confidence: .high),
    ]
}
