import Foundation

struct Credentials {
    var password: String
    var token: String? = nil
}

func describe(_ c: Credentials) -> String {
    let raw = #"raw \#(c.password) "quoted""#
    let multi = """
        user \(c.token ?? "none")
        pass \(c.password.isEmpty ? "-" : "\(c.password)")
        """
    NSLog("%@ %@", raw, multi)
    return "\(c)"
}
