extension ProtectedResourceCatalog {
    /// `requestAccessForMediaType:` and `authorizationStatusForMediaType:` take
    /// `AVMediaTypeVideo` or `AVMediaTypeAudio`; the selector alone cannot tell which.
    static let mediaTypeArgumentNote =
        "Ambiguous between camera and microphone: the media-type argument decides."

    static let mediaCaptureResources: [ProtectedResource] = [
        ProtectedResource(
            key: "NSCameraUsageDescription", capability: "camera",
            resource: "Camera (still and video capture)",
            platforms: [.iOS, .macCatalyst, .macOS, .tvOS, .visionOS], minimumOS: "iOS 7.0",
            triggers: Triggers(
                objcClasses: [
                    .indicative("AVCaptureDevice", note: "Also used for microphone capture, device discovery and the torch."),
                    .indicative("AVCaptureSession", note: "Can be an audio-only session."),
                    .indicative("AVCaptureDeviceInput", note: "Can wrap a microphone."),
                    .indicative("AVCaptureMultiCamSession"),
                    .definite("AVCapturePhotoOutput"),
                    .definite("AVCaptureStillImageOutput"),
                    .definite("AVCaptureVideoDataOutput"),
                    .definite("AVCaptureVideoPreviewLayer"),
                    .definite("AVCaptureMetadataOutput", note: "Barcode scanning from the camera."),
                    .definite("VNDocumentCameraViewController"),
                    .definite("ARSession", note: "ARKit on iOS always runs the camera."),
                    .indicative("ARSCNView"),
                    .indicative("ARSKView"),
                ],
                selectors: [
                    .indicative("requestAccessForMediaType:completionHandler:", note: mediaTypeArgumentNote),
                    .indicative("authorizationStatusForMediaType:", note: mediaTypeArgumentNote + " Reading the status shows no prompt."),
                    .indicative("setCameraDevice:", with: "UIImagePickerController",
                                note: "Camera-only setting of UIImagePickerController; the source type itself is an integer, invisible in a binary."),
                    .indicative("setCameraCaptureMode:", with: "UIImagePickerController"),
                    .indicative("setShowsCameraControls:", with: "UIImagePickerController"),
                    .indicative("setCameraOverlayView:", with: "UIImagePickerController"),
                ],
                swiftSymbols: [
                    .swift("9VisionKit25DataScannerViewControllerC", "VisionKit.DataScannerViewController", .definite),
                    .swift("10RealityKit6ARViewC", "RealityKit.ARView", .indicative,
                           note: "ARView also renders without the camera (cameraMode .nonAR)."),
                ]),
            notes: "tvOS 17+ (Continuity Camera). UIImagePickerController needs the key only with the .camera source.",
            source: protectedResourcesPage, confidence: .high),

        ProtectedResource(
            key: "NSMicrophoneUsageDescription", capability: "microphone",
            resource: "Microphone (audio input)",
            platforms: [.iOS, .macCatalyst, .macOS, .tvOS, .visionOS, .watchOS],
            triggers: Triggers(
                objcClasses: [
                    .definite("AVAudioRecorder"),
                ],
                selectors: [
                    .definite("requestRecordPermission:", note: "AVAudioSession."),
                    .definite("requestRecordPermissionWithCompletionHandler:", note: "AVAudioApplication, iOS 17+."),
                    .indicative("inputNode", with: "AVAudioEngine", note: "AVAudioEngine is mostly used for playback; only the input node records."),
                    .indicative("requestAccessForMediaType:completionHandler:", note: mediaTypeArgumentNote),
                    .indicative("authorizationStatusForMediaType:", note: mediaTypeArgumentNote + " Reading the status shows no prompt."),
                ],
                cFunctions: [
                    .definite("_AudioQueueNewInput"),
                    .indicative("_AVAudioSessionCategoryRecord", note: "Data symbol: the record category constant."),
                    .indicative("_AVAudioSessionCategoryPlayAndRecord", note: "Data symbol; apps also pick this category for output routing alone."),
                ]),
            source: protectedResourcesPage, confidence: .high),

        ProtectedResource(
            key: "NSPhotoLibraryUsageDescription", capability: "photos.read",
            resource: "Photo library (read and write)",
            platforms: [.iOS, .macCatalyst, .macOS, .tvOS, .visionOS],
            triggers: Triggers(
                objcClasses: [
                    .indicative("PHPhotoLibrary", note: "Also used to add photos (add-only) and to configure the out-of-process picker."),
                    .indicative("PHAsset"),
                    .indicative("PHAssetCollection"),
                    .indicative("PHFetchResult"),
                    .indicative("PHImageManager"),
                    .indicative("PHCachingImageManager"),
                    .definite("ALAssetsLibrary", note: "Deprecated since iOS 9; any use asks for full library access."),
                ],
                selectors: [
                    .indicative("requestAuthorization:", with: "PHPhotoLibrary",
                                note: "Legacy read-write request; the selector is shared with Speech, Media Player and StoreKit classes."),
                    .indicative("requestAuthorizationForAccessLevel:handler:",
                                note: "Ambiguous between read-write and add-only: the PHAccessLevel argument decides."),
                    .definite("presentLimitedLibraryPickerFromViewController:"),
                    .definite("presentLimitedLibraryPickerFromViewController:completionHandler:"),
                    .definite("fetchAssetsWithOptions:", with: "PHAsset"),
                    .definite("fetchAssetsWithMediaType:options:", with: "PHAsset"),
                    .definite("fetchAssetsWithLocalIdentifiers:options:", with: "PHAsset",
                              note: "Also after the photo picker: fetching PHAssets by identifier needs library access."),
                    .definite("fetchAssetsInAssetCollection:options:", with: "PHAsset"),
                    .definite("fetchAssetCollectionsWithType:subtype:options:", with: "PHAssetCollection"),
                ]),
            notes: "Not needed for PHPickerViewController, PhotosPicker or UIImagePickerController's photo-library source on iOS 11+.",
            source: protectedResourcesPage, confidence: .high),

        ProtectedResource(
            key: "NSPhotoLibraryAddUsageDescription", capability: "photos.addOnly",
            resource: "Photo library (add only)",
            platforms: [.iOS, .macCatalyst, .visionOS], minimumOS: "iOS 11.0",
            triggers: Triggers(
                objcClasses: [
                    .indicative("PHAssetCreationRequest", note: "Read-write authorization covers adding too."),
                ],
                selectors: [
                    .indicative("requestAuthorizationForAccessLevel:handler:",
                                note: "Ambiguous between read-write and add-only: the PHAccessLevel argument decides."),
                    .indicative("creationRequestForAssetFromImage:", with: "PHAssetChangeRequest"),
                    .indicative("creationRequestForAssetFromImageAtFileURL:", with: "PHAssetChangeRequest"),
                    .indicative("creationRequestForAssetFromVideoAtFileURL:", with: "PHAssetChangeRequest"),
                ],
                cFunctions: [
                    .definite("_UIImageWriteToSavedPhotosAlbum"),
                    .definite("_UISaveVideoAtPathToSavedPhotosAlbum"),
                ]),
            notes: "The share sheet's Save Image action also needs it; UIActivityViewController is too common to be a trigger.",
            source: protectedResourcesPage, confidence: .high),

        ProtectedResource(
            key: "NSSpeechRecognitionUsageDescription", capability: "speech",
            resource: "Speech recognition",
            platforms: [.iOS, .macCatalyst, .macOS, .visionOS],
            related: [RelatedRequirement(.infoPlistKey, "NSMicrophoneUsageDescription", when: "recognizing live audio")],
            triggers: Triggers(
                objcClasses: [
                    .indicative("SFSpeechRecognizer", note: "Also read for supported locales and status."),
                    .definite("SFSpeechAudioBufferRecognitionRequest"),
                    .definite("SFSpeechURLRecognitionRequest"),
                ],
                selectors: [
                    .definite("requestAuthorization:", with: "SFSpeechRecognizer"),
                ]),
            source: protectedResourcesPage, confidence: .high),

        ProtectedResource(
            key: "NSAppleMusicUsageDescription", capability: "media_library",
            resource: "Media library and Apple Music",
            platforms: [.iOS, .macCatalyst, .macOS, .tvOS, .visionOS],
            triggers: Triggers(
                objcClasses: [
                    .indicative("MPMediaLibrary"),
                    .definite("MPMediaQuery"),
                    .indicative("SKCloudServiceController"),
                ],
                selectors: [
                    .definite("requestAuthorization:", with: "MPMediaLibrary"),
                    .definite("requestAuthorization:", with: "SKCloudServiceController"),
                ],
                swiftSymbols: [
                    .swift("8MusicKit0A13AuthorizationO", "MusicKit.MusicAuthorization", .indicative,
                           note: "MusicAuthorization.request(); currentStatus alone shows no prompt."),
                ]),
            source: protectedResourcesPage, confidence: .high),
    ]
}
