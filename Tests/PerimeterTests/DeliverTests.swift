import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("perimeter run with an HTTP sink, and perimeter deliver", .serialized)
struct DeliverTests {
    static let scenario = PerimeterProcess.root.appendingPathComponent("Scenarios/lorrenzillos.yaml").path

    func spools(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix("perimeter-spool-") && $0.hasSuffix(".jsonl") }.sorted()
    }

    @Test("run: an unreachable server exits 3, naming the spool file that holds every event; deliver sends it")
    func runSpoolsThenDeliverDelivers() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        let dead = "http://127.0.0.1:\(try RecordingServer.reservePort())/events;retries=1;backoff=0.01;timeout=1"
        let run = try PerimeterProcess.run(["run", Self.scenario, "--sink", dead, "--sink", "jsonl:events.jsonl"],
                                           in: folder)
        #expect(run.status == 3, "\(run.stderr)")
        let spool = try #require(try spools(in: folder).first)
        let produced = try String(contentsOf: folder.appendingPathComponent("events.jsonl"), encoding: .utf8)
        #expect(try String(contentsOf: folder.appendingPathComponent(spool), encoding: .utf8) == produced)
        #expect(spool.range(of: #"^perimeter-spool-\d{8}T\d{6}Z-\d+\.jsonl$"#, options: .regularExpression) != nil)
        #expect(run.stderr.contains("error: sink \(dead): delivered 0 of 5 events to "), "\(run.stderr)")
        #expect(run.stderr.contains("the other 5 are in the spool file \"\(spool)\""))
        #expect(run.stderr.contains("perimeter deliver \(spool) --sink '\(dead)'"))
        #expect(!run.stderr.contains("the run stopped"))

        let server = try RecordingServer()
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/in;batch=2"
        let deliver = try PerimeterProcess.run(["deliver", spool, "--sink", url], in: folder)
        #expect(deliver.status == 0, "\(deliver.stderr)")
        #expect(deliver.stderr.contains("delivered 5 events"))
        let bodies = server.bodies
        #expect(bodies.count == 3)
        let lines = produced.split(separator: "\n").map(String.init)
        #expect(bodies.map(\.body) == [
            "{\"events\":[\(lines[0]),\(lines[1])]}", "{\"events\":[\(lines[2]),\(lines[3])]}", "{\"events\":[\(lines[4])]}",
        ])
        let keys = bodies.map(\.key)
        #expect(keys.allSatisfy { $0.range(of: #"^spool-[0-9a-f]{16}-[0-2]$"#, options: .regularExpression) != nil })
        #expect(Set(keys).count == 3)
        #expect(try spools(in: folder) == [spool])  // no new spool

        // The same file again: the same keys, so a deduplicating server takes nothing twice.
        let again = try PerimeterProcess.run(["deliver", spool, "--sink", url], in: folder)
        #expect(again.status == 0)
        #expect(server.bodies.dropFirst(3).map(\.key) == keys)
    }

    @Test("deliver: an unreachable server exits 3 with a new spool of what is still undelivered")
    func deliverToNowhere() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        let run = try PerimeterProcess.run(["run", Self.scenario, "--sink", "jsonl:events.jsonl"], in: folder)
        #expect(run.status == 0)
        let dead = "http://127.0.0.1:\(try RecordingServer.reservePort())/events;retries=0;spool=left.jsonl"
        let deliver = try PerimeterProcess.run(["deliver", "events.jsonl", "--sink", dead], in: folder)
        #expect(deliver.status == 3)
        #expect(deliver.stderr.contains("delivered 0 of 5 events"), "\(deliver.stderr)")
        #expect(deliver.stderr.contains("\"left.jsonl\""))
        #expect(try String(contentsOf: folder.appendingPathComponent("left.jsonl"), encoding: .utf8)
            == String(contentsOf: folder.appendingPathComponent("events.jsonl"), encoding: .utf8))
    }

    @Test("deliver: bad input exits 2 and sends nothing", arguments: [
        ("{\"time\":\"2016-01-10T12:00:00.000Z\",\"device\":\"p\",\"region\":\"r\",\"kind\":\"monitor-start\",\"lat\":1,\"lon\":2,\"distance\":3}\nnot json\n",
         "bad.jsonl:2: not a JSON event object"),
        ("{\"kind\":\"enter\"}\n", "bad.jsonl:1: "),
    ])
    func deliverRefusesABadFile(text: String, message: String) throws {
        let folder = try PerimeterProcess.temporaryFolder()
        try text.write(to: folder.appendingPathComponent("bad.jsonl"), atomically: true, encoding: .utf8)
        let server = try RecordingServer()
        defer { server.stop() }
        let result = try PerimeterProcess.run(["deliver", "bad.jsonl", "--sink", "http://127.0.0.1:\(server.port)/x"],
                                              in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains("error: " + message), "\(result.stderr)")
        #expect(server.bodies.isEmpty)
    }

    @Test("deliver: a sink that is not HTTP, a bad option, a missing file exit 2", arguments: [
        (["deliver", "x.jsonl", "--sink", "jsonl:y.jsonl"], "deliver sends to an HTTP sink"),
        (["deliver", "x.jsonl", "--sink", "http://127.0.0.1:9/x;batch=0"], "batch=0: expected a whole number from 1"),
        (["deliver", "x.jsonl", "--sink", "http://127.0.0.1:9/x;colour=red"], "unknown option \"colour\""),
        (["deliver", "no-such.jsonl", "--sink", "http://127.0.0.1:9/x"], "no-such.jsonl: no such file"),
        (["run", DeliverTests.scenario, "--sink", "http://127.0.0.1:9/x;retries"], "the option \"retries\" is not key=value"),
    ])
    func badArguments(arguments: [String], message: String) throws {
        let folder = try PerimeterProcess.temporaryFolder()
        try "".write(to: folder.appendingPathComponent("x.jsonl"), atomically: true, encoding: .utf8)
        let result = try PerimeterProcess.run(arguments, in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("run: a missing auth-env variable fails before the run, naming the variable")
    func missingAuthVariable() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        let name = "PERIMETER_TEST_UNSET_\(UInt32.random(in: 0...UInt32.max))"
        let result = try PerimeterProcess.run(["run", Self.scenario, "--sink", "http://127.0.0.1:9/x;auth-env=\(name)"],
                                              in: folder)
        #expect(result.status == 3)
        #expect(result.stderr.contains("the environment variable \(name) is not set"), "\(result.stderr)")
        #expect(result.stderr.contains("nothing was run"))
    }
}

