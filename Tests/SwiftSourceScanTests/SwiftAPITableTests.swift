import XCTest
import Evidence
@testable import SwiftSourceScan

/// One test per area of the Swift API table: positive cases, look-alikes, and the arguments
/// that decide between capabilities.
final class SwiftAPITableTests: ScannerTestCase {
    // MARK: Camera and microphone

    func testCaptureDeviceMediaTypeDecidesCameraOrMicrophone() {
        XCTAssertEqual(summary("AVCaptureDevice.requestAccess(for: .video) { _ in }"),
                       ["camera definite AVCaptureDevice.requestAccess(for: .video)"])
        XCTAssertEqual(summary("let ok = await AVCaptureDevice.requestAccess(for: AVMediaType.audio)"),
                       ["microphone definite AVCaptureDevice.requestAccess(for: .audio)"])
        XCTAssertEqual(summary("AVCaptureDevice.requestAccess(for: mediaType, completionHandler: done)"), [
            "camera indicative AVCaptureDevice.requestAccess(for: mediaType, completionHandler:) (camera or microphone)",
            "microphone indicative AVCaptureDevice.requestAccess(for: mediaType, completionHandler:) (camera or microphone)",
        ])
        XCTAssertEqual(summary("let s = AVCaptureDevice.authorizationStatus(for: .video)"),
                       ["camera indicative AVCaptureDevice.authorizationStatus(for: .video)"])
        XCTAssertEqual(summary("let d = AVCaptureDevice.default(.builtInMicrophone, for: .audio, position: .unspecified)"),
                       ["microphone indicative AVCaptureDevice.default(_:, for: .audio, position:)"])
        // A media type that is neither: nothing, not even the class.
        XCTAssertEqual(scan("let s = AVCaptureDevice.authorizationStatus(for: .metadata)"), [])
    }

    func testCaptureClassesAreCameraEvidence() {
        XCTAssertEqual(strongest("let output = AVCapturePhotoOutput()"), ["camera": .definite])
        XCTAssertEqual(strongest("let session = AVCaptureSession()"), ["camera": .indicative])
        XCTAssertEqual(strongest("let scanner = DataScannerViewController(recognizedDataTypes: [.barcode()])"),
                       ["camera": .definite])
        XCTAssertEqual(strongest("let c = VNDocumentCameraViewController()"), ["camera": .definite])
    }

    func testImagePickerNeedsTheCameraKeyOnlyWithTheCameraSource() {
        let camera = """
        let picker = UIImagePickerController()
        picker.sourceType = .camera
        """
        XCTAssertEqual(summary(camera), ["camera definite UIImagePickerController.sourceType = .camera"])
        XCTAssertEqual(scan(camera).first.map { "\($0.line):\($0.column)" }, "2:1")
        let library = """
        let picker = UIImagePickerController()
        picker.sourceType = .photoLibrary
        picker.sourceType = UIImagePickerController.SourceType.savedPhotosAlbum
        """
        XCTAssertEqual(scan(library), [])
        XCTAssertEqual(summary("""
        let picker = UIImagePickerController()
        picker.sourceType = UIImagePickerController.SourceType.camera
        picker.cameraDevice = .front
        """), [
            "camera definite UIImagePickerController.sourceType = .camera",
            "camera indicative UIImagePickerController.cameraDevice = .front",
        ])
        XCTAssertEqual(summary("""
        func make(source: UIImagePickerController.SourceType) -> UIImagePickerController {
            let picker = UIImagePickerController()
            picker.sourceType = source
            return picker
        }
        """), ["camera indicative UIImagePickerController.sourceType = source (camera or none)"])
        // Checking availability uses nothing.
        XCTAssertEqual(scan("let ok = UIImagePickerController.isSourceTypeAvailable(.camera)"), [])
    }

