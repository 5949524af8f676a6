import EventSinks
import FileSystem
import Foundation
import GRDB
import Geofencing
import TestSupport
import Testing
import Time

@testable import EventSinksSQLite
@testable import WireFormat

/// The SQLite sink, read back from real files: with GRDB, and with the `sqlite3` command-line tool.
@Suite struct SQLiteSinkTests {
    // MARK: Every kind, field for field as JSON Lines writes it

    @Test(arguments: samples)
    func readsBackWithGRDBAsJSONLinesWritesIt(sample: EventSample) throws {
        let path = try temporaryDirectory() + "/events.sqlite"
        try run(try SQLiteSink(path: path), [sample.event])
        let rows = try readOnly(path).read { db throws in
            try Row.fetchAll(db, sql: "SELECT * FROM events ORDER BY run, seq")
        }
        try #require(rows.count == 1)
        #expect(rows[0]["run"] as Int64? == 1 && rows[0]["seq"] as Int64? == 0)
        #expect(Array(rows[0].columnNames) == SQLiteSink.eventColumns)
        let columns = SQLiteSink.eventColumns.dropFirst(2).map { ($0, flat(rows[0][$0] as DatabaseValue)) }
        try expectSameFieldsAsJSONLines(columns, sample.event)
    }

    @Test func readsBackWithTheSQLiteCommandLineTool() throws {
        let path = try temporaryDirectory() + "/events.sqlite"
        try run(try SQLiteSink(path: path), samples.map(\.event))
        // `-json` writes REALs with 17+ significant digits: they read back to the same Double.
        let output = try sqlite3(
            path, "-json", "SELECT \(CSVRecords.columns.joined(separator: ", ")) FROM events WHERE run = 1 ORDER BY seq")
        let objects = try output.utf8.split(separator: UInt8(ascii: "\n")).map { line in
            var bytes = Array(line)
            if bytes.first == UInt8(ascii: "[") { bytes.removeFirst() }
            while let last = bytes.last, last == UInt8(ascii: ",") || last == UInt8(ascii: "]") { bytes.removeLast() }
            var parser = FlatJSONParser(bytes)
            return try parser.object()
        }
        try #require(objects.count == samples.count)
        for (object, sample) in zip(objects, samples) {
            #expect(object.map(\.0) == CSVRecords.columns, "\(sample.name)")
            try expectSameFieldsAsJSONLines(object, sample.event)
        }
        #expect(
            try sqlite3(path, "SELECT count(*), min(seq), max(seq) FROM events")
                == "\(samples.count)|0|\(samples.count - 1)\n")
        #expect(try sqlite3(path, "SELECT status, eventCount FROM runs") == "complete|\(samples.count)\n")
        #expect(try sqlite3(path, "PRAGMA integrity_check") == "ok\n")
        #expect(try sqlite3(path, "PRAGMA journal_mode") == "wal\n")
    }

    @Test func exactText() throws {
        let path = try temporaryDirectory() + "/events.sqlite"
        try run(try SQLiteSink(path: path), [samples[3].event, samples[5].event, samples[6].event])
        #expect(
            try sqlite3(
                path,
                "SELECT quote(time), quote(kind), quote(crossedAt), quote(arrival), quote(duration), quote(rule) FROM events ORDER BY seq"
            ) == """
                '2016-01-10T12:03:10.250Z'|'enter'|'2016-01-10T12:03:05.000Z'|NULL|NULL|NULL
                '2016-01-10T12:07:30.000Z'|'visit'|NULL|'2016-01-10T12:03:05.001Z'|259.9985|NULL
                '2016-01-11T00:00:00.000Z'|'dwell'|NULL|NULL|260.0|'Thanks, "friend" 👋'

                """)
        #expect(
            try sqlite3(path, "SELECT typeof(lat), typeof(distance), typeof(duration) FROM events WHERE seq = 2")
                == "real|real|real\n")
    }

    @Test("A number that is not finite is NULL, as JSON Lines writes null", arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteNumbersAreNull(value: Double) throws {
        let path = try temporaryDirectory() + "/events.sqlite"
        var event = samples[0].event
        event.distance = value
        try run(try SQLiteSink(path: path), [event])
        #expect(try sqlite3(path, "SELECT quote(distance), lat FROM events") == "NULL|37.703026\n")
        #expect(JSONLines.encode(event).contains(#""distance":null"#))
    }

    // MARK: Runs

    @Test func theRunRowDescribesTheRun() throws {
        let path = try temporaryDirectory() + "/events.sqlite"
        let simulation = Simulation(
            regions: [], rules: [], profile: .iosDocumented, devices: [],
            start: at("2016-01-10T12:00:00Z"), tick: .seconds(1),
            noise: Noise(sigma: 5, seed: 42))
        let description = RunDescription(
            scenario: "Lunch at Lorrenzillo's", scenarioFile: "Scenarios/lorrenzillos.yaml",
            simulation: simulation, perimeterVersion: "0.1.0",
            startedAt: at("2026-11-22T03:00:00.123456Z"))
        let sink = try SQLiteSink(path: path, run: description)
        #expect(sink.runID == 1 && sink.status == .running)
        let before = try readOnly(path).read { db in try Row.fetchOne(db, sql: "SELECT * FROM runs")! }
        #expect(before["status"] as String? == "running")
        #expect(before["finishedAt"] as String? == nil)
        try run(sink, samples.map(\.event))
        #expect(sink.status == .complete)
        let row = try readOnly(path).read { db in try Row.fetchOne(db, sql: "SELECT * FROM runs")! }
        #expect(Array(row.columnNames) == SQLiteSink.runColumns)
        #expect(row["id"] as Int64? == 1)
        #expect(row["scenario"] as String? == "Lunch at Lorrenzillo's")
        #expect(row["scenarioFile"] as String? == "Scenarios/lorrenzillos.yaml")
        #expect(row["profile"] as String? == "ios-documented")
        #expect(row["startedAt"] as String? == "2026-11-22T03:00:00.123Z")
        #expect(row["clockStart"] as String? == "2016-01-10T12:00:00.000Z")
        #expect(row["perimeterVersion"] as String? == "0.1.0")
        #expect(
            row["sqliteVersion"] as String?
                == (try sqlite3(path, "SELECT sqlite_version()")).trimmingCharacters(in: .newlines))
        #expect(
            row["settings"] as String?
                == #"{"capacity":20,"selection":"nearest","refreshDistance":500.0,"hysteresis":200.0,"enterBuffer":0.0,"confirmation":20.0,"initialTrigger":"none","accuracy":0.0,"enterConfidence":0.5,"exitConfidence":0.5,"interval":0.0,"regions":0,"rules":0,"devices":0,"tick":1.0,"noise":{"sigma":5.0,"seed":42,"correlation":0.0}}"#
        )
        #expect(row["status"] as String? == "complete")
        let finished = try #require(Timestamp(iso8601: row["finishedAt"] as String? ?? ""))
        #expect(abs((finished - Timestamp.wallClockNow).seconds) < 60)
        #expect(row["eventCount"] as Int64? == Int64(samples.count))
        let settings =
            try JSONSerialization.jsonObject(with: Data((row["settings"] as String? ?? "").utf8)) as? [String: Any]
        #expect(settings?["noise"] as? [String: Any] != nil)
    }

    @Test func unlimitedCapacityAndNoNoise() {
        let simulation = Simulation(regions: [], profile: .ideal, devices: [])
        #expect(
            RunDescription.settingsJSON(of: simulation)
                == #"{"capacity":"unlimited","selection":"nearest","refreshDistance":500.0,"hysteresis":0.0,"enterBuffer":0.0,"confirmation":0.0,"initialTrigger":"none","accuracy":0.0,"enterConfidence":0.5,"exitConfidence":0.5,"interval":0.0,"regions":0,"rules":0,"devices":0,"tick":1.0,"noise":null}"#
        )
    }

    @Test("Revision 3's settings are described where set, after the interval")
    func revision3Settings() {
        let overrides = MonitorOverrides {
            $0.phase = .fixed(.seconds(30));
            $0.stationary = .some(Stationary(after: .seconds(300), within: 25, interval: .seconds(360)));
            $0.outliers = .some(
                Outliers(every: .seconds(1800), duration: .seconds(20), median: 300, p90: 2000, accuracyScale: 0.5));
            $0.delivery = .some(Delivery(median: .seconds(10), p90: .seconds(120))); $0.missExit = 0.25
        }
        let simulation = Simulation(regions: [], profile: .ideal, overrides: overrides, devices: [])
        #expect(
            RunDescription.settingsJSON(of: simulation)
                == #"{"capacity":"unlimited","selection":"nearest","refreshDistance":500.0,"hysteresis":0.0,"enterBuffer":0.0,"confirmation":0.0,"initialTrigger":"none","accuracy":0.0,"enterConfidence":0.5,"exitConfidence":0.5,"interval":0.0,"phase":30.0,"stationary":{"after":300.0,"within":25.0,"interval":360.0},"outliers":{"every":1800.0,"duration":20.0,"median":300.0,"p90":2000.0,"accuracy":0.5},"delivery":{"median":10.0,"p90":120.0},"missExit":0.25,"regions":0,"rules":0,"devices":0,"tick":1.0,"noise":null}"#
        )
    }

    @Test func twoRunsAppendToOneFileEachWithItsOwnID() throws {
        let path = try temporaryDirectory() + "/events.sqlite"
        let first = try SQLiteSink(path: path, run: RunDescription(scenario: "first"))
        try run(first, Array(samples.prefix(3)).map(\.event))
        let second = try SQLiteSink(path: path, run: RunDescription(scenario: "second"))
        try run(second, samples.map(\.event))
        #expect(first.runID == 1 && second.runID == 2)
        // Closed cleanly: the write-ahead log was folded back into the file (a reader opening it
        // afterwards, even read-only, makes a new one).
        #expect(try files(in: FileNames.directory(of: path)) == ["events.sqlite"])
        try readOnly(path).read { db throws in
            let runs = try Row.fetchAll(db, sql: "SELECT id, scenario, status, eventCount FROM runs ORDER BY id")
            #expect(runs.map { $0["scenario"] as String? } == ["first", "second"])
            #expect(runs.map { $0["status"] as String? } == ["complete", "complete"])
            #expect(runs.map { $0["eventCount"] as Int64? } == [3, Int64(samples.count)])
            for (run, count) in [(1, 3), (2, samples.count)] {
                let seqs = try Int64.fetchAll(db, sql: "SELECT seq FROM events WHERE run = ? ORDER BY seq", arguments: [run])
                #expect(seqs == (0..<Int64(count)).map { $0 })
            }
            let devices = try String.fetchAll(db, sql: "SELECT device FROM events WHERE run = 2 ORDER BY seq")
            #expect(devices == samples.map(\.event.device))
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
            #expect(try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal")
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
            let indices = try String.fetchAll(
                db,
                sql:
                    "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events' AND sql IS NOT NULL ORDER BY name"
            )
            #expect(indices == ["events_by_device_time", "events_by_region"])
        }
    }

    @Test func eachMonteCarloRunIsARowOfRuns() throws {
        let path = try temporaryDirectory() + "/events.sqlite"
        let sink = try SQLiteSink(path: path, run: RunDescription(scenario: "batch", settings: "seed 7"))
        for (run, count) in [(0, 2), (1, 0), (2, 3)] {
            try sink.beginRun(run, RunDescription(scenario: "batch", settings: "seed \(7 + run)"))
            for sample in samples.prefix(count) { try sink.send(sample.event) }
        }
        try sink.finish()
        try readOnly(path).read { db throws in
            let runs = try Row.fetchAll(
                db, sql: "SELECT id, monteCarloRun, settings, status, eventCount FROM runs ORDER BY id")
            #expect(runs.map { $0["monteCarloRun"] as Int64? } == [0, 1, 2])
            #expect(runs.map { $0["settings"] as String? } == ["seed 7", "seed 8", "seed 9"])
            #expect(runs.map { $0["status"] as String? } == ["complete", "complete", "complete"])
            #expect(runs.map { $0["eventCount"] as Int64? } == [2, 0, 3])
            let rows = try Row.fetchAll(
                db,
                sql:
                    "SELECT runs.monteCarloRun AS r, seq FROM events JOIN runs ON runs.id = events.run ORDER BY events.run, seq"
            )
            #expect(
                rows.map { "\($0["r"] as Int64? ?? -1).\($0["seq"] as Int64? ?? -1)" } == [
                    "0.0", "0.1", "2.0", "2.1", "2.2",
                ])
        }
        // A plain run in the same file has no Monte Carlo run.
        try run(try SQLiteSink(path: path), [samples[0].event])
        #expect(
            try readOnly(path).read { db in
                try Row.fetchOne(db, sql: "SELECT monteCarloRun FROM runs WHERE id = 4")?["monteCarloRun"] as Int64?
            } == nil)
    }

    @Test func aDatabaseOfTheFirstSchemaGainsTheMonteCarloColumn() throws {
        let path = try firstSchemaFile()
        try run(try SQLiteSink(path: path), [samples[0].event])
        let columns = try readOnly(path).read { db in try db.columns(in: "runs").map(\.name) }
        #expect(columns == SQLiteSink.runColumns)
        #expect(try readOnly(path).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM runs") } == 2)
    }

    @Test func batchesAreCommittedAsTheyFillAndCancelKeepsEverything() throws {
        let path = try temporaryDirectory() + "/events.sqlite"
        let sink = try SQLiteSink(path: path, batchSize: 3, batchDelay: .seconds(3600))
        for sample in samples { try sink.send(sample.event) }  // 8 events: 2 batches of 3 committed, 2 waiting
        let reader = try readOnly(path)
        try reader.read { db throws in
            #expect(try Int64.fetchAll(db, sql: "SELECT seq FROM events ORDER BY seq") == [0, 1, 2, 3, 4, 5])
            #expect(
                try Row.fetchOne(db, sql: "SELECT status, eventCount FROM runs") == ["status": "running", "eventCount": 6])
        }
        sink.cancel()
        #expect(sink.status == .failed)
        try reader.read { db throws in
            #expect(try Int64.fetchAll(db, sql: "SELECT seq FROM events ORDER BY seq") == Array(0..<8))
            #expect(
                try Row.fetchOne(db, sql: "SELECT status, eventCount FROM runs") == ["status": "failed", "eventCount": 8])
        }
        try sink.finish()  // does nothing after cancel()
        #expect(throws: SinkError.self) { try sink.send(samples[0].event) }
    }

    @Test func aBatchWaitingLongerThanTheDelayIsCommittedAtTheNextSend() throws {
        let path = try temporaryDirectory() + "/events.sqlite"
        let sink = try SQLiteSink(path: path, batchSize: 1_000_000, batchDelay: .zero)
        for _ in 0..<64 { try sink.send(samples[0].event) }
        #expect(try readOnly(path).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM events") } == 64)
        sink.cancel()
    }

    struct StatusCase: CustomTestStringConvertible, Sendable {
        let name: String
        let steps: @Sendable (SQLiteSink) throws -> Void
        let status: String
        var testDescription: String { name }
    }

    @Test(arguments: [
        StatusCase(name: "finish: complete", steps: { try $0.finish() }, status: "complete"),
        StatusCase(
            name: "interrupted, then finish",
            steps: {
                try $0.markInterrupted(); try $0.finish()
            }, status: "interrupted"),
        StatusCase(
            name: "finish, then interrupted (as Simulation.run and Run do)",
            steps: {
                try $0.finish(); try $0.markInterrupted()
            }, status: "interrupted"),
        StatusCase(name: "cancel: failed", steps: { $0.cancel() }, status: "failed"),
        StatusCase(
            name: "cancel after finish changes nothing",
            steps: {
                try $0.finish(); $0.cancel()
            }, status: "complete"),
        StatusCase(
            name: "interrupted after cancel stays failed",
            steps: {
                $0.cancel(); try $0.markInterrupted()
            }, status: "failed"),
    ])
    func statuses(c: StatusCase) throws {
        let path = try temporaryDirectory() + "/events.sqlite"
        let sink = try SQLiteSink(path: path)
        for sample in samples { try sink.send(sample.event) }
        try c.steps(sink)
        try readOnly(path).read { db throws in
            #expect(
                try Row.fetchOne(db, sql: "SELECT status, eventCount, finishedAt IS NOT NULL AS done FROM runs")
                    == ["status": c.status, "eventCount": samples.count, "done": 1])
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM events") == samples.count)
        }
    }

    @Test func aSinkDroppedWithoutFinishingRecordsAFailedRun() throws {
        let path = try temporaryDirectory() + "/events.sqlite"
        do {
            let sink = try SQLiteSink(path: path)
            try sink.send(samples[0].event)
        }
        #expect(try sqlite3(path, "SELECT status, eventCount FROM runs") == "failed|1\n")
    }

    @Test func aFanOutPassesTheInterruptionOn() throws {
        let directory = try temporaryDirectory()
        let specs = try ["jsonl:e.jsonl", "sqlite:e.sqlite"].map(registry.spec(parsing:))
        let sink = try registry.makeSink(
            for: specs, context: SinkContext(directory: directory, run: RunDescription(scenario: "fan")))
        try run(sink, samples.map(\.event))
        try sink.markInterrupted()
        #expect(
            try sqlite3(directory + "/e.sqlite", "SELECT scenario, status, eventCount FROM runs")
                == "fan|interrupted|\(samples.count)\n")
        #expect(try JSONLines.decode(log: contents(directory + "/e.jsonl")).count == samples.count)
    }

    @Test func specOpensRelativeToTheDirectory() throws {
        let directory = try temporaryDirectory()
        let sink = try registry.makeSink(
            for: registry.spec(parsing: "sqlite:runs.sqlite"), context: SinkContext(directory: directory))
        #expect(sink is SQLiteSink)
        try run(sink, [samples[0].event])
        #expect(try files(in: directory) == ["runs.sqlite"])
        #expect(try sqlite3(directory + "/runs.sqlite", "SELECT count(*) FROM events") == "1\n")
    }

    // MARK: Errors

    struct Bad: CustomTestStringConvertible, Sendable {
        let name: String
        /// Makes the bad path in a fresh directory and returns it.
        let make: @Sendable (String) throws -> String
        let reason: String
        var testDescription: String { name }
    }

    @Test(arguments: [
        Bad(
            name: "a directory", make: { directory in directory },
            reason: #"cannot open "PATH": it is a directory; give a file name"#),
        Bad(
            name: "a text file that is not a database",
            make: { directory in
                let path = directory + "/notes.txt"
                try String(repeating: "not a database\n", count: 100).write(toFile: path, atomically: false, encoding: .utf8)
                return path
            },
            reason:
                #"cannot open "PATH": it is not an SQLite database (SQLite error 26: file is not a database); give the path of a new file or of a database written by perimeter"#
        ),
        Bad(
            name: "a path under a regular file",
            make: { directory in
                try "x".write(toFile: directory + "/file", atomically: false, encoding: .utf8)
                return directory + "/file/events.sqlite"
            }, reason: #"cannot create "PATH": a part of the path "DIR/file" is not a directory"#),
        Bad(
            name: "a missing directory", make: { directory in directory + "/missing/events.sqlite" },
            reason: #"cannot create "PATH": the directory "DIR/missing" does not exist"#),
    ])
    func refusesToOpen(bad: Bad) throws {
        let directory = try temporaryDirectory()
        let path = try bad.make(directory)
        let before = try files(in: directory)
        let contentsBefore = try? Data(contentsOf: URL(fileURLWithPath: path))
        let error = #expect(throws: SinkError.self) {
            try registry.makeSink(for: SinkSpec(text: "sqlite:" + path, scheme: "sqlite", path: path))
        }
        #expect(error?.path == path)
        #expect(
            error?.description == "sink sqlite:\(path): "
                + bad.reason.replacingOccurrences(of: "PATH", with: path)
                .replacingOccurrences(of: "DIR", with: directory))
        #expect(try files(in: directory) == before)
        #expect((try? Data(contentsOf: URL(fileURLWithPath: path))) == contentsBefore)
    }

    @Test func standardOutputIsRefused() throws {
        let error = #expect(throws: SinkError.self) { try registry.makeSink(for: registry.spec(parsing: "sqlite:-")) }
        #expect(
            error?.description == "sink sqlite:-: an SQLite database cannot be written to standard output; give a file path")
    }

    @Test func aDatabaseFromANewerPerimeterIsRefused() throws {
        let path = try temporaryDirectory() + "/events.sqlite"
        try run(try SQLiteSink(path: path), [samples[0].event])
        _ = try sqlite3(path, "INSERT INTO grdb_migrations VALUES ('v9: from the future')")
        let error = #expect(throws: SinkError.self) { try SQLiteSink(path: path) }
        #expect(
            error?.reason
                == #"cannot open "\#(path)": its schema was written by a newer perimeter; use that version or give another file"#
        )
        #expect(try sqlite3(path, "SELECT count(*) FROM runs") == "1\n")
    }

    @Test func aForeignDatabaseWithATableOfTheSameNameIsRefusedUntouched() throws {
        let path = try temporaryDirectory() + "/other.sqlite"
        _ = try sqlite3(path, "CREATE TABLE runs (x); INSERT INTO runs VALUES (1)")
        let error = #expect(throws: SinkError.self) { try SQLiteSink(path: path) }
        #expect(
            error?.reason.hasPrefix(
                #"cannot open "\#(path)": SQLite error 1: table runs already exists while executing `CREATE TABLE runs"#)
                == true)
        #expect(try sqlite3(path, "SELECT * FROM runs") == "1\n")
        #expect(try sqlite3(path, "SELECT count(*) FROM sqlite_master WHERE name = 'events'") == "0\n")
    }

    struct Mapping: CustomTestStringConvertible, Sendable {
        let code: ResultCode
        let message: String
        let reason: String
        let errorNumber: Int32?
        var testDescription: String { "\(code)" }
    }

    @Test(arguments: [
        Mapping(
            code: .SQLITE_FULL, message: "database or disk is full",
            reason:
                #"cannot write to "/data/e.sqlite": the disk is full (SQLite error 13: database or disk is full while executing `INSERT INTO events (run) VALUES (?)`)"#,
            errorNumber: ENOSPC),
        Mapping(
            code: .SQLITE_IOERR, message: "disk I/O error",
            reason:
                #"cannot write to "/data/e.sqlite": input/output error (a failing disk or network file system) (SQLite error 10: disk I/O error while executing `INSERT INTO events (run) VALUES (?)`)"#,
            errorNumber: EIO),
        Mapping(
            code: .SQLITE_BUSY, message: "database is locked",
            reason:
                #"cannot write to "/data/e.sqlite": the database stayed locked by another connection for 10 s (SQLite error 5: database is locked while executing `INSERT INTO events (run) VALUES (?)`)"#,
            errorNumber: nil),
        Mapping(
            code: .SQLITE_READONLY, message: "attempt to write a readonly database",
            reason:
                #"cannot write to "/data/e.sqlite": the database is read-only (SQLite error 8: attempt to write a readonly database); check that the file and its directory "/data" are writable (SQLite's write-ahead log lives beside the file)"#,
            errorNumber: EACCES),
    ])
    func databaseErrorsBecomeSentences(m: Mapping) {
        let error = DatabaseError(resultCode: m.code, message: m.message, sql: "INSERT INTO events (run)\n  VALUES (?)")
        let sinkError = SQLiteSink.sinkError(error, spec: "sqlite:/data/e.sqlite", path: "/data/e.sqlite", doing: "write to")
        #expect(sinkError.reason == m.reason)
        #expect(sinkError.path == "/data/e.sqlite")
        #expect(sinkError.errorNumber == m.errorNumber)
    }

    @Test func aWriteThatFailsIsReportedAgainAndTheRunIsMarkedFailed() throws {
        let directory = try temporaryDirectory()
        let path = directory + "/events.sqlite"
        let sink = try SQLiteSink(path: path, batchSize: 2)
        try sink.send(samples[0].event)
        try sink.send(samples[1].event)
        // Another connection holds the write lock past the busy timeout? Too slow for a test: instead a
        // trigger makes the next insert fail, as a full disk would.
        _ = try sqlite3(
            path,
            "CREATE TRIGGER no_more BEFORE INSERT ON events WHEN NEW.seq >= 2 BEGIN SELECT RAISE(ABORT, 'no more room'); END"
        )
        try sink.send(samples[2].event)
        let error = #expect(throws: SinkError.self) { try sink.send(samples[3].event) }
        #expect(
            error?.description.hasPrefix(
                "sink sqlite:\(path): cannot write to \"\(path)\": SQLite error 19: no more room while executing `INSERT INTO events"
            ) == true)
        #expect(throws: SinkError.self) { try sink.send(samples[4].event) }
        #expect(throws: SinkError.self) { try sink.finish() }
        #expect(try sqlite3(path, "SELECT status, eventCount FROM runs; SELECT count(*) FROM events") == "failed|2\n2\n")
    }

    @Test func aFinishThatCannotCommitRecordsAFailedRunAndThrows() throws {
        let path = try temporaryDirectory() + "/events.sqlite"
        let sink = try SQLiteSink(path: path, batchSize: 2, batchDelay: .seconds(3600))
        for sample in samples.prefix(3) { try sink.send(sample.event) }  // seq 0, 1 committed; 2 waiting
        _ = try sqlite3(
            path,
            "CREATE TRIGGER no_more BEFORE INSERT ON events WHEN NEW.seq >= 2 BEGIN SELECT RAISE(ABORT, 'no more room'); END"
        )
        #expect(throws: SinkError.self) { try sink.finish() }
        #expect(sink.status == .failed)
        #expect(try sqlite3(path, "SELECT status, eventCount, finishedAt IS NOT NULL FROM runs") == "failed|2|1\n")
    }
}

