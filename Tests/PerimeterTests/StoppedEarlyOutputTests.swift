import Foundation
import TestSupport
import Testing

/// Issue "Hardening" F4, end to end: a run stopped before its end (SIGINT, or a stream stopped by a bad
/// row) never renames its partial output over a file: the file at the target stays as it was (or is not
/// made), the partial output is kept beside it as `NAME.interrupted.EXT` (never over another file), and
/// a sentence names it.
@Suite("A run stopped early keeps its output beside the target", .serialized)
struct StoppedEarlyOutputTests {
    /// A crowd of 40 walkers for an hour (six windows of the run, about 22,000 events), and its events as
    /// a run that completes writes them.
    struct GoodRun: Sendable {
        let scenario: CrowdScenario
        let jsonl: [String], csv: [String]

        static func make() throws -> GoodRun {
            let scenario = try CrowdScenario.make(minutes: 60)
            let result = try PerimeterProcess.run(
                ["run", scenario.file, "--sink", "jsonl:good.jsonl", "--sink", "csv:good.csv"],
                in: scenario.folder)
            struct Failed: Error { let stderr: String }
            guard result.status == 0 else { throw Failed(stderr: result.stderr) }
            let read = { (name: String) in
                try String(contentsOf: scenario.folder.appendingPathComponent(name), encoding: .utf8)
            }
            return GoodRun(
                scenario: scenario, jsonl: SinkFaultTests.lines(try read("good.jsonl"), "\n"),
                csv: SinkFaultTests.lines(try read("good.csv"), "\r\n"))
        }
    }

    static let good = Result { try GoodRun.make() }

