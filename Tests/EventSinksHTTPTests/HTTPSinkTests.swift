import EventSinks
import Foundation
import Geodesy
import Geofencing
import TestSupport
import Testing
import Time
import WireFormat

@testable import EventSinksHTTP

/// `count` distinct events, one second apart, of every kind in turn.
func httpEvents(_ count: Int) -> [GeofenceEvent] {
    let base = at("2016-01-10T12:00:00Z")
    return (0..<count).map { i in
        let time = base + .seconds(Int64(i))
        let details: [GeofenceEvent.Detail] = [
            .monitorStart, .enter(crossedAt: time), .dwell(rule: "r \"\(i)\"", ruleIndex: 0, duration: .seconds(5)),
            .exit(crossedAt: time), .visit(arrival: base, departure: time),
        ]
        return GeofenceEvent(
            time: time, device: "phone-\(i % 3)", region: "région,\(i)", regionIndex: 0,
            coordinate: Coordinate(latitude: 37.7 + Double(i) * 1e-4, longitude: -121.76),
            distance: Double(i) - 0.25, detail: details[i % details.count])
    }
}

/// A configuration for tests: small timeouts and backoff, a seeded jitter, the spool in `directory`.
func httpConfiguration(
    _ url: String, batch: Int = 500, flush: Double = 30, timeout: Double = 2, retries: Int = 3,
    directory: String
) throws -> HTTPSinkConfiguration {
    var configuration = try HTTPSinkConfiguration(parsing: url)
    configuration.batchSize = batch
    configuration.flushInterval = flush
    configuration.timeout = timeout
    configuration.retries = retries
    configuration.backoffBase = 0.01
    configuration.backoffCap = 0.05
    configuration.jitterSeed = 7
    configuration.spoolPath = directory + "/spool.jsonl"
    return configuration
}

/// A spool file's events as JSON Lines (each line without its batch's key), and the keys.
func spooled(_ path: String) throws -> (text: String, keys: [String?]) {
    let records = try SpoolLines.decode(log: contents(path))
    return (records.map { JSONLines.encode($0.event) + "\n" }.joined(), records.map(\.key))
}

/// Waits (bounded) until `condition` holds.
func eventually(within seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}

@Suite struct HTTPSinkTests {
    @Test(arguments: [(events: 10, batch: 3), (events: 6, batch: 6), (events: 5, batch: 500), (events: 4, batch: 1)])
    func deliversEveryEventOnceInOrderInBatches(events count: Int, batch: Int) throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let directory = try temporaryDirectory()
        let sink = try HTTPSink(configuration: try httpConfiguration(server.url, batch: batch, directory: directory))
        let events = httpEvents(count)
        try run(sink, events)

