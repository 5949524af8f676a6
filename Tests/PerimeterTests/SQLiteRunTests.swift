import Foundation
import GRDB
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `perimeter run --sink sqlite:PATH` end to end: complete runs, a run killed with SIGKILL mid-way, and
/// one stopped with SIGINT. The killed and interrupted runs use a generated scenario big enough to run
/// for several seconds (200 devices × 2 h of fixes against 500 circles).
@Suite("perimeter run, SQLite sink", .serialized)
struct SQLiteRunTests {
    @Test("Two runs of the restaurant scenario append to one database, with the JSON Lines events")
    func twoCompleteRuns() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("runs.sqlite").path
        var lines: [String] = []
        for threads in ["1", "2"] {
            let jsonl = folder.appendingPathComponent("e\(threads).jsonl").path
            let result = try PerimeterProcess.run([
                "run", "Scenarios/lorrenzillos.yaml", "--threads", threads,
                "--sink", "sqlite:" + database, "--sink", "jsonl:" + jsonl,
            ])
            #expect(result.status == 0, "\(result.stderr)")
            lines.append(try String(contentsOfFile: jsonl, encoding: .utf8))
        }
        let queue = try DatabaseQueue(path: database)
        try queue.read { db throws in
            let runs = try Row.fetchAll(db, sql: "SELECT * FROM runs ORDER BY id")
            try #require(runs.count == 2)
            for (index, run) in runs.enumerated() {
                #expect(run["id"] as Int64? == Int64(index + 1))
                #expect(run["scenario"] as String? == "Lunch at Lorrenzillo's")
                #expect(run["scenarioFile"] as String? == "Scenarios/lorrenzillos.yaml")
                #expect(run["profile"] as String? == "ios-documented")
                #expect(run["clockStart"] as String? == "2016-01-10T12:00:00.000Z")
                #expect(run["perimeterVersion"] as String? == "0.1.0")
                #expect((run["settings"] as String?)?.hasPrefix(#"{"capacity":20,"selection":"nearest","#) == true)
                #expect(
                    (run["settings"] as String?)?.contains(#""regions":1,"rules":1,"devices":1,"tick":1.0,"noise":null}"#)
                        == true)
                #expect(run["status"] as String? == "complete")
                #expect(run["eventCount"] as Int64? == 5)
                #expect(run["finishedAt"] as String? != nil)
            }
            // The same events as the JSON Lines sink of the same run, in the same order.
            for run in [1, 2] {
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT time, device, region, kind, lat, lon, distance, crossedAt, rule, duration
                        FROM events WHERE run = ? ORDER BY seq
                        """, arguments: [run])
                let objects = lines[run - 1].split(separator: "\n").map {
                    try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
                }
                try #require(rows.count == objects.count)
                for (row, object) in zip(rows, objects) {
                    for key in ["time", "device", "region", "kind", "crossedAt", "rule"] {
                        #expect(row[key] as String? == object[key] as? String, "\(key)")
                    }
                    for key in ["lat", "lon", "distance", "duration"] {
                        if let number = object[key] as? NSNumber {
                            let value = try #require(row[key] as Double?)
                            #expect(abs(value - number.doubleValue) <= 4 * value.ulp, "\(key)")
                        } else {
                            #expect(row[key] as Double? == nil, "\(key)")
                        }
                    }
                }
            }
        }
    }

    @Test("A database that cannot be opened exits 3 before the run starts")
    func unopenable() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        let result = try PerimeterProcess.run(["run", "Scenarios/lorrenzillos.yaml", "--sink", "sqlite:" + folder.path])
        #expect(result.status == 3)
        #expect(
            result.stderr.contains(
                "sink sqlite:\(folder.path): cannot open \"\(folder.path)\": it is a directory; give a file name; nothing was run."
            ))
    }

    @Test(
        "A database that is not writable exits 3, naming the file and what to check",
        arguments: [
            ("a read-only database file", 0o444 as Int16, 0o755 as Int16, "permission denied"),
            ("a writable file in a read-only folder (no room for the write-ahead log)", 0o666, 0o555, "writable"),
        ])
    func notWritable(name: String, fileMode: Int16, folderMode: Int16, says: String) throws {
        let folder = try PerimeterProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inner = folder.appendingPathComponent("db")
        try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        let database = inner.appendingPathComponent("runs.sqlite").path
        let first = try PerimeterProcess.run(["run", "Scenarios/lorrenzillos.yaml", "--sink", "sqlite:" + database])
        try #require(first.status == 0, "\(first.stderr)")
        try FileManager.default.setAttributes([.posixPermissions: fileMode], ofItemAtPath: database)
        try FileManager.default.setAttributes([.posixPermissions: folderMode], ofItemAtPath: inner.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: inner.path) }
        let result = try PerimeterProcess.runUnprivileged([
            "run", "Scenarios/lorrenzillos.yaml", "--sink", "sqlite:" + database,
        ])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("sink sqlite:\(database): cannot open \"\(database)\""), "\(result.stderr)")
        #expect(result.stderr.contains(says), "\(result.stderr)")
        #expect(result.stderr.contains("nothing was run"), "\(result.stderr)")
        let queue = try DatabaseQueue(
            path: database,
            configuration: {
                var c = Configuration(); c.readonly = true; return c
            }())
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM runs") } == 1)
    }

    @Test("SIGKILL mid-run: the file is consistent, the run stays `running`, committed events are whole")
    func killed() throws {
        let scenario = try BigScenario.make()
        defer { try? FileManager.default.removeItem(at: scenario.folder) }
        let jsonl = scenario.folder.appendingPathComponent("events.jsonl").path
        let (process, stderr) = try BigScenario.start(scenario, alsoTo: ["jsonl:" + jsonl])
        let committed = try BigScenario.waitForEvents(in: scenario.database, while: process)
        try #require(process.isRunning, "the run ended before it could be killed: make the scenario bigger")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        _ = stderr.fileHandleForReading.readDataToEndOfFile()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        // The JSON Lines output was still a partial file beside its target: nothing at the target path.
        #expect(!FileManager.default.fileExists(atPath: jsonl), "a killed run left a file at the JSON Lines target")

        // Opened as any later reader would: SQLite replays the write-ahead log's committed transactions.
        let queue = try DatabaseQueue(path: scenario.database)
        try queue.read { db throws in
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
            #expect(try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal")
            let run = try #require(try Row.fetchOne(db, sql: "SELECT * FROM runs"))
            // `running` with no live process behind it: an incomplete run.
            #expect(run["status"] as String? == "running")
            #expect(run["finishedAt"] as String? == nil)
            let count = try #require(try Int64.fetchOne(db, sql: "SELECT count(*) FROM events WHERE run = 1"))
            #expect(count >= committed)
            #expect(run["eventCount"] as Int64? == count)
            try BigScenario.expectWholeAndContiguous(db, count: count)
        }
    }

    @Test("Another sink failing mid-run: exit 3 naming it, the SQLite run `interrupted` with whole events")
    func otherSinkFails() throws {
        let scenario = try BigScenario.make()
        defer { try? FileManager.default.removeItem(at: scenario.folder) }
        // /dev/full refuses the JSON Lines sink's first 64 KiB write, long before the run ends.
        let (process, stderr) = try BigScenario.start(scenario, alsoTo: ["jsonl:/dev/full"])
        let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 3, "\(errors)")
        #expect(errors.contains("jsonl:/dev/full") && errors.contains("disk is full"), "\(errors)")
        let queue = try DatabaseQueue(path: scenario.database)
        try queue.read { db throws in
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
            let run = try #require(try Row.fetchOne(db, sql: "SELECT * FROM runs"))
            #expect(run["status"] as String? == "interrupted", "the run stopped early; it is not complete")
            let count = try #require(try Int64.fetchOne(db, sql: "SELECT count(*) FROM events WHERE run = 1"))
            #expect(run["eventCount"] as Int64? == count)
            try BigScenario.expectWholeAndContiguous(db, count: count)
        }
    }

    @Test("SIGINT mid-run: exit 130, the summary says INTERRUPTED, the run is `interrupted` with its events")
    func interrupted() throws {
        let scenario = try BigScenario.make()
        defer { try? FileManager.default.removeItem(at: scenario.folder) }
        let (process, stderr) = try BigScenario.start(scenario)
        _ = try BigScenario.waitForEvents(in: scenario.database, while: process)
        try #require(process.isRunning, "the run ended before it could be interrupted: make the scenario bigger")
        process.interrupt()
        let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 130, "\(errors)")
        #expect(errors.contains("INTERRUPTED"), "\(errors)")
        let reported = errors.firstMatch(of: /200 devices, \d+ samples, (\d+) events/).flatMap { Int64($0.1) }

        #expect(!FileManager.default.fileExists(atPath: scenario.database + "-wal"), "closed cleanly")
        let queue = try DatabaseQueue(path: scenario.database)
        try queue.read { db throws in
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
            let run = try #require(try Row.fetchOne(db, sql: "SELECT * FROM runs"))
            #expect(run["status"] as String? == "interrupted")
            #expect(run["finishedAt"] as String? != nil)
            #expect(run["scenario"] as String? == "SQLite soak")
            let count = try #require(try Int64.fetchOne(db, sql: "SELECT count(*) FROM events WHERE run = 1"))
            #expect(run["eventCount"] as Int64? == count)
            #expect(reported == count, "the summary counts what the database holds")
            try BigScenario.expectWholeAndContiguous(db, count: count)
        }
    }
}

/// A generated scenario: `devices` devices sweeping east and west along the rows of a grid of
/// `columns × rows` circles (radius 80 m, 200 m apart), one fix every 10 s for 2 h; `android`, so
/// every crossing is an event at once.
struct BigScenario {
    let folder: URL
    let file: String
    let database: String

    static let devices = 200, columns = 25, rows = 20
    static let latitude = 37.70, longitude = -121.76
    static let metresPerDegreeLatitude = 111_195.08
    static let metresPerDegreeLongitude = 111_195.08 * cos(37.70 * .pi / 180)

    static func make() throws -> BigScenario {
        let folder = try PerimeterProcess.temporaryFolder()
        let tracks = folder.appendingPathComponent("tracks")
        try FileManager.default.createDirectory(at: tracks, withIntermediateDirectories: true)
        var yaml = "name: SQLite soak\nstart: 2016-01-10T12:00:00Z\nprofile: android\nregions:\n"
        for row in 0..<rows {
            for column in 0..<columns {
                let lat = latitude + Double(row) * 200 / metresPerDegreeLatitude
                let lon = longitude + Double(column) * 200 / metresPerDegreeLongitude
                yaml += "  - {id: r\(row)-\(column), circle: {lat: \(lat), lon: \(lon), radius: 80}}\n"
            }
        }
        yaml += "devices:\n"
        let width = Double(columns - 1) * 200
        for device in 0..<devices {
            let row = device % rows
            let lat = latitude + (Double(row) * 200 + Double(device / rows) * 3) / metresPerDegreeLatitude
            var gpx = #"<?xml version="1.0"?><gpx version="1.1" creator="SQLiteRunTests"><trk><trkseg>"# + "\n"
            for step in 0...720 {
                let t = Double(step * 10)
                // A triangle wave across the grid at 10 m/s, each device at its own phase.
                let travelled = (t * 10 + Double(device) * 370).truncatingRemainder(dividingBy: 2 * width)
                let x = travelled <= width ? travelled : 2 * width - travelled
                let lon = longitude + x / metresPerDegreeLongitude
                let seconds = step * 10
                let time =
                    "2016-01-10T"
                    + [12 + seconds / 3600, seconds / 60 % 60, seconds % 60]
                    .map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":") + "Z"
                gpx += #"<trkpt lat="\#(lat)" lon="\#(lon)"><time>\#(time)</time></trkpt>"# + "\n"
            }
            gpx += "</trkseg></trk></gpx>\n"
            let name = "d\(device).gpx"
            try gpx.write(to: tracks.appendingPathComponent(name), atomically: false, encoding: .utf8)
            yaml += "  - {id: d\(device), track: tracks/\(name)}\n"
        }
        let file = folder.appendingPathComponent("soak.yaml").path
        try yaml.write(toFile: file, atomically: false, encoding: .utf8)
        return BigScenario(folder: folder, file: file, database: folder.appendingPathComponent("soak.sqlite").path)
    }

    /// Starts `perimeter run` on one thread into the database; standard error is piped.
    static func start(_ scenario: BigScenario, alsoTo sinks: [String] = []) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = PerimeterProcess.executable
        process.arguments =
            ["run", scenario.file, "--threads", "1", "--sink", "sqlite:" + scenario.database]
            + sinks.flatMap { ["--sink", $0] }
        process.currentDirectoryURL = scenario.folder
        // A failing sink's journal goes in the scenario's folder, which the test removes, not in /tmp.
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": scenario.folder.path]) { $1 }
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return (process, stderr)
    }

    /// Polls the database read-only until it holds events; returns how many it saw.
    static func waitForEvents(in path: String, while process: Process) throws -> Int64 {
        var configuration = Configuration()
        configuration.readonly = true
        let deadline = Date().addingTimeInterval(300)
        while Date() < deadline && process.isRunning {
            if FileManager.default.fileExists(atPath: path),
                let queue = try? DatabaseQueue(path: path, configuration: configuration),
                let count = try? queue.read({ db in try Int64.fetchOne(db, sql: "SELECT count(*) FROM events") }),
                count > 0
            {
                return count
            }
            usleep(50_000)
        }
        return 0
    }

    /// Every event row reads back whole, `seq` runs 0, 1, 2, … without a gap, times never go back.
    static func expectWholeAndContiguous(_ db: Database, count: Int64) throws {
        #expect(count > 0)
        let cursor = try Row.fetchCursor(
            db, sql: "SELECT seq, time, device, region, kind, lat, lon, distance FROM events WHERE run = 1 ORDER BY seq")
        var expected: Int64 = 0
        var previous = ""
        var bad = 0
        while let row = try cursor.next() {
            let seq: Int64 = row["seq"]
            let time: String = row["time"]
            let kind: String = row["kind"]
            let device: String? = row["device"], region: String? = row["region"], lat: Double? = row["lat"]
            if seq != expected || time < previous || time.count != 24 || device == nil || region == nil || lat == nil
                || !["enter", "exit", "visit", "dwell", "monitor-start", "monitor-stop", "monitor-failed"].contains(kind)
            {
                bad += 1
            }
            expected += 1
            previous = time
        }
        #expect(expected == count)
        #expect(bad == 0)
    }
}
