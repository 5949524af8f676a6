import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1 for tests (EventSinksTests' HTTP sink, PerimeterTests' deliver): an accept loop on a background thread, one thread
/// per connection (keep-alive), requests parsed (request line, headers, Content-Length body) and
/// answered as a script says per request number (0-based, in arrival order). Everything is bounded:
/// `stop()` ends the loops within ~0.1 s, a connection idle for 10 s is closed, delays are cut short
/// by `stop()`.
public final class LoopbackServer: @unchecked Sendable {
    // Safety: mutable state is guarded by `lock`.

    public struct Request: Sendable {
        public var number: Int
        public var method: String
        public var target: String
        /// Header names lowercased.
        public var headers: [String: String]
        public var body: Data
        public var received: Date
        /// The answer the script gave.
        public var reply: Reply

        public var idempotencyKey: String? { headers["idempotency-key"] }
        /// The event lines of a `{"events":[…]}` body, exactly as sent.
        public var eventLines: [String]? { LoopbackServer.eventLines(of: body) }
    }

    public enum Reply: Sendable, Equatable {
        /// A status, after `delay` seconds, with an optional `Retry-After` value.
        case status(Int, delay: Double = 0, retryAfter: String? = nil)
        /// Close the connection without answering.
        case close

        /// Read the request and never answer (until `stop()`): a server that hangs.
        public static let hang = Reply.status(200, delay: 86_400)
    }

    public let port: UInt16
    private let script: @Sendable (Int) -> Reply
    private let lock = NSLock()
    private var recorded: [Request] = []
    private var count = 0
    private var stopped = false
    private var listener: Int32 = -1
    private var threads = 0