    func testMicrophone() {
        XCTAssertEqual(summary("AVAudioSession.sharedInstance().requestRecordPermission { _ in }"),
                       ["microphone definite AVAudioSession.requestRecordPermission()"])
        XCTAssertEqual(summary("let granted = await AVAudioApplication.requestRecordPermission()"),
                       ["microphone definite AVAudioApplication.requestRecordPermission()"])
        XCTAssertEqual(summary("AVAudioApplication.requestRecordPermission(completionHandler: { _ in })"),
                       ["microphone definite AVAudioApplication.requestRecordPermission(completionHandler:)"])
        XCTAssertEqual(summary("let r = try AVAudioRecorder(url: url, settings: [:])"),
                       ["microphone definite AVAudioRecorder(url:settings:)"])
        XCTAssertEqual(summary("try AVAudioSession.sharedInstance().setCategory(.playAndRecord, mode: .default)"),
                       ["microphone indicative AVAudioSession.setCategory(.playAndRecord, mode:)"])
        XCTAssertEqual(scan("try AVAudioSession.sharedInstance().setCategory(.playback)"), [])
        XCTAssertEqual(summary("""
        let engine = AVAudioEngine()
        let input = engine.inputNode
        """), ["microphone indicative AVAudioEngine.inputNode"])
        XCTAssertEqual(scan("let engine = AVAudioEngine(); let out = engine.outputNode"), [])
    }

    func testSpeechAndMediaLibrary() {
        XCTAssertEqual(summary("SFSpeechRecognizer.requestAuthorization { _ in }"),
                       ["speech definite SFSpeechRecognizer.requestAuthorization()"])
        XCTAssertEqual(summary("MPMediaLibrary.requestAuthorization { _ in }"),
                       ["media_library definite MPMediaLibrary.requestAuthorization()"])
        XCTAssertEqual(summary("let status = await MusicAuthorization.request()"),
                       ["media_library definite MusicAuthorization.request()"])
        XCTAssertEqual(summary("let status = MusicAuthorization.currentStatus"),
                       ["media_library indicative MusicAuthorization"])
        // A plain requestAuthorization on an unknown receiver names nothing.
        XCTAssertEqual(scan("service.requestAuthorization { _ in }"), [])
    }

    // MARK: Photos

    func testPhotoLibraryAccessLevelDecidesTheKey() {
        XCTAssertEqual(summary("PHPhotoLibrary.requestAuthorization(for: .addOnly) { _ in }"),
                       ["photos.addOnly definite PHPhotoLibrary.requestAuthorization(for: .addOnly)"])
        XCTAssertEqual(summary("let s = await PHPhotoLibrary.requestAuthorization(for: .readWrite)"),
                       ["photos.read definite PHPhotoLibrary.requestAuthorization(for: .readWrite)"])
        XCTAssertEqual(summary("PHPhotoLibrary.requestAuthorization(for: level) { _ in }"), [
            "photos.addOnly indicative PHPhotoLibrary.requestAuthorization(for: level) (photos.addOnly or photos.read)",
            "photos.read indicative PHPhotoLibrary.requestAuthorization(for: level) (photos.addOnly or photos.read)",
        ])
        XCTAssertEqual(summary("PHPhotoLibrary.requestAuthorization { _ in }"),
                       ["photos.read definite PHPhotoLibrary.requestAuthorization()"])
        XCTAssertEqual(summary("let s = PHPhotoLibrary.authorizationStatus(for: .addOnly)"),
                       ["photos.addOnly indicative PHPhotoLibrary.authorizationStatus(for: .addOnly)"])
        XCTAssertEqual(summary("let assets = PHAsset.fetchAssets(with: .image, options: nil)"),
                       ["photos.read definite PHAsset.fetchAssets(with:options:)"])
        XCTAssertEqual(summary("UIImageWriteToSavedPhotosAlbum(image, nil, nil, nil)"),
                       ["photos.addOnly definite UIImageWriteToSavedPhotosAlbum(_:_:_:_:)"])
        XCTAssertEqual(summary("PHPhotoLibrary.shared().performChanges { PHAssetChangeRequest.creationRequestForAsset(from: image) }"),
                       ["photos.addOnly indicative PHAssetChangeRequest.creationRequestForAsset(from:)",
                        "photos.read indicative PHPhotoLibrary"])
    }

