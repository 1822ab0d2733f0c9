/// Source files for rule examples that need a bundle's code (a folder's `App/Scanner.m` is
/// scanned as the code of the bundle in `App/`).
enum ExampleCode {
    /// Asks for the camera.
    static let cameraScanner = "#import <AVFoundation/AVFoundation.h>\n\nvoid startScanner(void) {\n    [AVCaptureDevice requestAccessForMediaType:AVMediaTypeVideo completionHandler:^(BOOL granted) {}];\n}\n"
    /// Starts Core Bluetooth.
    static let bluetoothReader = "#import <CoreBluetooth/CoreBluetooth.h>\n\nid startReader(id delegate) {\n    return [[CBCentralManager alloc] initWithDelegate:delegate queue:nil];\n}\n"
}
