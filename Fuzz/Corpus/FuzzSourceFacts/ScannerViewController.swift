import AVFoundation
import UIKit

final class ScannerViewController: UIViewController {
    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        AVCaptureDevice.requestAccess(for: .video) { granted in
            print("camera access: \(granted)")
        }
    }
}