    func testPhotoPickersNeverCount() {
        let source = """
        import PhotosUI
        import SwiftUI
        var configuration = PHPickerConfiguration()
        configuration.filter = .images
        let picker = PHPickerViewController(configuration: configuration)
        struct Screen: View {
            @State var item: PhotosPickerItem?
            var body: some View { PhotosPicker("Pick", selection: $item, matching: .images) }
        }
        let contacts = CNContactPickerViewController()
        let editor = EKEventEditViewController()
        let documents = UIDocumentPickerViewController(forOpeningContentTypes: [.pdf])
        """
        XCTAssertEqual(scan(source), [])
    }

    // MARK: Location

    func testLocationRequests() {
        let source = """
        let manager = CLLocationManager()
        manager.requestWhenInUseAuthorization()
        manager.startMonitoringSignificantLocationChanges()
        manager.allowsBackgroundLocationUpdates = true
        manager.allowsBackgroundLocationUpdates = false
        manager.requestTemporaryFullAccuracyAuthorization(withPurposeKey: "Nav")
        """
        XCTAssertEqual(Set(scan(source).map { "\($0.line) \($0.capability) \($0.strength.rawValue)" }), [
            "1 location.whenInUse indicative",
            "2 location.whenInUse definite",
            "3 location.whenInUse definite", "3 location.always indicative",
            "4 location.always indicative",
            "6 location.temporaryFullAccuracy definite",
        ])
    }

    func testModernLocationAPIs() {
        XCTAssertEqual(summary("for try await update in CLLocationUpdate.liveUpdates() { print(update) }"),
                       ["location.whenInUse definite CLLocationUpdate.liveUpdates()"])
        XCTAssertEqual(summary("let monitor = await CLMonitor(\"geofences\")"),
                       ["location.whenInUse definite CLMonitor(_:)"])
        XCTAssertEqual(summary("let session = CLServiceSession(authorization: .always)"), [
            "location.always definite CLServiceSession(authorization: .always)",
            "location.whenInUse definite CLServiceSession(authorization: .always)",
        ])
        XCTAssertEqual(summary("let map = MKMapView(); map.showsUserLocation = true"), [
            "location.whenInUse indicative MKMapView.showsUserLocation = true",
        ])
        XCTAssertEqual(summary("Map(coordinateRegion: $region, showsUserLocation: true)"),
                       ["location.whenInUse indicative Map(coordinateRegion:, showsUserLocation: true)"])
        XCTAssertEqual(scan("Map(coordinateRegion: $region, showsUserLocation: false)"), [])
        XCTAssertEqual(summary("let m = CLLocationManager(); m.startRangingBeacons(satisfying: constraint)"),
                       ["location.whenInUse indicative CLLocationManager()",
                        "location.whenInUse definite CLLocationManager.startRangingBeacons(satisfying:)"])
        XCTAssertEqual(scan("let geocoder = CLGeocoder(); let map = MKMapView()"), [])
        XCTAssertEqual(scan("let status = CLAuthorizationStatus.authorizedAlways"), [])
    }

    // MARK: Contacts, calendars, reminders

    func testContacts() {
        XCTAssertEqual(summary("CNContactStore().requestAccess(for: .contacts) { _, _ in }"),
                       ["contacts definite CNContactStore.requestAccess(for: .contacts)"])
        // Each reference counts: the store's creation is weaker evidence than the call.
        XCTAssertEqual(summary("let store = CNContactStore(); try store.enumerateContacts(with: request) { _, _ in }"),
                       ["contacts indicative CNContactStore()", "contacts definite CNContactStore.enumerateContacts(with:)"])
        XCTAssertEqual(summary("let s = CNContactStore.authorizationStatus(for: .contacts)"),
                       ["contacts indicative CNContactStore"])
    }

