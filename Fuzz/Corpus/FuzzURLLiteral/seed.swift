let u = URL(string: "http://api.acme.com/v1")!
URLSession.shared.dataTask(with: u)
// "http://comment.acme.com"
let s = #"http://raw.acme.com/\(x)"#
