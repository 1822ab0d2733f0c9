import UIKit
import Social

final class ShareViewController: SLComposeServiceViewController {}