    func testCalendarsAndReminders() {
        let store = "let store = EKEventStore()\n"
        XCTAssertEqual(scan(store), [], "EKEventStore alone backs EKEventEditViewController, which needs no access")
        XCTAssertEqual(summary(store + "let ok = try await store.requestFullAccessToEvents()"),
                       ["calendars.full definite EKEventStore.requestFullAccessToEvents()"])
        XCTAssertEqual(summary(store + "store.requestWriteOnlyAccessToEvents { _, _ in }"),
                       ["calendars.writeOnly definite EKEventStore.requestWriteOnlyAccessToEvents()"])
        XCTAssertEqual(summary(store + "store.requestAccess(to: .event) { _, _ in }"),
                       ["calendars.legacy definite EKEventStore.requestAccess(to: .event)"])
        XCTAssertEqual(summary(store + "store.requestAccess(to: .reminder) { _, _ in }"),
                       ["reminders.legacy definite EKEventStore.requestAccess(to: .reminder)"])
        XCTAssertEqual(summary(store + "store.requestAccess(to: type) { _, _ in }"), [
            "calendars.legacy indicative EKEventStore.requestAccess(to: type) (calendars.legacy or reminders.legacy)",
            "reminders.legacy indicative EKEventStore.requestAccess(to: type) (calendars.legacy or reminders.legacy)",
        ])
        XCTAssertEqual(summary(store + "let ok = try await store.requestFullAccessToReminders()"),
                       ["reminders definite EKEventStore.requestFullAccessToReminders()"])
        XCTAssertEqual(summary(store + "try store.save(event, span: .thisEvent)"),
                       ["calendars.writeOnly indicative EKEventStore.save(_:span:)"])
    }

    // MARK: Health, motion

    func testHealthShareAndUpdateFollowTheTypeSets() {
        let store = "let store = HKHealthStore()\n"
        XCTAssertEqual(summary(store), ["health.share indicative HKHealthStore()"])
        func added(_ call: String) -> Set<String> { summary(store + call).subtracting(summary(store)) }
        XCTAssertEqual(added("try await store.requestAuthorization(toShare: [], read: [steps])"),
                       ["health.share definite HKHealthStore.requestAuthorization(toShare:read:)"])
        XCTAssertEqual(added("store.requestAuthorization(toShare: [workout], read: nil) { _, _ in }"),
                       ["health.update definite HKHealthStore.requestAuthorization(toShare:read:)"])
        XCTAssertEqual(added("store.requestAuthorization(toShare: Set([workout]), read: Set<HKObjectType>()) { _, _ in }"),
                       ["health.update definite HKHealthStore.requestAuthorization(toShare:read:)"])
        XCTAssertEqual(added("store.requestAuthorization(toShare: writeTypes, read: readTypes) { _, _ in }"), [
            "health.update indicative HKHealthStore.requestAuthorization(toShare:read:)",
            "health.share indicative HKHealthStore.requestAuthorization(toShare:read:)",
        ])
        XCTAssertEqual(summary("HKHealthStore().requestAuthorization(toShare: nil, read: []) { _, _ in }"), [])
        XCTAssertEqual(summary("Text(\"Steps\").healthDataAccessRequest(store: store, shareTypes: [], readTypes: types, trigger: go) { _ in }"),
                       ["health.share indicative .healthDataAccessRequest(store:shareTypes:readTypes:trigger:)"])
        XCTAssertEqual(summary("let q = HKSampleQuery(sampleType: t, predicate: nil, limit: 1, sortDescriptors: nil) { _, _, _ in }"),
                       ["health.share definite HKSampleQuery(sampleType:predicate:limit:sortDescriptors:)"])
        XCTAssertEqual(summary("let ok = HKHealthStore.isHealthDataAvailable()"), ["health.share indicative HKHealthStore"])
    }

    func testMotion() {
        XCTAssertEqual(strongest("let p = CMPedometer(); let a = CMMotionActivityManager()"), ["motion": .definite])
        XCTAssertEqual(scan("let raw = CMMotionManager(); raw.startAccelerometerUpdates()"), [],
                       "raw sensor streams are not behind the motion prompt")
    }

    // MARK: Connectivity