// MARK: Helpers

/// A read-only connection, as a separate reader of the database would open it.
/// A file of the schema as the first release wrote it (migration v1 only), with one complete run: its path.
func firstSchemaFile() throws -> String {
    let path = try temporaryDirectory() + "/old.sqlite"
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1: runs and events") { db in
        try db.execute(
            sql:
                "CREATE TABLE runs (id INTEGER PRIMARY KEY, scenario TEXT, scenarioFile TEXT, profile TEXT, startedAt TEXT NOT NULL, clockStart TEXT, perimeterVersion TEXT, sqliteVersion TEXT NOT NULL, settings TEXT, status TEXT NOT NULL, finishedAt TEXT, eventCount INTEGER NOT NULL DEFAULT 0)"
        )
        try db.execute(
            sql:
                "CREATE TABLE events (run INTEGER NOT NULL REFERENCES runs(id), seq INTEGER NOT NULL, time TEXT NOT NULL, device TEXT NOT NULL, region TEXT NOT NULL, kind TEXT NOT NULL, lat REAL, lon REAL, distance REAL, crossedAt TEXT, arrival TEXT, departure TEXT, duration REAL, rule TEXT, PRIMARY KEY (run, seq)) WITHOUT ROWID"
        )
        try db.execute(
            sql: "INSERT INTO runs (startedAt, sqliteVersion, status) VALUES ('2026-01-01T00:00:00.000Z', '3', 'complete')")
    }
    let queue = try DatabaseQueue(path: path)
    try migrator.migrate(queue)
    try queue.close()
    return path
}