        let requests = server.requests
        let sizes = requests.map { $0.eventLines?.count ?? -1 }
        var expected = Array(repeating: batch, count: count / batch)
        if count % batch != 0 { expected.append(count % batch) }
        #expect(sizes == expected)
        #expect(requests.flatMap { $0.eventLines ?? [] } == events.map { JSONLines.encode($0) })
        #expect(requests.map(\.idempotencyKey) == requests.indices.map { "\(sink.keyPrefix)-\($0)" })
        #expect(Set(requests.compactMap(\.idempotencyKey)).count == requests.count)
        #expect(sink.keyPrefix.count == 32)
        for request in requests {
            #expect(request.method == "POST")
            #expect(request.target == "/events")
            #expect(request.headers["content-type"] == "application/json")
            #expect(request.headers["authorization"] == nil)
            let object = try JSONSerialization.jsonObject(with: request.body) as? [String: Any]
            #expect((object?["events"] as? [Any])?.count == request.eventLines?.count)
        }
        #expect(sink.deliveredCount == count && sink.spooledCount == 0)
        #expect(try files(in: directory).isEmpty)  // no spool file, no partial file
    }

    @Test func anOpenBatchIsSentAfterTheFlushInterval() throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let directory = try temporaryDirectory()
        let sink = try HTTPSink(
            configuration: try httpConfiguration(server.url, batch: 100, flush: 0.2, directory: directory))
        let events = httpEvents(3)
        try sink.send(events[0])
        try sink.send(events[1])
        #expect(eventually { server.requests.count == 1 })
        #expect(server.requests.first?.eventLines?.count == 2)
        try sink.send(events[2])
        try sink.finish()
        #expect(server.acceptedLines == events.map { JSONLines.encode($0) })
    }

    @Test func retriesUntilTheServerStartsListening() throws {
        let port = try LoopbackServer.reservePort()
        let directory = try temporaryDirectory()
        var configuration = try httpConfiguration(
            "http://127.0.0.1:\(port)/events", batch: 2, retries: 200,
            directory: directory)
        configuration.backoffBase = 0.05
        configuration.backoffCap = 0.1
        let sink = try HTTPSink(configuration: configuration)
        let events = httpEvents(5)
        let box = ServerBox()
        let started = Date()
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) { box.server = try? LoopbackServer(port: port) }
        defer { box.server?.stop() }
        try run(sink, events)
        #expect(Date().timeIntervalSince(started) >= 0.9)
        let server = try #require(box.server)
        #expect(server.acceptedLines == events.map { JSONLines.encode($0) })
        #expect(server.requests.count == 3)
    }

    @Test func aTimedOutBatchIsRetriedWithTheSameKeyAndTakenOnce() throws {
        // The first two attempts are answered (and so taken by the server) only after the client gave up.
        // The client waits 1.5 s for each answer (under a sanitizer on a loaded 2-core machine, 0.6 s was
        // too short for every attempt of the next batch); the first two answers come after 4 s.
        let server = try LoopbackServer { n in n < 2 ? .status(200, delay: 4) : .status(200) }
        defer { server.stop() }
        let directory = try temporaryDirectory()
        let sink = try HTTPSink(
            configuration: try httpConfiguration(
                server.url, batch: 4, timeout: 1.5, retries: 6,
                directory: directory))
        let events = httpEvents(6)
        try run(sink, events)
        let keys = server.requests.map { $0.idempotencyKey ?? "" }
        let first = "\(sink.keyPrefix)-0", second = "\(sink.keyPrefix)-1"
        // At least 3 attempts of batch 0 (more only on a machine too loaded to answer within 1.5 s), then batch 1.
        #expect(Array(keys.prefix(3)) == [first, first, first])
        #expect(keys.drop { $0 == first }.allSatisfy { $0 == second } && keys.last == second)
        #expect(server.accepted.map(\.idempotencyKey) == [first, second])
        #expect(server.acceptedLines == events.map { JSONLines.encode($0) })
        #expect(sink.deliveredCount == 6)
    }

    @Test(arguments: [500, 502, 503, 408])
    func retriesServerErrorsUntilRecovery(status: Int) throws {
        let server = try LoopbackServer { n in n < 3 ? .status(status) : .status(200) }
        defer { server.stop() }
        let directory = try temporaryDirectory()
        let sink = try HTTPSink(configuration: try httpConfiguration(server.url, batch: 3, retries: 5, directory: directory))
        let events = httpEvents(5)
        try run(sink, events)
        #expect(server.requests.count == 5)
        #expect(server.acceptedLines == events.map { JSONLines.encode($0) })
        #expect(Set(server.requests.prefix(4).map(\.idempotencyKey)).count == 1)
    }

    @Test func aConnectionClosedWithoutAnAnswerIsRetried() throws {
        let server = try LoopbackServer { n in n < 2 ? .close : .status(200) }
        defer { server.stop() }
        let directory = try temporaryDirectory()
        let sink = try HTTPSink(configuration: try httpConfiguration(server.url, batch: 2, directory: directory))
        let events = httpEvents(3)
        try run(sink, events)
        #expect(server.acceptedLines == events.map { JSONLines.encode($0) })
        #expect(server.requests.filter { $0.reply == .close }.count == 2)
        #expect(Set(server.requests.prefix(3).map(\.idempotencyKey)).count == 1)
    }

    @Test func aSpoolFileThatCannotBeCreatedIsAnErrorAtStart() throws {
        let directory = try temporaryDirectory()
        var configuration = try httpConfiguration("http://127.0.0.1:9/x", directory: directory)
        configuration.spoolPath = directory + "/missing/spool.jsonl"
        let error = #expect(throws: SinkError.self) { try HTTPSink(configuration: configuration) }
        #expect(error?.description.contains("the directory \"\(directory)/missing\" does not exist") == true)
    }

    @Test func twoSinksNeverShareASpoolFile() throws {
        let directory = try temporaryDirectory()
        let a = try HTTPSink(spec: "http://127.0.0.1:9/a", directory: directory)
        let b = try HTTPSink(spec: "http://127.0.0.1:9/b", directory: directory)
        #expect(a.spoolPath != b.spoolPath)
        let c = try HTTPSink(spec: "http://127.0.0.1:9/c;spool=one.jsonl", directory: directory)
        let error = #expect(throws: SinkError.self) {
            try HTTPSink(spec: "http://127.0.0.1:9/d;spool=one.jsonl", directory: directory)
        }
        #expect(error?.description.contains("already keeps its undelivered events in") == true)
        for sink in [a, b, c] { try sink.finish() }
        let d = try HTTPSink(spec: "http://127.0.0.1:9/d;spool=one.jsonl", directory: directory)  // free again
        try d.finish()
        #expect(try files(in: directory).isEmpty)
    }

    @Test func retryAfterIsHonoured() throws {
        let server = try LoopbackServer { n in n == 0 ? .status(429, retryAfter: "1") : .status(200) }
        defer { server.stop() }
        let directory = try temporaryDirectory()
        let sink = try HTTPSink(configuration: try httpConfiguration(server.url, directory: directory))
        let events = httpEvents(3)
        try run(sink, events)
        let requests = server.requests
        try #require(requests.count == 2)
        let gap = requests[1].received.timeIntervalSince(requests[0].received)
        #expect(gap >= 0.95, "waited \(gap) s")
        #expect(gap < 3)
        #expect(requests[0].idempotencyKey == requests[1].idempotencyKey)
        #expect(server.acceptedLines == events.map { JSONLines.encode($0) })
    }

    @Test func retryAfterIsCapped() throws {
        let server = try LoopbackServer { n in n == 0 ? .status(503, retryAfter: "3600") : .status(200) }
        defer { server.stop() }
        let directory = try temporaryDirectory()
        var configuration = try httpConfiguration(server.url, directory: directory)
        configuration.retryAfterCap = 0.2
        let sink = try HTTPSink(configuration: configuration)
        let started = Date()
        try run(sink, httpEvents(2))
        #expect(Date().timeIntervalSince(started) < 3)
        #expect(server.accepted.count == 1)
    }

    @Test(arguments: [400, 401, 404, 413, 422])
    func aClientErrorIsNotRetriedAndTheRestIsSpooled(status: Int) throws {
        // The failure comes late enough that all seven events are sent before it, on a loaded machine too:
        // the batches' keys below are then the ones `send` sealed (a failure meanwhile spools the open batch).
        let server = try LoopbackServer { n in n == 1 ? .status(status, delay: 0.5) : .status(200) }
        defer { server.stop() }
        let directory = try temporaryDirectory()
        let sink = try HTTPSink(configuration: try httpConfiguration(server.url, batch: 2, directory: directory))
        let events = httpEvents(7)
        for event in events { try sink.send(event) }
        let error = #expect(throws: SinkError.self) { try sink.finish() }
        #expect(server.requests.count == 2)
        #expect(sink.deliveredCount == 2)
        #expect(sink.spooledCount == 5)
        let lines = events.map { JSONLines.encode($0) }
        #expect(server.acceptedLines == Array(lines.prefix(2)))
        let spool = directory + "/spool.jsonl"
        #expect(try spooled(spool).text == lines.dropFirst(2).map { $0 + "\n" }.joined())
        // Each line keeps its batch's key: the failed batch 1, then 2 and 3 sealed afterwards.
        #expect(try spooled(spool).keys == [1, 1, 2, 2, 3].map { "\(sink.keyPrefix)-\($0)" })
        #expect(try files(in: directory) == ["spool.jsonl"])
        let message = try #require(error?.description)
        #expect(
            message.hasPrefix(
                "sink \(server.url): delivered 2 of 7 events to \(server.url); the other 5 are in the spool file \"\(spool)\""
            ))
        #expect(message.contains("perimeter deliver \(spool) --sink \(server.url)"))
        #expect(message.contains("the server answered \(status)"))
        #expect(message.contains("(not retried)"))
        #expect(error?.path == spool)
        #expect(error?.isFromHTTPSink == true)
        // A second finish reports the same; sending afterwards is refused.
        let again = #expect(throws: SinkError.self) { try sink.finish() }
        #expect(again == error)
        #expect(throws: SinkError.self) { try sink.send(events[0]) }
    }

    @Test func aServerGoneForGoodLeavesEverythingUndeliveredInTheSpool() throws {
        let server = try LoopbackServer()
        let directory = try temporaryDirectory()
        let sink = try HTTPSink(
            configuration: try httpConfiguration(
                server.url, batch: 2, timeout: 0.5, retries: 3,
                directory: directory))
        let events = httpEvents(9)
        try sink.send(events[0])
        try sink.send(events[1])
        #expect(eventually { sink.deliveredCount == 2 })
        server.stop()
        for event in events.dropFirst(2) { try sink.send(event) }
        let error = #expect(throws: SinkError.self) { try sink.finish() }
        #expect(sink.deliveredCount + sink.spooledCount == events.count)
        #expect(sink.deliveredCount == 2)
        let lines = events.map { JSONLines.encode($0) }
        #expect(try spooled(directory + "/spool.jsonl").text == lines.dropFirst(2).map { $0 + "\n" }.joined())
        #expect(error?.description.contains("gave up after 4 attempts") == true)
        #expect(error?.description.contains("delivered 2 of 9 events") == true)
    }

    @Test func nothingListeningAtAllSpoolsEverything() throws {
        let port = try LoopbackServer.reservePort()
        let directory = try temporaryDirectory()
        let sink = try HTTPSink(
            configuration: try httpConfiguration(
                "http://127.0.0.1:\(port)/x", batch: 3, retries: 2,
                directory: directory))
        let events = httpEvents(8)
        for event in events { try sink.send(event) }
        #expect(throws: SinkError.self) { try sink.finish() }
        #expect(sink.deliveredCount == 0 && sink.spooledCount == 8)
        let kept = try SpoolLines.decode(log: contents(directory + "/spool.jsonl"))
        #expect(kept.map(\.event) == events.map(WireEvent.init))
        #expect(kept.map(\.key) == [0, 0, 0, 1, 1, 1, 2, 2].map { "\(sink.keyPrefix)-\($0)" })
    }

    @Test func theProducerBlocksWhenThePendingBatchesAreFull() throws {
        let server = try LoopbackServer { _ in .status(200, delay: 0.15) }
        defer { server.stop() }
        let directory = try temporaryDirectory()
        var configuration = try httpConfiguration(server.url, batch: 1, directory: directory)
        configuration.maxPendingBatches = 1
        let sink = try HTTPSink(configuration: configuration)
        let started = Date()
        for event in httpEvents(5) { try sink.send(event) }
        // One batch in flight and one waiting at most: the fifth send waits for about three answers.
        #expect(Date().timeIntervalSince(started) >= 0.3)
        try sink.finish()
        #expect(server.accepted.count == 5)
    }

    @Test func cancelKeepsWhatWasNotDelivered() throws {
        let port = try LoopbackServer.reservePort()
        let directory = try temporaryDirectory()
        let sink = try HTTPSink(
            configuration: try httpConfiguration(
                "http://127.0.0.1:\(port)/x", batch: 10,
                directory: directory))
        sink.cancel()
        #expect(try files(in: directory).isEmpty)
        let other = try HTTPSink(
            configuration: try httpConfiguration(
                "http://127.0.0.1:\(port)/x", batch: 10,
                directory: directory))
        let events = httpEvents(3)
        for event in events { try other.send(event) }
        other.cancel()
        try other.finish()  // does nothing after cancel()
        #expect(other.deliveredCount + other.spooledCount == 3)
        #expect(try SpoolLines.decode(log: contents(directory + "/spool.jsonl")).map(\.event) == events.map(WireEvent.init))
    }

    @Test(
        "an interruption stops a wait at once and spools every undelivered event, keys kept",
        arguments: [
            ("waiting for an answer", LoopbackServer.Reply.hang),
            ("waiting out a Retry-After", LoopbackServer.Reply.status(503, retryAfter: "600")),
        ])
    func anInterruptionStopsTheWait(waiting: String, reply: LoopbackServer.Reply) throws {
        let server = try LoopbackServer { _ in reply }
        defer { server.stop() }
        let directory = try temporaryDirectory()
        var configuration = try httpConfiguration(server.url, batch: 2, timeout: 600, retries: 5, directory: directory)
        configuration.retryAfterCap = 600
        let interruption = Flag()
        let sink = try HTTPSink(configuration: configuration, isCancelled: { interruption.isSet })
        let events = httpEvents(5)
        for event in events { try sink.send(event) }
        #expect(eventually { server.requests.count == 1 })
        Thread.sleep(forTimeInterval: 0.2)  // into the wait (not asserted)
        interruption.set()
        let started = Date()
        let error = #expect(throws: SinkError.self) { try sink.finish() }
        #expect(Date().timeIntervalSince(started) < 5, "stopped at once, not after the wait")
        #expect(server.requests.count == 1)
        #expect(sink.wasInterrupted)
        #expect(sink.deliveredCount == 0 && sink.spooledCount == 5)
        let kept = try spooled(directory + "/spool.jsonl")
        #expect(kept.text == events.map { JSONLines.encode($0) + "\n" }.joined())
        #expect(kept.keys == [0, 0, 1, 1, 2].map { "\(sink.keyPrefix)-\($0)" })
        #expect(
            error?.description.contains("Delivery stopped: interrupted (Ctrl-C or SIGTERM)") == true,
            "\(String(describing: error))")
    }

    @Test func cancelAbandonsTheBatchBeingSentAtOnce() throws {
        let server = try LoopbackServer { _ in .hang }
        defer { server.stop() }
        let directory = try temporaryDirectory()
        let sink = try HTTPSink(
            configuration: try httpConfiguration(server.url, batch: 2, timeout: 600, directory: directory))
        let events = httpEvents(3)
        for event in events { try sink.send(event) }
        #expect(eventually { server.requests.count == 1 })
        let started = Date()
        sink.cancel()
        #expect(Date().timeIntervalSince(started) < 5, "did not wait for the answer")
        #expect(!sink.wasInterrupted)
        #expect(sink.deliveredCount == 0 && sink.spooledCount == 3)
        #expect(try spooled(directory + "/spool.jsonl").text == events.map { JSONLines.encode($0) + "\n" }.joined())
    }

    @Test func authEnvSendsTheAuthorizationHeader() throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let directory = try temporaryDirectory()
        let sink = try HTTPSink(
            spec: server.url + ";auth-env=PERIMETER_TEST_TOKEN;spool=spool.jsonl;flush=0.1",
            directory: directory, environment: ["PERIMETER_TEST_TOKEN": "Bearer s3cret"])
        try run(sink, httpEvents(2))
        #expect(server.requests.map { $0.headers["authorization"] } == ["Bearer s3cret"])
        #expect(sink.spoolPath == directory + "/spool.jsonl")
    }

    @Test func aMissingAuthEnvVariableIsAnErrorAtStart() throws {
        let name = "PERIMETER_TEST_UNSET_\(UInt32.random(in: 0...UInt32.max))"
        let text = "http://127.0.0.1:9/events;auth-env=\(name)"
        let spec = try registry.spec(parsing: text)
        let error = #expect(throws: SinkError.self) { try registry.makeSink(for: spec) }
        #expect(
            error?.description
                == "sink \(text): auth-env=\(name): the environment variable \(name) is not set (it holds the Authorization header's value); set it, or remove the option"
        )
        #expect(throws: SinkError.self) { try HTTPSink(spec: text, environment: [name: ""]) }
    }

    @Test func makeSinkOpensAnHTTPSinkWithItsSpoolBesideTheScenario() throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let directory = try temporaryDirectory()
        let sink = try registry.makeSink(
            for: registry.spec(parsing: server.url + ";batch=2;spool=kept.jsonl"),
            context: SinkContext(directory: directory))
        let http = try #require(sink as? HTTPSink)
        #expect(http.spoolPath == directory + "/kept.jsonl")
        #expect(http.configuration.batchSize == 2)
        try run(sink, httpEvents(5))
        #expect(server.requests.map { $0.eventLines?.count } == [2, 2, 1])
    }
}

/// A flag set by the test, read by the sink's thread.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    func set() { lock.lock(); value = true; lock.unlock() }
}

/// A server started later by another thread.
final class ServerBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: LoopbackServer?
    var server: LoopbackServer? {
        get { lock.lock(); defer { lock.unlock() }; return value }
        set { lock.lock(); value = newValue; lock.unlock() }
    }
}

private let registry = SinkRegistry.core.adding(HTTPSink.kind)