    func testBluetoothCreatingAManagerIsDefinite() {
        XCTAssertEqual(summary("let central = CBCentralManager(delegate: self, queue: nil)"), [
            "bluetooth definite CBCentralManager(delegate:queue:)",
            "bluetooth.legacy definite CBCentralManager(delegate:queue:)",
        ])
        XCTAssertEqual(summary("let state = CBCentralManager.authorization"), [
            "bluetooth indicative CBCentralManager", "bluetooth.legacy indicative CBCentralManager",
        ])
    }

    func testNFCHomeKitNearbyLocalNetwork() {
        XCTAssertEqual(strongest("let s = NFCNDEFReaderSession(delegate: self, queue: nil, invalidateAfterFirstRead: true)"),
                       ["nfc": .definite])
        XCTAssertEqual(strongest("let s = NFCTagReaderSession(pollingOption: .iso14443, delegate: self)"), ["nfc": .definite])
        XCTAssertEqual(strongest("let home = HMHomeManager()"), ["homekit": .definite])
        XCTAssertEqual(strongest("let session = NISession()"),
                       ["nearby_interaction": .definite, "nearby_interaction.legacy": .indicative])
        XCTAssertEqual(strongest("let browser = NWBrowser(for: .bonjour(type: \"_x._tcp\", domain: nil), using: .tcp)"),
                       ["local_network": .definite])
        XCTAssertEqual(strongest("let browser = NetServiceBrowser()"), ["local_network": .definite])
        XCTAssertEqual(strongest("DNSServiceBrowse(&ref, 0, 0, \"_x._tcp\", nil, callback, nil)"), ["local_network": .definite])
    }

    // MARK: System services

    func testFaceIDNeedsEvaluatePolicyNotCanEvaluate() {
        let context = "let context = LAContext()\n"
        XCTAssertEqual(scan(context + "if context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: nil) {}"), [])
        XCTAssertEqual(scan(context + "let kind = context.biometryType"), [])
        XCTAssertEqual(summary(context + "context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: r) { _, _ in }"),
                       ["faceid definite LAContext.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason:)"])
        XCTAssertEqual(summary("try await LAContext().evaluatePolicy(LAPolicy.deviceOwnerAuthentication, localizedReason: r)"),
                       ["faceid definite LAContext.evaluatePolicy(.deviceOwnerAuthentication, localizedReason:)"])
        XCTAssertEqual(scan(context + "context.evaluatePolicy(.deviceOwnerAuthenticationWithWatch, localizedReason: r) { _, _ in }"), [])
        XCTAssertEqual(summary(context + "context.evaluatePolicy(policy, localizedReason: r) { _, _ in }"),
                       ["faceid indicative LAContext.evaluatePolicy(policy, localizedReason:) (faceid or none)"])
        XCTAssertEqual(summary("let access = SecAccessControlCreateWithFlags(nil, protection, .biometryAny, nil)"),
                       ["faceid indicative SecAccessControlCreateWithFlags(_:_:_:_:)"])
    }

    func testTrackingNeedsTheRequestNotTheAdvertisingIdentifier() {
        XCTAssertEqual(summary("ATTrackingManager.requestTrackingAuthorization { _ in }"),
                       ["tracking definite ATTrackingManager.requestTrackingAuthorization()"])
        XCTAssertEqual(summary("let status = await ATTrackingManager.requestTrackingAuthorization()"),
                       ["tracking definite ATTrackingManager.requestTrackingAuthorization()"])
        XCTAssertEqual(summary("let status = ATTrackingManager.trackingAuthorizationStatus"),
                       ["tracking indicative ATTrackingManager"])
        XCTAssertEqual(scan("let idfa = ASIdentifierManager.shared().advertisingIdentifier"), [],
                       "reading the IDFA needs no key (catalog look-alike)")
    }

