extension ProtectedResourceCatalog {
    static let noPermissionLookAlikes: [NoPermissionLookAlike] = [
        NoPermissionLookAlike(
            api: "PHPickerViewController (PhotosUI, iOS 14+)", kind: .objcClass,
            names: ["PHPickerViewController", "PHPickerConfiguration", "PHPickerResult", "PHPickerFilter"],
            resembles: "photos.read",
            reason: "Out-of-process picker; the app receives only what the user picked. Fetching PHAssets by assetIdentifier still needs library access.",
            source: "https://developer.apple.com/videos/play/wwdc2020/10652/", confidence: .high),
        NoPermissionLookAlike(
            api: "PhotosPicker (SwiftUI, iOS 16+)", kind: .swiftSymbol,
            // Where PhotosPicker is declared (PhotosUI or its SwiftUI cross-import overlay) is
            // not confirmed; both manglings are listed. Word substitution turns
            // "Photos" in "PhotosPicker" into `0A`.
            names: ["8PhotosUI0A6PickerV", "8PhotosUI0A10PickerItemV", "015_PhotosUI_SwiftB00A6PickerV"],
            resembles: "photos.read",
            reason: "SwiftUI front end of the same out-of-process system picker.",
            source: "WWDC22 \"What's new in the Photos picker\"", confidence: .high),
        NoPermissionLookAlike(
            api: "UIImagePickerController with the photo-library source (iOS 11+)", kind: .objcClass,
            names: ["UIImagePickerController"],
            resembles: "photos.read",
            reason: "Runs out of process since iOS 11. The .camera source still needs the camera key; its camera-only setters are camera triggers.",
            source: "https://github.com/KrauseFx/detect.location/issues/6", confidence: .medium),
        NoPermissionLookAlike(
            api: "CNContactPickerViewController (ContactsUI)", kind: .objcClass,
            names: ["CNContactPickerViewController"],
            resembles: "contacts",
            reason: "Out-of-process picker; the app receives only the chosen contacts.",
            source: "Apple ContactsUI documentation", confidence: .medium),
        NoPermissionLookAlike(
            api: "EKEventEditViewController (EventKitUI) on iOS 17+", kind: .objcClass,
            names: ["EKEventEditViewController", "EKEventStore"],
            resembles: "calendars.writeOnly",
            reason: "Creates events without calendar access; it needs an EKEventStore, so the store class alone proves nothing.",
            source: "https://developer.apple.com/documentation/bundleresources/information-property-list/nscalendarswriteonlyaccessusagedescription",
            confidence: .high),
        NoPermissionLookAlike(
            api: "UIDocumentPickerViewController / SwiftUI fileImporter", kind: .objcClass,
            names: ["UIDocumentPickerViewController"],
            resembles: nil,
            reason: "The user grants security-scoped URLs; no purpose string exists for it.",
            source: "github:cgutierr-zgz/apple_required_reasons_api_generator:assets/assets/required_apis.json",
            confidence: .medium),
        NoPermissionLookAlike(
            api: "LAContext without evaluatePolicy (canEvaluatePolicy, biometryType)", kind: .selector,
            names: ["canEvaluatePolicy:error:", "biometryType"],
            resembles: "faceid",
            reason: "Asking whether biometrics are available shows no Face ID prompt.",
            source: "https://developer.apple.com/documentation/bundleresources/information-property-list/nsfaceidusagedescription",
            confidence: .medium),
        NoPermissionLookAlike(
            api: "LAContext (Touch ID)", kind: .objcClass,
            names: ["LAContext"],
            resembles: "faceid",
            reason: "Only Face ID needs NSFaceIDUsageDescription; the class is shared with Touch ID and passcode checks.",
            source: "https://developer.apple.com/documentation/bundleresources/information-property-list/nsfaceidusagedescription",
            confidence: .medium),
        NoPermissionLookAlike(
            api: "CMMotionManager raw accelerometer, gyroscope and magnetometer", kind: .objcClass,
            names: ["CMMotionManager"],
            resembles: "motion",
            reason: "Raw sensor streams are not behind the Motion & Fitness prompt; activity and pedometer data are.",
            source: "general platform behaviour (not re-verified)", confidence: .low),
        NoPermissionLookAlike(
            api: "CLGeocoder (address and coordinate lookups)", kind: .objcClass,
            names: ["CLGeocoder"],
            resembles: "location.whenInUse",
            reason: "Geocoding sends the addresses or coordinates the app passes in; it does not read the device's location.",
            source: "platform behaviour; not in purpose-strings.json", confidence: .medium),
        NoPermissionLookAlike(
            api: "MKMapView without showsUserLocation", kind: .objcClass,
            names: ["MKMapView"],
            resembles: "location.whenInUse",
            reason: "Showing a map reads no location; setting showsUserLocation is the trigger.",
            source: "platform behaviour; not in purpose-strings.json", confidence: .medium),
        NoPermissionLookAlike(
            api: "ASIdentifierManager (advertising identifier)", kind: .objcClass,
            names: ["ASIdentifierManager"],
            resembles: "tracking",
            reason: "Reading the IDFA shows no prompt (it is zeros without authorization); only the ATT request needs the key.",
            source: protectedResourcesPage, confidence: .medium),
    ]
}
