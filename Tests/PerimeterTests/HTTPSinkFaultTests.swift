import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The HTTP sink against servers that misbehave, through the real binary: a server that hangs (the wait
/// costs no processor time; SIGINT stops the run at once, exit 130, every undelivered event spooled), a
/// server that processes a batch but answers too late (`deliver` re-sends it under its own key, so a
/// deduplicating server takes it once), and a `spool=PATH` shared by runs one after another and at once
/// (appended to, never overwritten). Every case ends with produced = delivered + spooled, checked by
/// delivering the spool to a server that deduplicates by `Idempotency-Key`.
@Suite("The HTTP sink against a hanging, late or shared target", .serialized)
struct HTTPSinkFaultTests {
    static let scenario = PerimeterProcess.root.appendingPathComponent("Scenarios/lorrenzillos.yaml").path
    /// A server that reads each request and never answers (until stopped).
    static let hanging: @Sendable (Int) -> LoopbackServer.Reply = { _ in .hang }

    /// The event lines of a `jsonl:` file, in order.
    func lines(_ folder: URL, _ name: String) throws -> [String] {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            .split(separator: "\n").map(String.init)
    }

    /// Starts `perimeter run SCENARIO` with `sinks` (and `options`); returns it once the server has
    /// received its first request, still running.
    func startRun(
        _ sinks: [String], scenario: String = scenario, options: [String] = [], in folder: URL,
        server: LoopbackServer
    ) throws -> LaunchedPerimeter {
        let run = try LaunchedPerimeter(["run", scenario] + options + sinks.flatMap { ["--sink", $0] }, in: folder)
        let deadline = Date().addingTimeInterval(180)  // a bound, not a timing: a sanitized build loads slowly
        while server.requests.isEmpty && run.process.isRunning && Date() < deadline { usleep(10_000) }
        try #require(!server.requests.isEmpty && run.process.isRunning, "the run sent nothing, or ended")
        return run
    }

    /// Sends SIGINT to `run` and expects exit 130 within `limit` seconds and `INTERRUPTED`; kills it
    /// after twice the limit (so that a run that waits out its retries fails its test instead of
    /// stalling the suite).
    func interrupt(_ run: LaunchedPerimeter, within limit: Double) -> PerimeterProcess.Result {
        let pid = run.process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + 2 * limit) { [process = run.process] in
            if process.isRunning { kill(pid, SIGKILL) }
        }
        let interrupted = Date()
        run.process.interrupt()
        let result = run.finish()
        let seconds = Date().timeIntervalSince(interrupted)
        #expect(!run.wasKilledBySignal && result.status == 130, "exit \(result.status) after \(seconds) s: \(result.stderr)")
        #expect(seconds < limit, "stopped \(seconds) s after SIGINT")
        #expect(result.stderr.contains("INTERRUPTED"), "\(result.stderr)")
        return result
    }

    /// Delivers `spool` to a fresh deduplicating server; returns the event lines it took.
    func delivered(_ spool: String, in folder: URL, batch: Int = 2) throws -> [String] {
        let server = try LoopbackServer()
        defer { server.stop() }
        let result = try PerimeterProcess.run(["deliver", spool, "--sink", server.url + ";batch=\(batch)"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        return server.acceptedLines
    }

    @Test("F8: waiting on a server that hangs costs under 5 % of a core")
    func waitingCostsNoProcessorTime() throws {
        let server = try LoopbackServer(script: Self.hanging)
        defer { server.stop() }
        let folder = try PerimeterProcess.temporaryFolder()
        let run = try startRun([server.url + ";timeout=60;retries=0"], in: folder, server: server)
        defer { if run.process.isRunning { kill(run.process.processIdentifier, SIGKILL) }; _ = run.finish() }
        let before = try #require(run.processorSeconds), started = Date()
        // A measurement window, not a timing assertion: the run waits for an answer throughout it.
        Thread.sleep(forTimeInterval: 3)
        let after = try #require(run.processorSeconds), wall = Date().timeIntervalSince(started)
        #expect(run.process.isRunning)
        #expect((after - before) / wall < 0.05, "used \(after - before) s of processor time in \(wall) s of waiting")
    }

    @Test("F10: SIGINT while a server hangs: exit 130 at once, INTERRUPTED, every undelivered event spooled")
    func interruptedWhileWaiting() throws {
        let server = try LoopbackServer(script: Self.hanging)
        defer { server.stop() }
        let folder = try PerimeterProcess.temporaryFolder()
        let http = server.url + ";batch=2;timeout=30;retries=5;spool=spool.jsonl"
        let run = try startRun([http, "jsonl:events.jsonl"], in: folder, server: server)
        let result = interrupt(run, within: 10)
        #expect(result.stderr.contains("the other 5 are in the spool file \"spool.jsonl\""), "\(result.stderr)")
        let produced = try lines(folder, "events.jsonl")
        #expect(produced.count == 5)
        #expect(try delivered("spool.jsonl", in: folder) == produced, "delivered + spooled = produced")
    }

    @Test("F10: SIGINT while the run is held up by a hanging server (its batches full): exit 130, nothing lost")
    func interruptedMidRun() throws {
        let server = try LoopbackServer(script: Self.hanging)
        defer { server.stop() }
        let scenario = try BigScenario.make()
        defer { try? FileManager.default.removeItem(at: scenario.folder) }
        let http = server.url + ";timeout=30;retries=5;spool=spool.jsonl"
        let run = try startRun(
            [http, "jsonl:events.jsonl"], scenario: scenario.file, options: ["--threads", "1"],
            in: scenario.folder, server: server)
        Thread.sleep(forTimeInterval: 0.5)  // lets the run fill the sink's pending batches and block (not asserted)
        // The sink stops at once; the run stops at the end of its window (about 200,000 events of this
        // scenario, spooled in some 10 s by a debug build). Waiting out the retries would take 180 s.
        let result = interrupt(run, within: 60)
        // The run stopped early: what jsonl: wrote is kept beside its target (docs/COMMANDS.md "Sinks"), not over it.
        #expect(!FileManager.default.fileExists(atPath: scenario.folder.appendingPathComponent("events.jsonl").path))
        let produced = try lines(scenario.folder, "events.interrupted.jsonl")
        #expect(produced.count > 2_000, "the run was past its first batches")
        #expect(result.stderr.contains("delivered 0 of \(produced.count) events"), "\(result.stderr)")
        // Every event is in the spool, in order (its line with its batch's key last): spooled = produced.
        let spooled = try lines(scenario.folder, "spool.jsonl")
        #expect(spooled.count == produced.count)
        #expect(
            zip(spooled, produced).allSatisfy { spool, event in
                spool.hasPrefix(event.dropLast() + ",\"idempotencyKey\":\"")
            })
    }

    @Test("F9: a batch the server took but answered too late is re-sent by deliver under its own key")
    func deliverReusesTheSpooledKeys() throws {
        // Request 0 (batch 0) is processed, but answered after the client gave up; the rest is answered.
        let server = try LoopbackServer { n in n == 0 ? .status(200, delay: 3) : .status(200) }
        defer { server.stop() }
        let folder = try PerimeterProcess.temporaryFolder()
        let http = server.url + ";batch=2;timeout=1;retries=0;spool=spool.jsonl"
        let run = try PerimeterProcess.run(
            ["run", Self.scenario, "--sink", http, "--sink", "jsonl:events.jsonl"], in: folder)
        #expect(run.status == 3, "\(run.stderr)")
        let produced = try lines(folder, "events.jsonl")
        let firstKey = try #require(server.requests.first?.idempotencyKey)

        for batch in [2, 3] {  // deliver's own batch size does not split a spooled batch
            let deliver = try PerimeterProcess.run(
                ["deliver", "spool.jsonl", "--sink", server.url + ";batch=\(batch)"],
                in: folder)
            #expect(deliver.status == 0, "\(deliver.stderr)")
            #expect(server.requests.dropFirst().first?.idempotencyKey == firstKey)
            #expect(server.acceptedLines == produced, "a server that deduplicates by key took every event once")
        }
    }

    @Test("F5: runs sharing spool=PATH, one after another and at once, append whole; none is overwritten")
    func aSharedSpoolIsAppendedTo() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        let dead = "http://127.0.0.1:\(try LoopbackServer.reservePort())/events;batch=2;retries=0;spool=spool.jsonl"
        let arguments = ["run", Self.scenario, "--sink", dead, "--sink", "jsonl:events.jsonl"]
        for _ in 0..<2 {
            let run = try PerimeterProcess.run(arguments, in: folder)
            #expect(run.status == 3, "\(run.stderr)")
        }
        let produced = try lines(folder, "events.jsonl")
        #expect(try lines(folder, "spool.jsonl").count == 2 * produced.count)

        let concurrent = try (0..<2).map { i in
            try LaunchedPerimeter(["run", Self.scenario, "--sink", dead, "--sink", "jsonl:events-\(i).jsonl"], in: folder)
        }
        for run in concurrent { #expect(run.finish().status == 3) }
        #expect(try lines(folder, "spool.jsonl").count == 4 * produced.count)
        // Each run's events land whole, in order: delivered, they are the run's events four times.
        #expect(try delivered("spool.jsonl", in: folder) == Array(repeating: produced, count: 4).flatMap { $0 })
    }

    @Test("F5: a spool the file-size limit will not let grow stays whole; the run's events are kept beside it")
    func anAppendThatFailsKeepsTheEvents() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        // Past `ulimit -f 1024` (512 KiB in dash's blocks, 1 MiB in bash's); a smaller limit stops the
        // ThreadSanitizer runtime itself, whose mapped files grow past it.
        let old = String(repeating: "x", count: 1_100_000) + "\n"
        try old.write(to: folder.appendingPathComponent("spool.jsonl"), atomically: false, encoding: .utf8)
        let dead = "http://127.0.0.1:\(try LoopbackServer.reservePort())/events;retries=0;spool=spool.jsonl"
        let run = try LaunchedPerimeter(
            ["run", Self.scenario, "--sink", dead, "--sink", "jsonl:-"], in: folder,
            fileSizeLimit: 1024
        ).finish()
        #expect(run.status == 3, "\(run.stderr)")
        let kept = try #require(
            run.stderr.firstMatch(of: /the other 5 are in the spool file "(spool\.jsonl\.unappended-\d+)"/)?.1)
        #expect(run.stderr.contains("could not be appended to \"spool.jsonl\""), "\(run.stderr)")
        #expect(try String(contentsOf: folder.appendingPathComponent("spool.jsonl"), encoding: .utf8) == old)
        let produced = run.stdout.split(separator: "\n").map(String.init)
        #expect(try delivered(String(kept), in: folder) == produced, "delivered + spooled = produced")
    }

    @Test("G10: SIGINT while another process holds the spool locked: exit 130 at once, the events kept beside it")
    func interruptedWhileTheSpoolIsLocked() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        let spool = folder.appendingPathComponent("spool.jsonl")
        try "".write(to: spool, atomically: false, encoding: .utf8)
        // A real second process holds an exclusive flock(2) on the spool for ten minutes (until killed).
        let holder = Process(), said = Pipe()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = [
            "python3", "-c",
            "import fcntl, sys, time\nf = open(sys.argv[1], 'a')\nfcntl.flock(f, fcntl.LOCK_EX)\nprint('locked', flush=True)\ntime.sleep(600)",
            spool.path,
        ]
        holder.standardOutput = said
        try holder.run()
        defer {
            kill(holder.processIdentifier, SIGKILL)
            holder.waitUntilExit()
        }
        let locked = String(decoding: said.fileHandleForReading.readData(ofLength: 7), as: UTF8.self)
        try #require(locked == "locked\n", "the holder did not take the lock")
        let dead = "http://127.0.0.1:\(try LoopbackServer.reservePort())/events;retries=0;spool=spool.jsonl"
        // jsonl: is finished first: once its file is in place the HTTP sink is finishing, at the lock.
        let run = try LaunchedPerimeter(["run", Self.scenario, "--sink", "jsonl:events.jsonl", "--sink", dead], in: folder)
        let deadline = Date().addingTimeInterval(180)  // a bound, not a timing: a sanitized build loads slowly
        let events = folder.appendingPathComponent("events.jsonl").path
        while !FileManager.default.fileExists(atPath: events) && run.process.isRunning && Date() < deadline {
            usleep(10_000)
        }
        Thread.sleep(forTimeInterval: 0.5)  // lets the sink reach the lock (not asserted)
        try #require(run.process.isRunning, "the run ended with the spool locked: \(run.finish().stderr)")
        let result = interrupt(run, within: 10)
        #expect(holder.isRunning, "the holder still has the lock: the run did not wait for it")
        let kept = try #require(
            result.stderr.firstMatch(of: /the other 5 are in the spool file "(spool\.jsonl\.unappended-\d+)"/)?.1,
            "\(result.stderr)")
        #expect(
            result.stderr.contains("interrupted while another process held the file locked"), "\(result.stderr)")
        #expect(try String(contentsOf: spool, encoding: .utf8).isEmpty, "the locked spool is left as it was")
        #expect(try delivered(String(kept), in: folder) == (try lines(folder, "events.jsonl")), "nothing lost")
    }
}
