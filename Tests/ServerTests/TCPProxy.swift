import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback TCP forwarder between the server under test and its real database, which a test
/// can cut (every open connection dropped, new ones closed at once) and restore: the database
/// unavailable for a while, as a restart or a network outage makes it, without stopping it.
final class TCPProxy: @unchecked Sendable {
    let target: (host: String, port: UInt16)
    private(set) var port: UInt16 = 0
    private let listener: Int32
    private let lock = NSLock()
    private var open: [Int32] = []
    private var isCut = false
    private var stopped = false

    init(forwardingTo host: String, port targetPort: UInt16) throws {
        target = (host, targetPort)
        listener = socket(AF_INET, Self.streamType, 0)
        guard listener >= 0 else { throw ProxyError("socket: errno \(errno)") }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = Self.address(host: "127.0.0.1", port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 64) == 0 else { throw ProxyError("bind/listen: errno \(errno)") }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: actual.sin_port)
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// The database becomes unreachable: open connections are dropped, new ones closed.
    func cut() {
        lock.lock()
        isCut = true
        for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
        lock.unlock()
    }

    func restore() {
        lock.lock()
        isCut = false
        lock.unlock()
    }

    func stop() {
        lock.lock()
        stopped = true
        isCut = true
        for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
        lock.unlock()
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            lock.lock()
            let refuse = isCut, done = stopped
            lock.unlock()
            if done { if client >= 0 { close(client) }; return }
            guard client >= 0 else { continue }
            if refuse { close(client); continue }
            let upstream = socket(AF_INET, Self.streamType, 0)
            var address = Self.address(host: target.host, port: target.port)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard upstream >= 0, connected == 0 else { close(client); if upstream >= 0 { close(upstream) }; continue }
            lock.lock()
            open += [client, upstream]
            lock.unlock()
            Thread.detachNewThread { [self] in pump(from: client, to: upstream) }
            Thread.detachNewThread { [self] in pump(from: upstream, to: client) }
        }
    }

    private func pump(from source: Int32, to destination: Int32) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            var sent = 0
            while sent < n {
                let m = buffer.withUnsafeBytes { send(destination, $0.baseAddress! + sent, n - sent, Self.noSignal) }
                if m <= 0 { break }
                sent += m
            }
            if sent < n { break }
        }
        // Either side gone: both directions end, and both descriptors are released once.
        lock.lock()
        shutdown(source, Int32(SHUT_RDWR))
        shutdown(destination, Int32(SHUT_RDWR))
        if let i = open.firstIndex(of: source) { open.remove(at: i); close(source) }
        lock.unlock()
    }

    /// A write to a closed peer returns an error instead of raising SIGPIPE.
    private static var noSignal: Int32 {
        #if canImport(Glibc)
        return Int32(MSG_NOSIGNAL)
        #else
        return 0
        #endif
    }

    private static var streamType: Int32 {
        #if canImport(Glibc)
        return Int32(SOCK_STREAM.rawValue)
        #else
        return SOCK_STREAM
        #endif
    }

    private static func address(host: String, port: UInt16) -> sockaddr_in {
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = port.bigEndian
        inet_pton(AF_INET, host, &a.sin_addr)
        return a
    }

    struct ProxyError: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }
}
