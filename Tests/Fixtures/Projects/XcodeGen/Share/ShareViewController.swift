import UIKit
import Social
import Core

final class ShareViewController: SLComposeServiceViewController {
    override func didSelectPost() {
        Biometrics.unlock { _ in self.extensionContext?.completeRequest(returningItems: nil) }
    }
}
