import XCTest
import Formats
@testable import Evidence

final class ObjCSourceScannerTests: XCTestCase {
    /// Uses of purpose-string and required-reason APIs (feature APIs: FeatureAPITests).
    func scan(_ source: String, definitions: [String: String] = [:]) -> [SourceUsage] {
        // Data-at-rest facts have their own tests (ObjCSecurityFactsTests).
        ObjCSourceScanner.scan(source: source, path: "Test.m", definitions: definitions)
            .filter { !ProtectedResourceCatalog.FeatureAPI.isFeature($0.capability) && !ProtectedResourceCatalog.Security.isSecurity($0.capability) }
    }

    /// `capability strength api line:column`, with ` debug` for code that does not ship.
    func summary(_ source: String, definitions: [String: String] = [:]) -> [String] {
        scan(source, definitions: definitions).map {
            "\($0.capability) \($0.strength.rawValue) \($0.api) \($0.line):\($0.column)\($0.ships ? "" : " debug")"
        }
    }

    func capabilities(_ source: String) -> Set<String> {
        Set(scan(source).map { "\($0.capability) \($0.strength.rawValue)" })
    }

    // MARK: classes

    func testClassInDeclarationAndMessageSend() {
        XCTAssertEqual(summary("""
            #import <CoreLocation/CoreLocation.h>
            @interface Tracker : NSObject
            @property (nonatomic) CLLocationManager *manager;
            @end
            CLLocationManager *m = [CLLocationManager new];
            """), [
                "location.whenInUse indicative CLLocationManager 3:23",
                "location.whenInUse indicative CLLocationManager 5:1",
            ], "one report per line; no macOS-only key for an iOS scan; the import is no use")
    }

    func testForwardDeclarationAndImportAreNoUse() {
        XCTAssertEqual(summary("""
            #import <CoreLocation/CoreLocation.h>
            #include "CLLocationManager.h"
            @class CLLocationManager, CNContactStore;
            @protocol CLLocationManagerDelegate;
            """), [])
    }

    func testNestedAllocInitIsTheClass() {
        XCTAssertEqual(summary("CNContactStore *store = [[CNContactStore alloc] init];"),
                       ["contacts indicative CNContactStore 1:1"])
        XCTAssertEqual(summary("""
            id s = [[[CNContactStore alloc] init] requestAccessForEntityType:CNEntityTypeContacts
                                                           completionHandler:^(BOOL granted, NSError *e) {}];
            """), [
                "contacts indicative CNContactStore 1:11",
                "contacts definite [CNContactStore requestAccessForEntityType:completionHandler:] 1:39",
            ])
    }

    func testLocallyDeclaredClassDoesNotCount() {
        let source = """
            @interface CLLocationManager : NSObject
            - (void)startUpdatingLocation;
            @end
            @implementation CLLocationManager
            - (void)startUpdatingLocation {}
            @end
            void f(void) { CLLocationManager *m = [CLLocationManager new]; [m startUpdatingLocation]; }
            """
        XCTAssertEqual(summary(source), [])
        XCTAssertEqual(summary("class CNContactStore { public: void load(); };\nCNContactStore store;"), [])
    }

    func testCategoryOnAFrameworkClassCounts() {
        XCTAssertEqual(summary("@interface CLLocationManager (Helpers)\n@end"),
                       ["location.whenInUse indicative CLLocationManager 1:12"])
    }

    // MARK: selectors

    func testUnarySelectorNeedsItsCompanionClass() {
        XCTAssertEqual(summary("void f(id m) { [m startUpdatingLocation]; }"), [],
                       "startUpdatingLocation counts only alongside CLLocationManager")
        XCTAssertEqual(summary("""
            @property CLLocationManager *manager;
            - (void)go { [self.manager startUpdatingLocation]; }
            """), [
                "location.whenInUse indicative CLLocationManager 1:11",
                "location.whenInUse definite [CLLocationManager startUpdatingLocation] 2:28",
            ])
    }

