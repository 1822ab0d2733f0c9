import Foundation

func fetch(apiKey: String, password: String, page: Int) {
    let key = apiKey
    _ = URL(string: "http://api.example.com/v1/items?key=\(key)&page=\(page)")
    _ = URL(string: "http://example.com/login?p=" + password)
    _ = URL(string: "https://example.com/a?p=\(password)")
    let session = URLSession(configuration: .default)
    _ = session
}
