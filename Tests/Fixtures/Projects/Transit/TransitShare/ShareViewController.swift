import Foundation
import Social

/// The share extension has its own ATS dictionary: uploads.transit-data.com may use plain
/// HTTP, legacy.transit-data.com (allowed in the app) may not.
final class ShareViewController: SLComposeServiceViewController {
    override func didSelectPost() {
        var inbox = URLRequest(url: URL(string: "http://uploads.transit-data.com/inbox")!)
        inbox.httpMethod = "POST"
        URLSession.shared.uploadTask(with: inbox, from: Data(contentText.utf8)).resume()
        URLSession.shared.dataTask(with: URL(string: "http://legacy.transit-data.com/upload")!).resume()
        super.didSelectPost()
    }
}
