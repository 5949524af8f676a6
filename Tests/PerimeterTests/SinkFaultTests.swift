import Foundation
import TestSupport
import Testing
import WireFormat

#if canImport(Glibc)
    import Glibc
#endif

/// Issue "Hardening", sink faults, end to end: a sink that cannot write (a full disk, a file-size limit,
/// a closed pipe, a folder turned read-only) stops the run with exit code 3 and a message naming the
/// sink, the file and the cause; the other sinks hold every event produced; the failed sink's events
/// are in the run's journal (in $TMPDIR), which the message names; no partial file is left.
@Suite("perimeter run when a sink fails", .serialized)
struct SinkFaultTests {
    /// A good run of the crowd scenario (about 8,000 events): what every faulty run is compared with.
    struct GoodRun: Sendable {
        let scenario: CrowdScenario
        /// JSON Lines, CSV records (the header first) and console lines, without their line ends.
        let jsonl: [String], csv: [String], console: [String]

        static func make() throws -> GoodRun {
            let scenario = try CrowdScenario.make()
            let result = try PerimeterProcess.run(
                [
                    "run", scenario.file, "--sink", "jsonl:good.jsonl", "--sink", "csv:good.csv",
                    "--sink", "console",
                ], in: scenario.folder)
            struct Failed: Error { let stderr: String }
            guard result.status == 0 else { throw Failed(stderr: result.stderr) }
            let read = { (name: String) in
                try String(contentsOf: scenario.folder.appendingPathComponent(name), encoding: .utf8)
            }
            return GoodRun(
                scenario: scenario, jsonl: SinkFaultTests.lines(try read("good.jsonl"), "\n"),
                csv: SinkFaultTests.lines(try read("good.csv"), "\r\n"), console: SinkFaultTests.lines(result.stdout, "\n"))
        }
    }

    static let good = Result { try GoodRun.make() }