    /// Listens on `port` (0: an ephemeral port) and starts accepting.
    public init(port: UInt16 = 0, script: @escaping @Sendable (Int) -> Reply = { _ in .status(200) }) throws {
        self.script = script
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError(what: "socket", code: errno) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = Self.loopback(port: port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            let code = errno
            close(fd)
            throw ServerError(what: "bind/listen", code: code)
        }
        self.port = Self.localPort(fd)
        listener = fd
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// A port that was free a moment ago (bound to an ephemeral port, then closed).
    public static func reservePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw ServerError(what: "bind", code: errno) }
        return localPort(fd)
    }

    public var url: String { "http://127.0.0.1:\(port)/events" }

    /// The requests received so far, in arrival order.
    public var requests: [Request] { lock.lock(); defer { lock.unlock() }; return recorded }

    /// The requests answered with a 2xx, each Idempotency-Key once (the first), in arrival order: what a
    /// server that dedupes by key took.
    public var accepted: [Request] {
        var seen: Set<String> = []
        return requests.filter { request in
            guard case let .status(code, _, _) = request.reply, (200..<300).contains(code) else { return false }
            return seen.insert(request.idempotencyKey ?? "").inserted
        }
    }

    /// The event lines the server took (deduplicated by key), in order.
    public var acceptedLines: [String] { accepted.flatMap { $0.eventLines ?? [] } }

    /// Stops accepting and ends every connection's loop (within ~0.1 s); waits for the threads.
    public func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            lock.lock()
            let running = threads
            lock.unlock()
            if running == 0 { break }
            usleep(10_000)
        }
    }

    private var isStopped: Bool { lock.lock(); defer { lock.unlock() }; return stopped }

    private func enter() { lock.lock(); threads += 1; lock.unlock() }
    private func leave() { lock.lock(); threads -= 1; lock.unlock() }

    private func acceptLoop() {
        enter()
        defer { close(listener); leave() }
        while !isStopped {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            var one: Int32 = 1
            setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            enter()
            let thread = Thread { [self] in
                serve(client)
                close(client)
                leave()
            }
            thread.start()
        }
    }

    /// Serves requests on one connection until it closes, the script closes it, or the server stops.
    private func serve(_ fd: Int32) {
        var buffer = Data()
        while !isStopped {
            guard let head = readHead(fd, &buffer) else { return }
            var lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
            let requestLine = lines.removeFirst().split(separator: " ").map(String.init)
            guard requestLine.count == 3 else { return }
            var headers: [String: String] = [:]
            for line in lines where !line.isEmpty {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            if headers["expect"]?.lowercased() == "100-continue" { write(fd, "HTTP/1.1 100 Continue\r\n\r\n") }
            let length = Int(headers["content-length"] ?? "0") ?? 0
            guard length >= 0, length < 64 << 20, readBody(fd, &buffer, length: length) else { return }
            let body = buffer.prefix(length)
            buffer = Data(buffer.dropFirst(length))
            lock.lock()
            let number = count
            count += 1
            let reply = script(number)
            recorded.append(
                Request(
                    number: number, method: requestLine[0], target: requestLine[1], headers: headers,
                    body: Data(body), received: Date(), reply: reply))
            lock.unlock()
            switch reply {
            case .close:
                return
            case let .status(code, delay, retryAfter):
                let deadline = Date().addingTimeInterval(delay)
                while Date() < deadline && !isStopped { usleep(10_000) }
                var response = "HTTP/1.1 \(code) \(code < 300 ? "OK" : "Scripted")\r\nContent-Type: text/plain\r\n"
                if let retryAfter { response += "Retry-After: \(retryAfter)\r\n" }
                let text = "reply \(code) to request \(number)\n"
                response += "Content-Length: \(text.utf8.count)\r\n\r\n" + text
                guard write(fd, response) else { return }
            }
        }
    }

    /// Reads up to the blank line ending the head; nil when the peer closed, the server stopped, or
    /// 10 s passed idle.
    private func readHead(_ fd: Int32, _ buffer: inout Data) -> Data? {
        let end = Data("\r\n\r\n".utf8)
        while true {
            if let range = buffer.range(of: end) {
                let head = buffer[buffer.startIndex..<range.lowerBound]
                buffer = Data(buffer[range.upperBound...])
                return Data(head)
            }
            guard buffer.count < 1 << 20, receive(fd, &buffer) else { return nil }
        }
    }

    private func readBody(_ fd: Int32, _ buffer: inout Data, length: Int) -> Bool {
        while buffer.count < length {
            guard receive(fd, &buffer) else { return false }
        }
        return true
    }

    /// Appends what arrives (waiting in 50 ms polls, up to 10 s); false at EOF, error, stop or idle.
    private func receive(_ fd: Int32, _ buffer: inout Data) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if isStopped { return false }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 50)
            if ready < 0 && errno != EINTR { return false }
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = recv(fd, &chunk, chunk.count, 0)
            guard n > 0 else { return false }
            buffer.append(contentsOf: chunk[0..<n])
            return true
        }
        return false
    }

    @discardableResult
    private func write(_ fd: Int32, _ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private static func localPort(_ fd: Int32) -> UInt16 {
        var address = sockaddr_in()
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &size) }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    /// The objects of `{"events":[…]}`, split exactly as sent (flat objects: split at commas outside
    /// strings and braces); nil when the body has another shape.
    public static func eventLines(of body: Data) -> [String]? {
        let text = String(decoding: body, as: UTF8.self)
        let prefix = "{\"events\":[", suffix = "]}"
        guard text.hasPrefix(prefix), text.hasSuffix(suffix) else { return nil }
        let inner = Array(text.utf8.dropFirst(prefix.utf8.count).dropLast(suffix.utf8.count))
        var lines: [String] = []
        var start = 0, depth = 0, inString = false, escaped = false
        for (i, byte) in inner.enumerated() {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "}"): depth -= 1
            case UInt8(ascii: ",") where depth == 0:
                lines.append(String(decoding: inner[start..<i], as: UTF8.self))
                start = i + 1
            default: break
            }
        }
        if start < inner.count { lines.append(String(decoding: inner[start...], as: UTF8.self)) }
        return lines
    }

    public struct ServerError: Error, CustomStringConvertible {
        public var what: String
        public var code: Int32
        public var description: String { "\(what): \(String(cString: strerror(code)))" }
    }
}