    func testReceiverOfAnotherClassDoesNotCount() {
        XCTAssertEqual(summary("""
            CLLocationManager *unused;
            [LocationHelper startUpdatingLocation];
            [SHARED_MANAGER startUpdatingLocation];
            """), [
                "location.whenInUse indicative CLLocationManager 1:1",
                "location.whenInUse definite [CLLocationManager startUpdatingLocation] 3:17",
            ], "a capitalized receiver is a class; an all-caps one may be a macro for an instance")
    }

    func testRequestAlwaysAuthorizationNamesBothKeys() {
        XCTAssertEqual(summary("[self.locationManager requestAlwaysAuthorization];"), [
            "location.always definite [self.locationManager requestAlwaysAuthorization] 1:23",
            "location.alwaysLegacy definite [self.locationManager requestAlwaysAuthorization] 1:23",
            "location.whenInUse definite [self.locationManager requestAlwaysAuthorization] 1:23",
        ])
        XCTAssertEqual(summary("CLLocationManager *m; [m requestAlwaysAuthorization];").filter { $0.contains("[") }, [
            "location.always definite [CLLocationManager requestAlwaysAuthorization] 1:26",
            "location.alwaysLegacy definite [CLLocationManager requestAlwaysAuthorization] 1:26",
            "location.whenInUse definite [CLLocationManager requestAlwaysAuthorization] 1:26",
        ])
    }

    func testMultiPartSelectorAcrossNestedBracketsAndBlocks() {
        XCTAssertEqual(summary("""
            [AVCaptureDevice requestAccessForMediaType:AVMediaTypeVideo completionHandler:^(BOOL granted) {
                dispatch_async(dispatch_get_main_queue(), ^{ [self.delegate cameraAllowed:granted]; });
            }];
            """), [
                "camera indicative AVCaptureDevice 1:2",
                "camera definite [AVCaptureDevice requestAccessForMediaType:completionHandler:] 1:18",
            ])
    }

    func testMediaTypeArgumentDecidesCameraOrMicrophone() {
        XCTAssertEqual(capabilities("[AVCaptureDevice requestAccessForMediaType:AVMediaTypeAudio completionHandler:nil];"),
                       ["camera indicative", "microphone definite"])
        XCTAssertEqual(capabilities("[AVCaptureDevice requestAccessForMediaType:(AVMediaType)kind completionHandler:nil];"),
                       ["camera indicative", "microphone indicative"], "an unknown argument stays ambiguous")
        XCTAssertEqual(capabilities("[AVCaptureDevice authorizationStatusForMediaType:AVMediaTypeVideo];"),
                       ["camera indicative"], "a status read stays indicative")
    }

    func testPhotoAccessLevelDecidesReadWriteOrAddOnly() {
        XCTAssertEqual(summary("[PHPhotoLibrary requestAuthorizationForAccessLevel:PHAccessLevelAddOnly handler:^(PHAuthorizationStatus s) {}];"), [
            "photos.read indicative PHPhotoLibrary 1:2",
            "photos.addOnly definite [PHPhotoLibrary requestAuthorizationForAccessLevel:handler:] 1:17",
        ])
        XCTAssertEqual(capabilities("[PHPhotoLibrary requestAuthorizationForAccessLevel:PHAccessLevelReadWrite handler:nil];"),
                       ["photos.read indicative", "photos.read definite"])
    }

    func testTernaryInsideArgumentsKeepsKeywordParts() {
        XCTAssertEqual(capabilities("[store requestAccessToEntityType:flag ? EKEntityTypeEvent : EKEntityTypeReminder completion:nil];"),
                       ["calendars.legacy definite", "reminders.legacy definite"])
        XCTAssertEqual(capabilities("[store requestAccessToEntityType:EKEntityTypeReminder completion:^(BOOL ok, NSError *e) { x = ok ? 1 : 2; }];"),
                       ["reminders.legacy definite"])
    }