    enum Fault: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case fullDisk = "a 512 KiB tmpfs fills mid-run (jsonl)"
        case devFull = "/dev/full refuses the first write (jsonl)"
        case fileSizeLimit = "ulimit -f stops the GeoJSON file mid-run"
        case pipeCloses = "standard output's reader goes away after one line (jsonl:-)"
        case folderTurnsReadOnly = "the target folder turns read-only during the run, as nobody (jsonl)"
        var testDescription: String { rawValue }
    }

    /// How a fault is staged: the failing sink, the start of its message, and how to run.
    struct Setup {
        var failing: String
        /// The reason after "sink SPEC: ", given the process id (a partial file's name holds it).
        var reason: (pid_t) -> String
        var consoleOnStdout = false
        var fileSizeLimit: Int?
        var asNobody = false
        var failsAtFinish = false
        /// The failing sink's folder, where no partial file may be left.
        var targetFolder: URL?
        var cleanup: () -> Void = {}
    }

    /// 1,024 blocks: 512 KiB for dash (/bin/sh here), 1 MiB for bash. Either way the GeoJSON file (280
    /// bytes an event) outgrows it mid-run well before the journal (215) and the CSV file (135) do.
    static let limit = 1024

    static func prepare(_ fault: Fault, in folder: URL) throws -> Setup {
        switch fault {
        case .fullDisk:
            switch try SmallDisk.mount(kilobytes: 512) {
            case let .success(disk):
                let target = disk.folder.appendingPathComponent("e.jsonl").path
                return Setup(
                    failing: "jsonl:" + target, reason: { _ in "cannot write \"\(target)\": the disk is full" },
                    consoleOnStdout: true, targetFolder: disk.folder, cleanup: disk.unmount)
            case let .failure(refused):
                print(
                    "SinkFaultTests: no tmpfs can be mounted here (\(refused)); the full-disk case fills a file-size limit instead"
                )
                return try prepare(.fileSizeLimit, in: folder)
            }
        case .devFull:
            return Setup(failing: "jsonl:/dev/full", reason: { _ in "cannot write \"/dev/full\": the disk is full" })
        case .fileSizeLimit:
            let target = try subfolder("limited", of: folder).appendingPathComponent("e.geojson").path
            return Setup(
                failing: "geojson:" + target,
                reason: { _ in
                    "cannot write \"\(target)\": the file has reached the file-size limit (ulimit -f, or the file system's largest file)"
                }, consoleOnStdout: true, fileSizeLimit: limit,
                targetFolder: URL(fileURLWithPath: target).deletingLastPathComponent())
        case .pipeCloses:
            return Setup(failing: "jsonl:-", reason: { _ in "cannot write standard output: the reader closed the pipe" })
        case .folderTurnsReadOnly:
            let locked = try subfolder("locked", of: folder)
            let target = locked.appendingPathComponent("e.jsonl").path
            return Setup(
                failing: "jsonl:" + target,
                reason: { pid in
                    "cannot replace \"\(target)\": permission denied (check that the directory \"\(locked.path)\" is writable); "
                        + "its whole output is in \"\(locked.path)/.e.jsonl.partial-\(pid)\", which could not be renamed or removed"
                }, consoleOnStdout: true, asNobody: true, failsAtFinish: true, targetFolder: locked,
                cleanup: {
                    try? FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: locked.path)
                })
        }
    }

    @Test(arguments: Fault.allCases)
    func aFailingSinkLosesNothing(_ fault: Fault) throws {
        let good = try Self.good.get()
        let folder = try Self.subfolder("fault-\(UUID().uuidString)", of: good.scenario.folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let setup = try Self.prepare(fault, in: folder)
        defer { setup.cleanup() }
        let journalFolder = try Self.subfolder("journal", of: folder), others = try Self.subfolder("others", of: folder)
        // The failing sink first: the sinks after it must still get the event it failed at.
        let sinks =
            [setup.failing, "csv:" + others.appendingPathComponent("e.csv").path]
            + (setup.consoleOnStdout ? ["console"] : [])
        let run = try LaunchedPerimeter(
            ["run", good.scenario.file, "--threads", "1"] + sinks.flatMap { ["--sink", $0] },
            in: folder, environment: ["TMPDIR": journalFolder.path],
            fileSizeLimit: setup.fileSizeLimit, asNobody: setup.asNobody)
        switch fault {
        case .pipeCloses:
            #expect(run.readLine() == good.jsonl[0] + "\n")
            run.closeOutput()
        case .folderTurnsReadOnly:
            // The partial file exists from the start; the console's output, unread, holds the run until then.
            let locked = try #require(setup.targetFolder)
            try Self.waitForPartialFile(in: locked, while: run)
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: locked.path)
        default:
            break
        }
        let result = run.finish()
        #expect(!run.wasKilledBySignal)
        #expect(result.status == 3, "\(result.stderr)")

        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }
        try #require(errors.count == 1, "\(result.stderr)")
        let opening = "error: sink \(setup.failing): \(setup.reason(run.process.processIdentifier)); its "
        #expect(errors[0].hasPrefix(opening), "\(errors[0])")
        let kept = try #require(
            errors[0].firstMatch(
                of:
                    /; its (\d+) events were kept in "([^"]+)" \(JSON Lines, as jsonl: writes them; 'perimeter deliver' can send them to an HTTP sink\)$/
            ),
            "\(errors[0])")
        let count = try #require(Int(kept.1)), journal = String(kept.2)
        if setup.failsAtFinish {
            #expect(count == good.jsonl.count)
        } else {
            #expect(count > 0 && count < good.jsonl.count, "the run stopped at the failure")
        }

        // The journal: the run's events up to the failure, as the good run wrote them, readable by deliver.
        // G9: in a private folder of the temporary folder, alone.
        let own = URL(fileURLWithPath: journal).deletingLastPathComponent()
        #expect(own.deletingLastPathComponent().path == journalFolder.path)
        #expect(own.lastPathComponent.hasPrefix("perimeter-journal-"))
        let spool = try EventLogFile(path: journal)
        #expect(spool.events.count == count)
        #expect(String(decoding: spool.contents, as: UTF8.self) == Self.joined(good.jsonl.prefix(count), "\n"))
        #expect(try Self.names(in: journalFolder) == [own.lastPathComponent])
        #expect(try Self.names(in: own) == [URL(fileURLWithPath: journal).lastPathComponent])

        // The other sinks: every event up to the failure, nothing else, no partial file; a run stopped
        // by the failure keeps the file beside its target (a failed run leaves no half file looking complete).
        let keptFile = setup.failsAtFinish ? "e.csv" : "e.interrupted.csv"
        #expect(
            try String(contentsOf: others.appendingPathComponent(keptFile), encoding: .utf8)
                == Self.joined(good.csv.prefix(count + 1), "\r\n"))
        #expect(try Self.names(in: others) == [keptFile])
        if !setup.failsAtFinish {
            #expect(result.stderr.contains("e.interrupted.csv"), "the warning names where it was kept: \(result.stderr)")
        }
        if setup.consoleOnStdout {
            let console = Self.lines(result.stdout, "\n")
            #expect(console == Array(good.console.prefix(console.count)))
            #expect(console.filter { !$0.hasSuffix("(UTC)") }.count == count)
        }

        // Beside the failing target: nothing, or the partial file that a read-only folder keeps (named above).
        if let target = setup.targetFolder {
            let partials = try Self.names(in: target).filter { $0.contains(".partial-") }
            if fault == .folderTurnsReadOnly {
                #expect(partials == [".e.jsonl.partial-\(run.process.processIdentifier)"])
                #expect(
                    try String(contentsOf: target.appendingPathComponent(partials[0]), encoding: .utf8)
                        == Self.joined(good.jsonl[...], "\n"))
            } else {
                #expect(try Self.names(in: target).isEmpty, "\(partials)")
            }
        }
    }

    @Test("A folder read-only from the start: exit 3 before the run, the other sinks cancelled, no journal")
    func readOnlyFromTheStart() throws {
        let good = try Self.good.get()
        let folder = try Self.subfolder("fault-\(UUID().uuidString)", of: good.scenario.folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let locked = try Self.subfolder("locked", of: folder), others = try Self.subfolder("others", of: folder)
        let journalFolder = try Self.subfolder("journal", of: folder)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: locked.path)
        let target = locked.appendingPathComponent("e.jsonl").path
        let run = try LaunchedPerimeter(
            ["run", good.scenario.file, "--sink", "csv:" + others.path + "/e.csv", "--sink", "jsonl:" + target],
            in: folder, environment: ["TMPDIR": journalFolder.path], asNobody: true)
        let result = run.finish()
        #expect(result.status == 3, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "error: sink jsonl:\(target): cannot create \"\(target)\": permission denied (check that the directory \"\(locked.path)\" is writable); nothing was run."
            ),
            "\(result.stderr)")
        for empty in [locked, others, journalFolder] { #expect(try Self.names(in: empty).isEmpty, "\(empty.path)") }
    }

    enum JournalFault: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case missingFolder = "TMPDIR does not exist; the sinks are fine"
        case outgrown =
            "the journal outgrows ulimit -f before the CSV file does, which then fails too: the journal keeps its whole lines"
        var testDescription: String { rawValue }
    }

    @Test(arguments: JournalFault.allCases)
    func aJournalThatCannotBeWrittenDoesNotFailTheRun(_ fault: JournalFault) throws {
        let good = try Self.good.get()
        let folder = try Self.subfolder("fault-\(UUID().uuidString)", of: good.scenario.folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let journalFolder =
            fault == .missingFolder ? folder.appendingPathComponent("missing") : try Self.subfolder("journal", of: folder)
        let csv = folder.appendingPathComponent("e.csv").path
        let run = try LaunchedPerimeter(
            ["run", good.scenario.file, "--sink", "csv:" + csv, "--sink", "console"], in: folder,
            environment: ["TMPDIR": journalFolder.path],
            fileSizeLimit: fault == .outgrown ? Self.limit : nil)
        let result = run.finish()
        // The walkers end inside cafés (a warning of its own about open stays); the journal's is one more.
        let warnings = result.stderr.split(separator: "\n").filter {
            $0.hasPrefix("warning: ") && !$0.contains("stays were still open")
        }
        try #require(warnings.count == 1, "warned once: \(result.stderr)")
        let cause =
            fault == .missingFolder
            ? #/cannot create "[^"]+/missing/perimeter-journal-\d+-XXXXXX": the directory "[^"]+/missing" does not exist/#
            : #/cannot write "[^"]+/perimeter-journal-\d+-\w{6}/perimeter-run-\d{8}T\d{6}Z-\d+\.jsonl": the file has reached the file-size limit \(ulimit -f, or the file system's largest file\)/#
        let said = try #require(warnings[0].firstMatch(of: cause), "\(warnings[0])")
        #expect(
            warnings[0]
                == "warning: the run's journal cannot be written (\(said.output)): the run goes on, but from here on the events of a sink that fails cannot be kept; set TMPDIR to a folder with room"
        )
        let console = Self.lines(result.stdout, "\n")
        #expect(console == Array(good.console.prefix(console.count)))
        let count = console.filter { !$0.hasSuffix("(UTC)") }.count
        if fault == .missingFolder {
            #expect(result.status == 0, "\(result.stderr)")
            #expect(count == good.jsonl.count)
        } else {
            // F11: the journal keeps the whole lines it holds, and the message says which events are missing.
            #expect(result.status == 3, "\(result.stderr)")
            #expect(count > 0 && count < good.jsonl.count)
            let opening =
                "error: sink csv:\(csv): cannot write \"\(csv)\": the file has reached the file-size limit (ulimit -f, or the file system's largest file); "
            let error = try #require(
                result.stderr.split(separator: "\n").first { $0.hasPrefix(opening) }, "\(result.stderr)")
            let kept = try #require(
                error.firstMatch(
                    of:
                        /; only the first (\d+) of its (\d+) events were kept, in "([^"]+)" \(JSON Lines, as jsonl: writes them; 'perimeter deliver' can send them to an HTTP sink\); the other (\d+), from (\S+) on, could not be kept: the run's journal failed \((.+)\)$/
                ),
                "\(error)")
            let lines = try #require(Int(kept.1)), journal = String(kept.3)
            #expect(Int(kept.2) == count && Int(kept.4) == count - lines)
            #expect(lines > 0 && lines < count)
            #expect(kept.6 == said.output)
            let own = URL(fileURLWithPath: journal).deletingLastPathComponent()  // G9: its private folder
            #expect(try Self.names(in: journalFolder) == [own.lastPathComponent])
            #expect(try Self.names(in: own) == [URL(fileURLWithPath: journal).lastPathComponent])
            let spool = try EventLogFile(path: journal)
            #expect(String(decoding: spool.contents, as: UTF8.self) == Self.joined(good.jsonl.prefix(lines), "\n"))
            #expect(good.jsonl[lines].hasPrefix("{\"time\":\"\(kept.5)\","), "the first event missing: \(good.jsonl[lines])")
        }
        #expect(try Self.names(in: folder).filter { $0.contains(".partial-") }.isEmpty)
    }

    // MARK: Helpers

    static func lines(_ text: String, _ end: String) -> [String] {
        text.components(separatedBy: end).dropLast().map { $0 }
    }

    static func joined(_ lines: ArraySlice<String>, _ end: String) -> String { lines.map { $0 + end }.joined() }

    static func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    /// A new folder that anyone may write to (the unprivileged runs write there).
    static func subfolder(_ name: String, of folder: URL) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: url.path)
        return url
    }

    static func waitForPartialFile(in folder: URL, while run: LaunchedPerimeter) throws {
        let deadline = Date().addingTimeInterval(60)
        while try !names(in: folder).contains(where: { $0.contains(".partial-") }) {
            try #require(run.process.isRunning && Date() < deadline, "the run ended before its partial file was seen")
            usleep(2_000)
        }
    }
}