    /// What is in the folder before the run.
    enum Before: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case completeFiles = "complete files from an earlier run at the targets"
        case nothing = "no file at the targets"
        case earlierInterruptedFiles = "complete files and an earlier run's interrupted files"
        var testDescription: String { rawValue }
    }

    static let earlier = "an earlier run's complete output\n"
    static let earlierInterrupted = "an earlier run's interrupted output\n"

    @Test(
        "SIGINT mid-run: exit 130, the targets as they were, the partial output beside them, named",
        arguments: Before.allCases)
    func interruptedRun(_ before: Before) throws {
        let good = try Self.good.get()
        let folder = try SinkFaultTests.subfolder("stopped-\(UUID().uuidString)", of: good.scenario.folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let names = ["e.jsonl", "e.csv"]
        if before != .nothing {
            for name in names {
                try Self.earlier.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
            }
        }
        if before == .earlierInterruptedFiles {
            for name in ["e.interrupted.jsonl", "e.interrupted.csv"] {
                try Self.earlierInterrupted.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
            }
        }
        // The console's output, unread past its first line, holds the run in its first windows until the
        // signal has been sent.
        let run = try LaunchedPerimeter(
            ["run", good.scenario.file, "--sink", "jsonl:e.jsonl", "--sink", "csv:e.csv", "--sink", "console"],
            in: folder)
        #expect(!run.readLine().isEmpty)
        run.process.interrupt()
        let result = run.finish()
        #expect(result.status == 130, "\(result.stderr)")
        let summary = try #require(
            result.stderr.firstMatch(of: /40 devices, \d+ samples, (\d+) events .*INTERRUPTED/), "\(result.stderr)")
        let count = try #require(Int(summary.1))
        #expect(count > 0 && count < good.jsonl.count, "stopped part way")

        let kept =
            before == .earlierInterruptedFiles
            ? ["e.interrupted-2.jsonl", "e.interrupted-2.csv"] : ["e.interrupted.jsonl", "e.interrupted.csv"]
        for (name, keptName) in zip(names, kept) {
            let said =
                "warning: sink \(name.hasSuffix("csv") ? "csv" : "jsonl"):\(name): the run stopped before its end, so \"\(name)\" was "
                + (before == .nothing ? "not made" : "left as it was")
                + "; what the sink wrote is in \"\(keptName)\" (rename it to use it)"
            #expect(result.stderr.contains(said), "\(result.stderr)")
        }
        #expect(
            try String(contentsOf: folder.appendingPathComponent(kept[0]), encoding: .utf8)
                == SinkFaultTests.joined(good.jsonl.prefix(count), "\n"))
        #expect(
            try String(contentsOf: folder.appendingPathComponent(kept[1]), encoding: .utf8)
                == SinkFaultTests.joined(good.csv.prefix(count + 1), "\r\n"))
        let expected: [String] =
            switch before {
            case .nothing: kept
            case .completeFiles: names + kept
            case .earlierInterruptedFiles: names + kept + ["e.interrupted.jsonl", "e.interrupted.csv"]
            }
        #expect(try SinkFaultTests.names(in: folder) == expected.sorted(), "no partial file, nothing else")
        for name in before == .nothing ? [] : names {
            #expect(try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8) == Self.earlier)
        }
        if before == .earlierInterruptedFiles {
            #expect(
                try String(contentsOf: folder.appendingPathComponent("e.interrupted.jsonl"), encoding: .utf8)
                    == Self.earlierInterrupted)
        }
    }

    @Test("SIGINT mid-batch (--runs): exit 130, the target as it was, the runs done beside it, named")
    func interruptedBatch() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.earlier.write(to: folder.appendingPathComponent("e.csv"), atomically: true, encoding: .utf8)
        // Standard output, unread past its first line, holds the batch in its first runs until the signal.
        let run = try LaunchedPerimeter(
            [
                "run", PerimeterProcess.root.path + "/Scenarios/restaurant-welcome.yaml", "--runs", "5000",
                "--sink", "jsonl:-", "--sink", "csv:e.csv",
            ], in: folder)
        #expect(!run.readLine().isEmpty)
        run.process.interrupt()
        let result = run.finish()
        #expect(result.status == 130, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                #"warning: sink csv:e.csv: the run stopped before its end, so "e.csv" was left as it was; what the sink wrote is in "e.interrupted.csv" (rename it to use it)"#
            ),
            "\(result.stderr)")
        #expect(try String(contentsOf: folder.appendingPathComponent("e.csv"), encoding: .utf8) == Self.earlier)
        let kept = try String(contentsOf: folder.appendingPathComponent("e.interrupted.csv"), encoding: .utf8)
        let runs = try #require(result.stderr.firstMatch(of: /(\d+) of 5000 runs, (\d+) events in all/), "\(result.stderr)")
        #expect(Int(runs.1)! < 5000)
        #expect(
            kept.components(separatedBy: "\r\n").dropLast().count == 1 + Int(runs.2)!,
            "the header and every event of the runs done")
        #expect(try SinkFaultTests.names(in: folder) == ["e.csv", "e.interrupted.csv"])
    }

    @Test("stream stopped by a bad row: exit 2, the target as it was, the devices before it beside it, named")
    func streamStoppedByABadRow() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = try StreamCommandTests.fleetScenario(in: folder, devices: false)
        let van = { (n: Int) in (0..<4).map { String(format: "van-%02d,2024-05-01T09:00:%02dZ,59.93,30.32", n, $0 * 10) } }
        let input = folder.appendingPathComponent("bad.csv").path
        try (["device,time,lat,lon"] + van(1) + van(2) + ["van-03,2024-05-01T09:00:10Z,north,30.32"]).joined(separator: "\n")
            .appending("\n").write(toFile: input, atomically: true, encoding: .utf8)
        try Self.earlier.write(to: folder.appendingPathComponent("e.jsonl"), atomically: true, encoding: .utf8)
        let arguments = ["stream", scenario, "--start", StreamCommandTests.fleetStart]
        let toStandardOutput = try PerimeterProcess.run(arguments, in: folder, standardInput: input)
        let result = try PerimeterProcess.run(arguments + ["--sink", "jsonl:e.jsonl"], in: folder, standardInput: input)
        #expect(result.status == 2, "\(result.stderr)")
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }
        #expect(
            errors == [
                #"error: standard input:10:29: "lat" is "north", which is not a number"#,
                "error: the sinks kept the events of the 2 devices before it",
                #"error: sink jsonl:e.jsonl: the run stopped before its end, so "e.jsonl" was left as it was; what the sink wrote is in "e.interrupted.jsonl" (rename it to use it)"#,
            ],
            "\(result.stderr)")
        #expect(try String(contentsOf: folder.appendingPathComponent("e.jsonl"), encoding: .utf8) == Self.earlier)
        let kept = try String(contentsOf: folder.appendingPathComponent("e.interrupted.jsonl"), encoding: .utf8)
        #expect(!kept.isEmpty && kept == toStandardOutput.stdout)
        #expect(try SinkFaultTests.names(in: folder).filter { $0.hasPrefix("e.") } == ["e.interrupted.jsonl", "e.jsonl"])
    }
}