/// A minimal HTTP/1.1 server on 127.0.0.1 that answers 200 to every request and records each body and
/// `Idempotency-Key`. One thread per connection; `stop()` ends every loop within ~0.1 s.
final class RecordingServer: @unchecked Sendable {
    // Safety: mutable state is guarded by `lock`.
    struct Received: Sendable { var key: String; var body: String }

    let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var received: [Received] = []
    private var stopped = false
    private var threads = 0

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        listener = fd
        port = Self.port(of: fd)
        threads = 1
        Thread { [self] in acceptLoop() }.start()
    }

    static func reservePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw POSIXError(.EADDRINUSE) }
        return port(of: fd)
    }

    var bodies: [Received] { lock.lock(); defer { lock.unlock() }; return received }

    func stop() {
        lock.lock(); stopped = true; lock.unlock()
        for _ in 0..<500 {
            lock.lock(); let running = threads; lock.unlock()
            if running == 0 { return }
            usleep(10_000)
        }
    }

    private var isStopped: Bool { lock.lock(); defer { lock.unlock() }; return stopped }

    private func acceptLoop() {
        defer { close(listener); lock.lock(); threads -= 1; lock.unlock() }
        while !isStopped {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            lock.lock(); threads += 1; lock.unlock()
            Thread { [self] in
                serve(client)
                close(client)
                lock.lock(); threads -= 1; lock.unlock()
            }.start()
        }
    }

    private func serve(_ fd: Int32) {
        var buffer: [UInt8] = []
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        while true {
            var headEnd: Int?
            while headEnd == nil {
                if buffer.count >= 4 {
                    headEnd = (0...(buffer.count - 4)).first { Array(buffer[$0..<$0 + 4]) == end }
                }
                if headEnd == nil { guard receive(fd, &buffer) else { return } }
            }
            let head = String(decoding: buffer[0..<headEnd!], as: UTF8.self)
            buffer.removeFirst(headEnd! + 4)
            var headers: [String: String] = [:]
            for line in head.components(separatedBy: "\r\n").dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            if headers["expect"]?.lowercased() == "100-continue" { write(fd, "HTTP/1.1 100 Continue\r\n\r\n") }
            let length = Int(headers["content-length"] ?? "0") ?? 0
            while buffer.count < length { guard receive(fd, &buffer) else { return } }
            let body = String(decoding: buffer[0..<length], as: UTF8.self)
            buffer.removeFirst(length)
            lock.lock(); received.append(Received(key: headers["idempotency-key"] ?? "", body: body)); lock.unlock()
            guard write(fd, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n") else { return }
        }
    }

    private func receive(_ fd: Int32, _ buffer: inout [UInt8]) -> Bool {
        for _ in 0..<200 {  // 10 s idle at most
            if isStopped { return false }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
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
        return bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private static func port(of fd: Int32) -> UInt16 {
        var address = sockaddr_in()
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &size) }
        }
        return UInt16(bigEndian: address.sin_port)
    }
}
