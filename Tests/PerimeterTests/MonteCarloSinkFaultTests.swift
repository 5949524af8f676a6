import Foundation
import TestSupport
import Testing
import WireFormat

/// Issue "Hardening" F1, end to end: a Monte Carlo batch (`run --runs N`) whose sink fails keeps that
/// sink's events in the run's journal, each with its run, as a single run does, and says where.
@Suite("perimeter run --runs N when a sink fails", .serialized)
struct MonteCarloSinkFaultTests {
    /// 100 runs of the restaurant visit (500 events, about 100 KB of JSON Lines), each event with its run.
    static let arguments = [
        "run", PerimeterProcess.root.path + "/Scenarios/restaurant-welcome.yaml", "--runs", "100", "--quiet",
    ]

    /// The batch's JSON Lines as a good run writes them, without their line ends.
    static let good = Result { () throws -> [String] in
        let folder = try PerimeterProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try PerimeterProcess.run(arguments + ["--sink", "jsonl:good.jsonl"], in: folder)
        struct Failed: Error { let stderr: String }
        guard result.status == 0 else { throw Failed(stderr: result.stderr) }
        return SinkFaultTests.lines(
            try String(contentsOf: folder.appendingPathComponent("good.jsonl"), encoding: .utf8), "\n")
    }

    enum Fault: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case devFull = "/dev/full refuses the JSON Lines sink's first write"
        case fullDisk = "a 32 KiB tmpfs fills mid-batch (csv)"
        var testDescription: String { rawValue }
    }

    @Test(arguments: Fault.allCases)
    func theFailedSinksEventsAreKeptWithTheirRuns(_ fault: Fault) throws {
        let good = try Self.good.get()
        let folder = try PerimeterProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let journalFolder = try SinkFaultTests.subfolder("journal", of: folder),
            others = try SinkFaultTests.subfolder("others", of: folder)
        var failing = "jsonl:/dev/full", disk: SmallDisk?
        defer { disk?.unmount() }
        if fault == .fullDisk {
            // A file-size limit would stop the journal (each event with its run, as JSON Lines) first.
            switch try SmallDisk.mount(kilobytes: 32) {
            case let .success(mounted):
                disk = mounted
                failing = "csv:" + mounted.folder.appendingPathComponent("e.csv").path
            case let .failure(refused):
                print("MonteCarloSinkFaultTests: no tmpfs can be mounted here (\(refused)); the full-disk case is skipped")
                return
            }
        }
        let run = try LaunchedPerimeter(
            Self.arguments + ["--sink", failing, "--sink", "jsonl:" + others.path + "/e.jsonl"],
            in: folder, environment: ["TMPDIR": journalFolder.path])
        let result = run.finish()
        #expect(!run.wasKilledBySignal)
        #expect(result.status == 3, "\(result.stderr)")
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }
        try #require(errors.count == 1, "\(result.stderr)")
        #expect(errors[0].hasPrefix("error: sink \(failing): cannot write "), "\(errors[0])")
        let kept = try #require(
            errors[0].firstMatch(
                of:
                    /; its (\d+) events were kept in "([^"]+)" \(JSON Lines, each event with its run, as jsonl: writes them with --runs\)$/
            ),
            "\(errors[0])")
        let count = try #require(Int(kept.1)), journal = String(kept.2)
        #expect(count > 0 && count < good.count, "the batch stopped at the failure")

        // The journal: the batch's events up to the failure, each with its run, as the good batch wrote them.
        // G9: in a private folder of the temporary folder, alone.
        let own = URL(fileURLWithPath: journal).deletingLastPathComponent()
        #expect(own.deletingLastPathComponent().path == journalFolder.path)
        #expect(own.lastPathComponent.hasPrefix("perimeter-journal-"))
        let contents = try String(contentsOfFile: journal, encoding: .utf8)
        #expect(contents == SinkFaultTests.joined(good.prefix(count), "\n"))
        #expect(try SinkFaultTests.names(in: journalFolder) == [own.lastPathComponent])
        #expect(try SinkFaultTests.names(in: own) == [URL(fileURLWithPath: journal).lastPathComponent])

        // The other sink holds the same events, kept beside its target: the batch stopped at the failure.
        #expect(try String(contentsOf: others.appendingPathComponent("e.interrupted.jsonl"), encoding: .utf8) == contents)
        #expect(!FileManager.default.fileExists(atPath: others.appendingPathComponent("e.jsonl").path))
    }

    @Test("A batch whose sinks all succeed leaves no journal")
    func aGoodBatchLeavesNoJournal() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let journalFolder = try SinkFaultTests.subfolder("journal", of: folder)
        let run = try LaunchedPerimeter(
            Self.arguments + ["--sink", "jsonl:e.jsonl", "--sink", "csv:e.csv"], in: folder,
            environment: ["TMPDIR": journalFolder.path])
        let result = run.finish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try SinkFaultTests.names(in: journalFolder).isEmpty)
        #expect(
            try String(contentsOf: folder.appendingPathComponent("e.jsonl"), encoding: .utf8)
                == SinkFaultTests.joined(try Self.good.get()[...], "\n"))
    }
}
