import UIKit
import WebKit

/// Service news in a web view: NSAllowsArbitraryLoadsInWebContent lets plain HTTP through.
final class NewsViewController: UIViewController {
    let webView = WKWebView()

    override func viewDidLoad() {
        super.viewDidLoad()
        webView.load(URLRequest(url: URL(string: "http://news.transit-data.com/today")!))
        UIApplication.shared.open(URL(string: "http://www.transit-data.org/help")!)
    }
}