    func testSiriFocusTVProviderGameCenterAlarmKitSensorKitWallet() {
        XCTAssertEqual(summary("INPreferences.requestSiriAuthorization { _ in }"),
                       ["siri definite INPreferences.requestSiriAuthorization()"])
        XCTAssertEqual(summary("INFocusStatusCenter.default.requestAuthorization { _ in }"),
                       ["focus definite INFocusStatusCenter.requestAuthorization()"])
        XCTAssertEqual(strongest("let m = VSAccountManager()"), ["tv_provider": .definite])
        XCTAssertEqual(summary("GKLocalPlayer.local.loadFriends { _, _ in }"),
                       ["gamecenter.friends definite GKLocalPlayer.loadFriends()"])
        XCTAssertEqual(summary("let state = try await AlarmManager.shared.requestAuthorization()"),
                       ["alarmkit definite AlarmManager.requestAuthorization()"])
        XCTAssertEqual(summary("SRSensorReader.requestAuthorization(sensors: [.ambientLightSensor]) { _ in }"),
                       ["sensorkit definite SRSensorReader.requestAuthorization(sensors:)"])
        XCTAssertEqual(strongest("let c = PKIdentityAuthorizationController()"), ["wallet.identity": .definite])
        XCTAssertEqual(summary("let status = try await FinanceStore.shared.requestAuthorization()"),
                       ["wallet.financialData definite FinanceStore.requestAuthorization()"])
        XCTAssertEqual(strongest("let hands = HandTrackingProvider()"), ["visionos.handTracking": .definite])
    }

    // MARK: Coverage of the catalog

    /// Capabilities of the standard catalog the scanner deliberately does not report.
    static let deliberatelySkipped: [String: String] = [
        "location.macOS": "macOS-only key; its only trigger, CLLocationManager, is in every iOS location source, and the scanner does not know the target's platform.",
        "macos.appleEvents": "macOS-only (Apple Events); Preflight audits iOS apps and the scanner does not know the target's platform.",
        "macos.systemExtension": "macOS-only (system extensions).",
        "macos.audioCapture": "macOS-only (system audio capture).",
    ]

    func testEveryCatalogCapabilityWithTriggersIsCoveredOrSkippedWithAReason() {
        let catalog = ProtectedResourceCatalog.standard
        let index = SwiftAPIIndex.standard
        var covered = Set<String>()
        for uses in index.typeReferences.values { covered.formUnion(uses.map(\.capability)) }
        for entries in [index.methods, index.properties, index.assignments, index.initializers, index.functions] {
            for list in entries.values { for entry in list { covered.formUnion(entry.capabilities) } }
        }
        var missing: [String] = []
        for resource in catalog.resources where !resource.triggers.isEmpty {
            let capability = resource.capability
            if covered.contains(capability) {
                XCTAssertNil(Self.deliberatelySkipped[capability], "\(capability) is covered and listed as skipped")
            } else if Self.deliberatelySkipped[capability] == nil {
                missing.append(capability)
            }
        }
        XCTAssertEqual(missing, [], "capabilities neither covered nor skipped with a reason")
        for capability in Self.deliberatelySkipped.keys {
            XCTAssertNotNil(catalog.resource(forCapability: capability), "\(capability) is not in the catalog")
        }
    }

    func testTableUsesCatalogCapabilitiesAndKeys() {
        let catalog = ProtectedResourceCatalog.detection
        for entry in SwiftAPITable.entries {
            for capability in entry.capabilities {
                let resource = catalog.resource(forCapability: capability)
                XCTAssertNotNil(resource, "\(entry.name): \(capability) is not a catalog capability")
                if let resource { XCTAssertTrue(SwiftAPIIndex.isReported(resource), "\(capability) is never reported") }
            }
        }
        for usage in scan("AVCaptureDevice.requestAccess(for: .video) { _ in }; CLLocationManager().requestAlwaysAuthorization()") {
            XCTAssertEqual(catalog.resource(forCapability: usage.capability)?.key, usage.key)
        }
    }

    func testTableReceiversAreTypeNames() {
        for entry in SwiftAPITable.entries where entry.kind == .method && !entry.receivers.isEmpty {
            XCTAssertFalse(entry.name.isEmpty)
            XCTAssertTrue(entry.receivers.allSatisfy(FileContext.isTypeName), "\(entry.name): receivers are types")
        }
    }
}
