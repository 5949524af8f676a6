import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `perimeter deliver` and the spool it is given (issue 37): a failed retry never appends what is left
/// to its own input (G4), and a spool of any size is streamed with bounded memory, a bad line still
/// sending nothing (G5). Against a real HTTP server on 127.0.0.1, or a port nothing listens on.
@Suite("perimeter deliver: its own spool, and spools larger than memory", .serialized)
struct DeliverSpoolTests {
    /// A port nothing listens on, with no retries, as `--sink` text (with `options` appended).
    static func dead(_ options: String = "") throws -> String {
        "http://127.0.0.1:\(try LoopbackServer.reservePort())/events;retries=0" + options
    }

    func lineCount(_ folder: URL, _ name: String) throws -> Int {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8).split(separator: "\n").count
    }

    /// The `perimeter deliver …` command a failed run or delivery suggests, as its arguments.
    func suggested(_ stderr: String) throws -> [String] {
        let match = try #require(
            stderr.firstMatch(of: /later with: perimeter deliver (\S+) --sink '([^']+)'\)/), "\(stderr)")
        return ["deliver", String(match.1), "--sink", String(match.2)]
    }

    @Test("G4: retrying the suggested command again and again never grows the spool (it doubled: 5, 10, 20, 40)")
    func retriesDoNotDoubleTheSpool() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        let sink = try Self.dead(";spool=spool.jsonl")
        let run = try PerimeterProcess.run(
            ["run", DeliverTests.scenario, "--sink", sink, "--sink", "jsonl:events.jsonl"], in: folder)
        #expect(run.status == 3, "\(run.stderr)")
        #expect(try lineCount(folder, "spool.jsonl") == 5)
        var command = try suggested(run.stderr)
        #expect(!command[3].contains("spool="), "the suggested sink drops spool=: \(command)")
        var spools: Set<String> = []
        for _ in 0..<3 {
            let retry = try PerimeterProcess.run(command, in: folder)
            #expect(retry.status == 3, "\(retry.stderr)")
            #expect(try lineCount(folder, "spool.jsonl") == 5, "the input is left as it was")
            command = try suggested(retry.stderr)
            #expect(!command[3].contains("spool="))
            let left = command[1]
            #expect(spools.insert(left).inserted && left != "spool.jsonl", "a new spool each time: \(left)")
            #expect(try lineCount(folder, left) == 5, "what is left: the same five events")
        }
    }

    /// Ways to name the spool being delivered as the sink's own `spool=`.
    static let sameFile: [(name: String, make: @Sendable (URL) throws -> String)] = [
        ("the same name", { _ in "spool.jsonl" }),
        ("./ before it", { _ in "./spool.jsonl" }),
        ("its absolute path", { $0.appendingPathComponent("spool.jsonl").path }),
        (
            "a hard link",
            { folder in
                try FileManager.default.linkItem(
                    at: folder.appendingPathComponent("spool.jsonl"), to: folder.appendingPathComponent("hard.jsonl"))
                return "hard.jsonl"
            }
        ),
        (
            "a symbolic link",
            { folder in
                try FileManager.default.createSymbolicLink(
                    atPath: folder.appendingPathComponent("soft.jsonl").path, withDestinationPath: "spool.jsonl")
                return "soft.jsonl"
            }
        ),
    ]

    @Test("G4: a sink whose spool= is the file being delivered is refused (exit 2), nothing sent", arguments: 0..<5)
    func spoolingIntoTheInputIsRefused(_ index: Int) throws {
        let (name, make) = Self.sameFile[index]
        let folder = try PerimeterProcess.temporaryFolder()
        let run = try PerimeterProcess.run(["run", DeliverTests.scenario, "--sink", "jsonl:spool.jsonl"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let spool = try make(folder)
        let server = try LoopbackServer()
        defer { server.stop() }
        let sink = server.url + ";spool=\(spool)"
        let deliver = try PerimeterProcess.run(["deliver", "spool.jsonl", "--sink", sink], in: folder)
        #expect(deliver.status == 2, "\(name): \(deliver.stderr)")
        #expect(
            deliver.stderr
                == "error: sink \(sink): spool=\(spool) names the file being delivered, so the events it could not deliver "
                + "would be appended to the file they came from, which would double at every failed try; drop spool= "
                + "(what is left then goes to a new spool file, which the message names) or give another file; nothing was sent.\n"
        )
        #expect(server.requests.isEmpty)
        #expect(try lineCount(folder, "spool.jsonl") == 5)
    }

    @Test("G4: a spool= beside the input, another file, is used")
    func anotherSpoolIsUsed() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        let run = try PerimeterProcess.run(["run", DeliverTests.scenario, "--sink", "jsonl:spool.jsonl"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        try FileManager.default.copyItem(
            at: folder.appendingPathComponent("spool.jsonl"), to: folder.appendingPathComponent("copy.jsonl"))
        let deliver = try PerimeterProcess.run(
            ["deliver", "spool.jsonl", "--sink", try Self.dead(";spool=copy.jsonl")], in: folder)
        #expect(deliver.status == 3, "\(deliver.stderr)")
        #expect(try lineCount(folder, "copy.jsonl") == 10, "appended to, as runs sharing a spool do")
    }

    /// A spool of `count` events, each about `deviceBytes` long (its device id), no key: written in
    /// `folder`, returns its size in bytes.
    static func bigSpool(in folder: URL, count: Int, deviceBytes: Int) throws -> Int {
        let path = folder.appendingPathComponent("big.jsonl").path
        guard
            let file = FileHandle(forWritingAtPath: path)
                ?? {
                    _ = FileManager.default.createFile(atPath: path, contents: nil)
                    return FileHandle(forWritingAtPath: path)
                }()
        else { throw CocoaError(.fileWriteUnknown) }
        defer { try? file.close() }
        let padding = String(repeating: "x", count: deviceBytes)
        var size = 0
        for i in 0..<count {
            let line =
                "{\"time\":\"2016-01-10T12:00:\(String(format: "%02d", i % 60)).000Z\",\"device\":\"d\(String(format: "%04d", i))\(padding)\","
                + "\"region\":\"cafe\",\"kind\":\"monitor-start\",\"lat\":37.7,\"lon\":-121.7,\"distance\":-3.5}\n"
            try file.write(contentsOf: Data(line.utf8))
            size += line.utf8.count
        }
        return size
    }

    @Test("G5: a spool over the 128 MB once read whole is streamed to a real server, in order, with bounded memory")
    func aSpoolOverTheOldLimitIsStreamed() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 136 events of 1 MB: past 128 MiB in few lines, so that a debug build reads it in seconds.
        let count = 136
        let size = try Self.bigSpool(in: folder, count: count, deviceBytes: 1_000_000)
        #expect(size > 128 << 20)
        let server = try LoopbackServer()
        defer { server.stop() }
        let run = try MeasuredProcess.run(
            ["deliver", "big.jsonl", "--sink", server.url + ";batch=2"], in: folder,
            timeout: .seconds(Int64(Sanitizer.current.timeBound(300))))
        print(
            "deliver of a \(size >> 20) MiB spool: \(run.peakResidentBytes >> 20) MiB peak, "
                + String(format: "%.1f s", run.seconds))
        #expect(!run.timedOut)
        #expect(run.result.status == 0, "\(run.result.stderr)")
        #expect(run.result.stderr.contains("delivered \(count) events from big.jsonl"), "\(run.result.stderr)")
        // Memory: a chunk, a line and the sink's few pending batches, not the file.
        #expect(run.peakResidentBytes < Sanitizer.current.memoryBound(100 << 20), "\(run.peakResidentBytes >> 20) MiB")
        let bodies = server.requests.map(\.body)
        #expect(bodies.count == count / 2)
        #expect(bodies.reduce(0) { $0 + $1.count } > size, "every byte of every event, in batches")
        for (n, body) in bodies.enumerated() {
            // Each batch holds its two events, in the file's order.
            let first = body.range(of: Data("\"device\":\"d\(String(format: "%04d", 2 * n))x".utf8))
            let second = body.range(of: Data("\"device\":\"d\(String(format: "%04d", 2 * n + 1))x".utf8))
            #expect(first != nil && second != nil && first!.lowerBound < second!.lowerBound, "batch \(n)")
        }
    }

    @Test("G5: a bad line at the end of a large spool sends nothing, naming its line and column")
    func aBadLineAtTheEndSendsNothing() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try Self.bigSpool(in: folder, count: 20_000, deviceBytes: 10)
        let file = try FileHandle(forWritingTo: folder.appendingPathComponent("big.jsonl"))
        try file.seekToEnd()
        try file.write(contentsOf: Data("{\"time\" \"2016-01-10T12:00:00.000Z\"}\n".utf8))
        try file.close()
        let server = try LoopbackServer()
        defer { server.stop() }
        let deliver = try PerimeterProcess.run(["deliver", "big.jsonl", "--sink", server.url + ";batch=2"], in: folder)
        #expect(deliver.status == 2)
        #expect(
            deliver.stderr == "error: big.jsonl:20001:9: not a JSON event object: expected ':' at column 9\n")
        #expect(server.requests.isEmpty, "nothing sent")
    }
}