    func testSharedSelectorUsesTheReceiverClass() {
        let source = """
            SFSpeechRecognizer *r;
            [PHPhotoLibrary requestAuthorization:^(PHAuthorizationStatus s) {}];
            [[self recognizerClass] requestAuthorization:nil];
            """
        let requests = summary(source).filter { $0.contains("requestAuthorization:") }
        XCTAssertEqual(requests, [
            "photos.read indicative [PHPhotoLibrary requestAuthorization:] 2:17",
            "photos.read indicative [PHPhotoLibrary requestAuthorization:] 3:25",
            "speech indicative [SFSpeechRecognizer requestAuthorization:] 3:25",
        ], "known receiver: its own rule only; unknown receiver with both classes named: ambiguous")
    }

    func testCastAndControlStatementReceivers() {
        XCTAssertEqual(summary("""
            CLLocationManager *m;
            if (ok) [(CLLocationManager *)obj requestLocation];
            """), [
                "location.whenInUse indicative CLLocationManager 1:1",
                "location.whenInUse indicative CLLocationManager 2:11",
                "location.whenInUse definite [CLLocationManager requestLocation] 2:35",
            ])
    }

    func testSelectorExpression() {
        XCTAssertEqual(summary("if ([m respondsToSelector:@selector(requestWhenInUseAuthorization)]) {}"),
                       ["location.whenInUse definite @selector(requestWhenInUseAuthorization) 1:27"])
        XCTAssertEqual(summary("SEL s = @selector(requestAccessForMediaType:completionHandler:);").count, 2)
    }

    func testDotSyntaxProperties() {
        XCTAssertEqual(summary("""
            MKMapView *map;
            self.map.showsUserLocation = YES;
            BOOL shown = self.map.showsUserLocation;
            """), ["location.whenInUse indicative [MKMapView setShowsUserLocation:] 2:10"],
            "MKMapView alone is a look-alike; only the setter counts")
        XCTAssertEqual(summary("AVAudioEngine *engine; AVAudioInputNode *input = engine.inputNode;"),
                       ["microphone indicative [AVAudioEngine inputNode] 1:57"])
    }

    func testCFunctionsWithoutMachOUnderscore() {
        XCTAssertEqual(summary("""
            ABAddressBookRef book = ABAddressBookCreateWithOptions(NULL, NULL);
            OSStatus s = AudioQueueNewInput(&format, callback, NULL, NULL, NULL, 0, &queue);
            void (*fp)(void) = _ABAddressBookCreate;
            """), [
                "contacts definite ABAddressBookCreateWithOptions() 1:25",
                "microphone definite AudioQueueNewInput() 2:14",
            ])
        XCTAssertEqual(summary("[session setCategory:AVAudioSessionCategoryPlayAndRecord error:nil];"),
                       ["microphone indicative AVAudioSessionCategoryPlayAndRecord 1:22"])
    }

    func testImagePickerSourceType() {
        XCTAssertEqual(summary("""
            UIImagePickerController *picker = [UIImagePickerController new];
            picker.sourceType = UIImagePickerControllerSourceTypeCamera;
            [picker setSourceType:UIImagePickerControllerSourceTypeCamera];
            if ([UIImagePickerController isSourceTypeAvailable:UIImagePickerControllerSourceTypeCamera]) {}
            """), [
                "camera definite UIImagePickerControllerSourceTypeCamera 2:21",
                "camera definite UIImagePickerControllerSourceTypeCamera 3:23",
                "camera indicative UIImagePickerControllerSourceTypeCamera 4:52",
            ])
        XCTAssertEqual(summary("""
            UIImagePickerController *picker = [UIImagePickerController new];
            picker.sourceType = UIImagePickerControllerSourceTypePhotoLibrary;
            """), [], "the photo-library picker runs out of process")
    }

