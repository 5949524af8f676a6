import Foundation
import TestSupport
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
        let dead = "http://127.0.0.1:\(try LoopbackServer.reservePort())/events;retries=1;backoff=0.01;timeout=1"
        let run = try PerimeterProcess.run(
            ["run", Self.scenario, "--sink", dead, "--sink", "jsonl:events.jsonl"],
            in: folder)
        #expect(run.status == 3, "\(run.stderr)")
        let spool = try #require(try spools(in: folder).first)
        let produced = try String(contentsOf: folder.appendingPathComponent("events.jsonl"), encoding: .utf8)
        let lines = produced.split(separator: "\n").map(String.init)
        // Each spooled line is the event's line with its batch's key last (one batch of 5: batch=500).
        let spooled = try String(contentsOf: folder.appendingPathComponent(spool), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let runKey = try #require(spooled.first?.firstMatch(of: /"idempotencyKey":"([0-9a-f]{32}-0)"}$/)?.1)
        #expect(spooled == lines.map { $0.dropLast() + ",\"idempotencyKey\":\"\(runKey)\"}" })
        #expect(spool.range(of: #"^perimeter-spool-\d{8}T\d{6}Z-\d+\.jsonl$"#, options: .regularExpression) != nil)
        #expect(run.stderr.contains("error: sink \(dead): delivered 0 of 5 events to "), "\(run.stderr)")
        #expect(run.stderr.contains("the other 5 are in the spool file \"\(spool)\""))
        #expect(run.stderr.contains("perimeter deliver \(spool) --sink '\(dead)'"))
        #expect(!run.stderr.contains("the run stopped"))

        let server = try LoopbackServer()
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/in;batch=2"
        // The spooled batch goes again whole, under the run's key, whatever deliver's batch size.
        let deliver = try PerimeterProcess.run(["deliver", spool, "--sink", url], in: folder)
        #expect(deliver.status == 0, "\(deliver.stderr)")
        #expect(deliver.stderr.contains("delivered 5 events"))
        #expect(server.bodies.map(\.key) == [String(runKey)])
        #expect(server.bodies.map(\.body) == ["{\"events\":[\(lines.joined(separator: ","))]}"])
        #expect(try spools(in: folder) == [spool])  // no new spool

        // A file without keys (a journal, a jsonl: log) is batched by deliver, under keys of its own.
        let plain = try PerimeterProcess.run(["deliver", "events.jsonl", "--sink", url], in: folder)
        #expect(plain.status == 0, "\(plain.stderr)")
        let bodies = Array(server.bodies.dropFirst())
        #expect(bodies.count == 3)
        #expect(
            bodies.map(\.body) == [
                "{\"events\":[\(lines[0]),\(lines[1])]}", "{\"events\":[\(lines[2]),\(lines[3])]}",
                "{\"events\":[\(lines[4])]}",
            ])
        let keys = bodies.map(\.key)
        #expect(keys.allSatisfy { $0.range(of: #"^spool-[0-9a-f]{16}-[0-2]$"#, options: .regularExpression) != nil })
        #expect(Set(keys).count == 3)

        // The same file again: the same keys, so a deduplicating server takes nothing twice.
        let again = try PerimeterProcess.run(["deliver", "events.jsonl", "--sink", url], in: folder)
        #expect(again.status == 0)
        #expect(server.bodies.dropFirst(4).map(\.key) == keys)
    }

    @Test("deliver: an unreachable server exits 3 with a new spool of what is still undelivered")
    func deliverToNowhere() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        let run = try PerimeterProcess.run(["run", Self.scenario, "--sink", "jsonl:events.jsonl"], in: folder)
        #expect(run.status == 0)
        let dead = "http://127.0.0.1:\(try LoopbackServer.reservePort())/events;retries=0;spool=left.jsonl"
        let deliver = try PerimeterProcess.run(["deliver", "events.jsonl", "--sink", dead], in: folder)
        #expect(deliver.status == 3)
        #expect(deliver.stderr.contains("delivered 0 of 5 events"), "\(deliver.stderr)")
        #expect(deliver.stderr.contains("\"left.jsonl\""))
        // The new spool keeps deliver's key of the one batch (batch=500) on each line.
        let key = try #require(deliver.stderr.firstMatch(of: /Idempotency-Key (spool-[0-9a-f]{16}-0)/)?.1)
        let events = try String(contentsOf: folder.appendingPathComponent("events.jsonl"), encoding: .utf8)
            .split(separator: "\n").map { $0.dropLast() + ",\"idempotencyKey\":\"\(key)\"}\n" }.joined()
        #expect(try String(contentsOf: folder.appendingPathComponent("left.jsonl"), encoding: .utf8) == events)
    }

    @Test(
        "deliver: bad input exits 2 and sends nothing",
        arguments: [
            (
                "{\"time\":\"2016-01-10T12:00:00.000Z\",\"device\":\"p\",\"region\":\"r\",\"kind\":\"monitor-start\",\"lat\":1,\"lon\":2,\"distance\":3}\nnot json\n",
                "bad.jsonl:2:1: not a JSON event object: expected '{' at column 1"
            ),
            ("{\"kind\":\"enter\"}\n", "bad.jsonl:1: "),
        ])
    func deliverRefusesABadFile(text: String, message: String) throws {
        let folder = try PerimeterProcess.temporaryFolder()
        try text.write(to: folder.appendingPathComponent("bad.jsonl"), atomically: true, encoding: .utf8)
        let server = try LoopbackServer()
        defer { server.stop() }
        let result = try PerimeterProcess.run(
            ["deliver", "bad.jsonl", "--sink", "http://127.0.0.1:\(server.port)/x"],
            in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains("error: " + message), "\(result.stderr)")
        #expect(server.bodies.isEmpty)
    }

    @Test(
        "deliver: a sink that is not HTTP, a bad option, a missing file or a FIFO exit 2",
        arguments: [
            (["deliver", "x.jsonl", "--sink", "jsonl:y.jsonl"], "deliver sends to an HTTP sink"),
            (["deliver", "x.jsonl", "--sink", "http://127.0.0.1:9/x;batch=0"], "batch=0: expected a whole number from 1"),
            (["deliver", "x.jsonl", "--sink", "http://127.0.0.1:9/x;colour=red"], "unknown option \"colour\""),
            (["deliver", "no-such.jsonl", "--sink", "http://127.0.0.1:9/x"], "no-such.jsonl: no such file"),
            // A FIFO no one writes to: refused at once, not waited on.
            (
                ["deliver", "fifo.jsonl", "--sink", "http://127.0.0.1:9/x"],
                "fifo.jsonl: it is not a regular file (a FIFO or a device)"
            ),
            (
                ["run", DeliverTests.scenario, "--sink", "http://127.0.0.1:9/x;retries"],
                "the option \"retries\" is not key=value"
            ),
        ])
    func badArguments(arguments: [String], message: String) throws {
        let folder = try PerimeterProcess.temporaryFolder()
        try "".write(to: folder.appendingPathComponent("x.jsonl"), atomically: true, encoding: .utf8)
        #expect(mkfifo(folder.appendingPathComponent("fifo.jsonl").path, 0o644) == 0)
        let result = try PerimeterProcess.run(arguments, in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("run: a missing auth-env variable fails before the run, naming the variable")
    func missingAuthVariable() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        let name = "PERIMETER_TEST_UNSET_\(UInt32.random(in: 0...UInt32.max))"
        let result = try PerimeterProcess.run(
            ["run", Self.scenario, "--sink", "http://127.0.0.1:9/x;auth-env=\(name)"],
            in: folder)
        #expect(result.status == 3)
        #expect(result.stderr.contains("the environment variable \(name) is not set"), "\(result.stderr)")
        #expect(result.stderr.contains("nothing was run"))
    }
}

extension LoopbackServer {
    struct Received { var key: String; var body: String }

    /// What arrived, in order: each request's Idempotency-Key and body.
    var bodies: [Received] {
        requests.map { Received(key: $0.idempotencyKey ?? "", body: String(decoding: $0.body, as: UTF8.self)) }
    }
}