func readOnly(_ path: String) throws -> DatabaseQueue {
    var configuration = Configuration()
    configuration.readonly = true
    return try DatabaseQueue(path: path, configuration: configuration)
}

private func flat(_ value: DatabaseValue) -> FlatJSONValue {
    switch value.storage {
    case .null: return .null
    case let .int64(n): return .number(Double(n))
    case let .double(x): return .number(x)
    case let .string(s): return .string(s)
    case let .blob(data): return .string("<\(data.count) bytes>")
    }
}

/// `columns` (the 12 wire columns, NULL where empty) hold exactly the fields of the event's JSON Lines
/// line: the non-NULL ones are its keys, and taken in wire order they are its values, in its order.
private func expectSameFieldsAsJSONLines(
    _ columns: [(String, FlatJSONValue)], _ event: GeofenceEvent,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let line = JSONLines.encode(event)
    var parser = FlatJSONParser(Array(line.utf8))
    let expected = try parser.object()
    let byName = Dictionary(uniqueKeysWithValues: columns)
    let wireKeys = WireField.keys(of: event.kind, includingOptional: false).map(\.name)
    #expect(
        columns.filter { !wireKeys.contains($0.0) }.allSatisfy { $0.1 == .null },
        "a column outside the kind's fields is set", sourceLocation: sourceLocation)
    let inWireOrder = wireKeys.map { ($0, byName[$0] ?? .null) }
    #expect(inWireOrder.map(\.0) == expected.map(\.0), sourceLocation: sourceLocation)
    for ((key, value), (_, wanted)) in zip(inWireOrder, expected) {
        if case let (.number(a), .number(b)) = (value, wanted) {
            #expect(a.bitPattern == b.bitPattern, "\(key)", sourceLocation: sourceLocation)
        } else {
            #expect(value == wanted, "\(key)", sourceLocation: sourceLocation)
        }
    }
    let decoded = try WireEvent(members: inWireOrder)
    #expect(decoded == WireEvent(event), sourceLocation: sourceLocation)
    #expect(JSONLines.encode(decoded) == line, sourceLocation: sourceLocation)
}

/// Runs the `sqlite3` command-line tool on `path` and returns its standard output.
func sqlite3(_ path: String, _ arguments: String...) throws -> String {
    let candidates =
        ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"]
        + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/sqlite3" }
    let executable = try #require(
        candidates.first { FileManager.default.isExecutableFile(atPath: $0) },
        "the sqlite3 command-line tool is needed (apt-get install sqlite3; .ci/run does)")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    var all = arguments
    let sql = all.removeLast()
    process.arguments = ["-bail"] + all + [path, sql]
    let stdout = Pipe(), stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = stdout.fileHandleForReading.readDataToEndOfFile()
    let errors = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    struct SQLite3Failed: Error { let status: Int32; let stderr: String }
    guard process.terminationStatus == 0 else {
        throw SQLite3Failed(status: process.terminationStatus, stderr: String(decoding: errors, as: UTF8.self))
    }
    return String(decoding: data, as: UTF8.self)
}

private let registry = SinkRegistry.core.adding(SQLiteSink.kind)