    func testLookAlikesNeverCount() {
        XCTAssertEqual(summary("""
            PHPickerViewController *p = [[PHPickerViewController alloc] initWithConfiguration:[PHPickerConfiguration new]];
            CNContactPickerViewController *c = [CNContactPickerViewController new];
            LAContext *context = [LAContext new];
            if ([context canEvaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics error:&error]) {}
            CLGeocoder *g; ASIdentifierManager *a; CMMotionManager *mm; UIDocumentPickerViewController *d;
            """), [])
        XCTAssertEqual(summary("""
            LAContext *context = [LAContext new];
            [context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:@"Unlock" reply:^(BOOL ok, NSError *e) {}];
            """), ["faceid definite [LAContext evaluatePolicy:localizedReason:reply:] 2:10"])
    }

    func testBluetoothManagerCreation() {
        XCTAssertEqual(capabilities("self.central = [[CBCentralManager alloc] initWithDelegate:self queue:nil];"),
                       ["bluetooth indicative", "bluetooth definite", "bluetooth.legacy indicative", "bluetooth.legacy definite"])
    }

    // MARK: what the lexer skips

    func testCommentsAndStringsAreNoUse() {
        XCTAssertEqual(summary(#"""
            // [self.m requestWhenInUseAuthorization]; CLLocationManager
            /* [CLLocationManager new];
               ABAddressBookCreate(); */
            NSString *a = @"[CLLocationManager requestWhenInUseAuthorization]";
            const char *b = "ABAddressBookCreate() \" CNContactStore";
            char c = '['; char d = '\'';
            NSString *e = NSStringFromClass(@"CLLocationManager");
            """#), [])
    }

    func testCPlusPlusRawStringsAndSeparators() {
        XCTAssertEqual(summary(#"""
            auto s = R"js( [CLLocationManager requestLocation]; " ABAddressBookCreate() )js";
            auto t = u8R"(CNContactStore)";
            int big = 1'000'000; auto l = [&](int x) { return x; }; int v = values[0];
            [[nodiscard]] int g();
            CNContactStore *store;
            """#), ["contacts indicative CNContactStore 5:1"])
    }

    // MARK: preprocessor

    func testIfZeroIsNeverScanned() {
        XCTAssertEqual(summary("""
            #if 0
            [CLLocationManager new];
            #if 1
            ABAddressBookCreate();
            #endif
            #elif 0
            CNContactStore *a;
            #else
            CNContactStore *b;
            #endif
            """), ["contacts indicative CNContactStore 9:1"])
    }

    func testDebugAndSimulatorCodeDoesNotShip() {
        XCTAssertEqual(summary("""
            #if DEBUG
            CLLocationManager *a;
            #else
            CNContactStore *b;
            #endif
            #ifdef DEBUG
            ABAddressBookCreate();
            #endif
            #if TARGET_OS_SIMULATOR
            CBCentralManager *c;
            #elif TARGET_IPHONE_SIMULATOR
            CBPeripheralManager *d;
            #endif
            #if !TARGET_OS_SIMULATOR && !defined(DEBUG)
            HMHomeManager *h;
            #endif
            """), [
                "location.whenInUse indicative CLLocationManager 2:1 debug",
                "contacts indicative CNContactStore 4:1",
                "contacts definite ABAddressBookCreate() 7:1 debug",
                "bluetooth indicative CBCentralManager 10:1 debug",
                "bluetooth.legacy indicative CBCentralManager 10:1 debug",
                "bluetooth indicative CBPeripheralManager 12:1 debug",
                "bluetooth.legacy indicative CBPeripheralManager 12:1 debug",
                "homekit definite HMHomeManager 15:1",
            ])
    }

    func testUnknownMacrosMayShip() {
        XCTAssertEqual(summary("""
            #if USE_LOCATION && __has_include(<CoreLocation/CoreLocation.h>)
            CLLocationManager *a;
            #elif defined(STAGING) || DEBUG
            CNContactStore *b;
            #endif
            """), [
                "location.whenInUse indicative CLLocationManager 2:1",
                "contacts indicative CNContactStore 4:1",
            ])
    }

    func testDefinitionsAndDefinesOverride() {
        let source = """
            #if DEBUG
            CLLocationManager *a;
            #endif
            #if FEATURE_CONTACTS
            CNContactStore *b;
            #endif
            """
        XCTAssertEqual(summary(source, definitions: ["DEBUG": "1", "FEATURE_CONTACTS": "0"]),
                       ["location.whenInUse indicative CLLocationManager 2:1"])
        XCTAssertEqual(summary("#define FEATURE_CONTACTS 0\n" + source),
                       ["location.whenInUse indicative CLLocationManager 3:1 debug"])
        XCTAssertEqual(summary("#ifndef DEBUG\n#define DEBUG 0\n#endif\n" + source).count, 2,
                       "DEBUG 0 in release keeps DEBUG code out of the shipping build")
    }

    func testLineContinuations() {
        XCTAssertEqual(summary("""
            #if 0 \\
                || 1
            int x = 1 + \\
               2; CNContactStore *s;
            #endif
            #define REQUEST [self.locationManager \\
                requestWhenInUseAuthorization]
            """), [
                "contacts indicative CNContactStore 4:7",
                "location.whenInUse definite [self.locationManager requestWhenInUseAuthorization] 7:5",
            ])
    }

    func testMacroBodyIsReadApart() {
        XCTAssertEqual(summary("""
            #define OPEN [foo bar:
            CNContactStore *s;
            """), ["contacts indicative CNContactStore 2:1"])
    }

    func testElifChainStopsAfterATakenBranch() {
        XCTAssertEqual(summary("""
            #if 1
            CNContactStore *a;
            #elif 1
            CLLocationManager *b;
            #else
            HMHomeManager *c;
            #endif
            #if UNKNOWN
            #elif 1
            CBCentralManager *d;
            #else
            NFCTagReaderSession *e;
            #endif
            """), [
                "contacts indicative CNContactStore 2:1",
                "bluetooth indicative CBCentralManager 10:1",
                "bluetooth.legacy indicative CBCentralManager 10:1",
            ], "after an unknown #if, #elif 1 may be taken; #else after #elif 1 never is")
    }

    func testMessageSendsInDebugCodeDoNotShip() {
        XCTAssertEqual(summary("""
            #ifdef DEBUG
            [[self manager] requestAlwaysAuthorization];
            #endif
            """), [
                "location.always definite [… requestAlwaysAuthorization] 2:17 debug",
                "location.alwaysLegacy definite [… requestAlwaysAuthorization] 2:17 debug",
                "location.whenInUse definite [… requestAlwaysAuthorization] 2:17 debug",
            ])
    }

    func testByteOrderMarkAndDirectiveOnFirstLine() {
        XCTAssertEqual(summary("\u{FEFF}#if 0\nCNContactStore *a;\n#endif\n"), [])
    }

    func testWindowsLineEndingsAndTabs() {
        let source = "#ifdef DEBUG\r\n\tCLLocationManager *a;\r\n#else\r\n\tCNContactStore *b; \\\r\n ABAddressBookCreate();\r\n#endif\r\n"
        XCTAssertEqual(summary(source), [
            "location.whenInUse indicative CLLocationManager 2:2 debug",
            "contacts indicative CNContactStore 4:2",
            "contacts definite ABAddressBookCreate() 5:2",
        ], "columns count bytes, a tab is one")
    }

    // MARK: robustness

    func testPathologicalInputsEndQuickly() {
        let inputs = [
            "[CLLocationManager new]; /* never closed [CNContactStore new]",
            "CNContactStore *s; NSString *x = @\"never closed [CLLocationManager new]",
            "char c = '",
            "R\"abc( raw never closed",
            String(repeating: "[", count: 10_000) + "CLLocationManager" + String(repeating: ")", count: 10_000),
            String(repeating: "]})", count: 10_000) + "CNContactStore *s;",
            String(repeating: "#if 1\n", count: 10_000) + "CNContactStore *s;\n" + String(repeating: "#endif\n", count: 10_000),
            String(repeating: "#if 0\n", count: 10_000) + "CNContactStore *s;\n",
            "#if " + String(repeating: "(", count: 10_000) + "1\nCNContactStore *s;\n#endif",
            "#if " + String(repeating: "!", count: 10_000) + "0\nCNContactStore *s;\n#endif",
            "#elif\n#else\n#endif\n#endif\n@selector(",
            "#define",
            "@",
            "\\",
        ]
        for input in inputs {
            _ = scan(input)
        }
        XCTAssertEqual(scan(String(repeating: "[", count: 10_000) + "\nCNContactStore *s;").count, 1)
        XCTAssertEqual(scan(String(repeating: "#if 1\n", count: 10_000) + "CNContactStore *s;\n"
                            + String(repeating: "#endif\n", count: 10_000) + "CLLocationManager *m;").count, 2)
        XCTAssertEqual(scan(String(repeating: "#if 0\n", count: 10_000) + "CNContactStore *s;\n").count, 0)
    }

    func testRandomFragmentsNeverCrash() {
        let fragments = ["[", "]", "(", ")", "{", "}", ":", ";", "?", ",", ".", "->", "::", "=", "==", "@", "^",
                         "@selector(", "@interface", "@implementation", "@class", "@protocol", "@\"", "\"", "'",
                         "R\"x(", ")x\"", "/*", "*/", "//", "\\\n", "\n", "\n#if ", "\n#if 0\n", "\n#ifdef DEBUG\n",
                         "\n#elif ", "\n#else\n", "\n#endif\n", "\n#define M ", "\n#undef M\n", "defined(", "!",
                         "&&", "||", "1", "0x1F", "1'000", "1.5e-3", " ", "CLLocationManager", "requestWhenInUseAuthorization",
                         "requestAccessForMediaType", "completionHandler", "AVMediaTypeVideo", "startUpdatingLocation",
                         "ABAddressBookCreate", "UIImagePickerControllerSourceTypeCamera", "class", "struct", "self", "x"]
        var generator = SplitMix64(seed: 42)
        for _ in 0..<150 {
            let count = Int(generator.next() % 400)
            var source = ""
            for _ in 0..<count { source += fragments[Int(generator.next() % UInt64(fragments.count))] }
            let lines = source.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count
            for usage in scan(source) {
                XCTAssertTrue((1...lines).contains(usage.line), source)
                XCTAssertGreaterThanOrEqual(usage.column, 1, source)
            }
        }
    }

    func testVeryLongSelectorsStayLinear() {
        let parts = String(repeating: "a:1 ", count: 50_000)
        XCTAssertEqual(scan("CLLocationManager *m; [m \(parts)]; [m \(String(repeating: ":1 ", count: 50_000))];").count, 1)
    }

    func testTenThousandLinesScanQuickly() {
        let block = """
            - (void)viewDidLoad {
                [super viewDidLoad]; // a comment with CLLocationManager
                self.manager = [[CLLocationManager alloc] init];
                [self.manager requestWhenInUseAuthorization];
                NSString *s = @"string [with brackets]";
                if (x > 1 && y[2] < 3) { [self doSomething:x withObject:@[@1, @2] other:^{ return; }]; }
            #if DEBUG
                NSLog(@"%@", self);
            #endif
            }

            """
        let source = String(repeating: block, count: 1_000)
        let start = Date()
        let usages = scan(source)
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertEqual(usages.count, 2_000)
        XCTAssertLessThan(elapsed, 2.0, "10,000 lines took \(elapsed) s (debug build)")
    }

    func testOversizedFileIsSkipped() {
        let source = String(repeating: "CNContactStore *s;\n", count: ReaderLimits.default.maxSourceFileBytes / 19 + 1)
        XCTAssertEqual(scan(source), [])
    }
}

/// A small deterministic generator for the random-input test.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
