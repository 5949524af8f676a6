import Foundation
import TestSupport
import Testing

/// `perimeter stream`: a fix table on standard input, device by device, against `perimeter run` of the
/// same fleet; bad tables refused with both lines named, the events before them kept.
@Suite("perimeter stream")
struct StreamCommandTests {
    /// The example fleet (24 vans, a fix every 10 s) under noise, a dwell rule and Android, with no start of
    /// its own: the clock starts at the fleet's earliest fix, 09:00:00. Its files are copied beside it (a
    /// scenario reads only inside its repository or folder).
    static func fleetScenario(in folder: URL, devices: Bool = true) throws -> String {
        for name in ["groser-zones.geojson", "vans.csv"]
        where !FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path) {
            try FileManager.default.copyItem(
                at: PerimeterProcess.root.appendingPathComponent("Tracks/\(name)"), to: folder.appendingPathComponent(name))
        }
        let text = """
            name: streamed vans
            profile: android
            regions:
              - geojson: groser-zones.geojson
              - {id: depot, circle: {lat: 59.9270, lon: 30.3200, radius: 150}}
            rules:
              - {name: stop, dwell: 120}
            noise: {sigma: 6, seed: 11, correlation: 20}

            """ + (devices ? "devices:\n  - fixes: vans.csv\n" : "")
        let path = folder.appendingPathComponent(devices ? "fleet.yaml" : "regions-only.yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let fleetStart = "2024-05-01T09:00:00Z"

    /// Lines of JSON Lines output, each event's device in order of appearance.
    static func devices(ofLines lines: [Substring]) -> [String] {
        lines.map { line in
            let event = try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            return event["device"] as! String
        }
    }

    @Test("the events are exactly those of perimeter run of the same fleet, device after device")
    func sameEventsAsRun() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        let whole = try Self.fleetScenario(in: folder)
        let regionsOnly = try Self.fleetScenario(in: folder, devices: false)
        let run = try PerimeterProcess.run(["run", whole, "--sink", "jsonl:-", "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        let stream = try PerimeterProcess.run(
            ["stream", regionsOnly, "--start", Self.fleetStart],
            standardInput: PerimeterProcess.root.path + "/Tracks/vans.csv")
        #expect(stream.status == 0, "\(stream.stderr)")
        let runLines = run.stdout.split(separator: "\n"), streamLines = stream.stdout.split(separator: "\n")
        #expect(runLines.count > 400)
        #expect(runLines.sorted() == streamLines.sorted())
        // Device after device: each device's events together, in the table's order of devices.
        var seen: [String] = []
        for device in Self.devices(ofLines: streamLines) where seen.last != device {
            #expect(!seen.contains(device), "\(device) comes back")
            seen.append(device)
        }
        #expect(seen == (1...24).map { String(format: "van-%02d", $0) })
        // Within a device, the run's order (SEMANTICS §7) is kept.
        for device in seen {
            let mine = { (lines: [Substring]) in lines.filter { $0.contains("\"device\":\"\(device)\"") } }
            #expect(mine(runLines) == mine(streamLines))
        }
        #expect(stream.stderr.contains("24 devices"))
    }

    @Test("JSON Lines on standard input gives the same events as CSV; a sink file is written whole")
    func jsonLinesAndSinks() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        let scenario = try Self.fleetScenario(in: folder, devices: false)
        // The CSV as JSON Lines, time as seconds since 1970 in half the rows.
        let csv = try String(contentsOfFile: PerimeterProcess.root.path + "/Tracks/vans.csv", encoding: .utf8)
        var jsonl = ""
        for (i, line) in csv.split(separator: "\n").dropFirst().enumerated() {
            let f = line.split(separator: ",")
            let time =
                i % 2 == 0
                ? "\"\(f[1])\"" : String(Int(ISO8601DateFormatter().date(from: String(f[1]))!.timeIntervalSince1970))
            jsonl += "{\"device\":\"\(f[0])\",\"time\":\(time),\"lat\":\(f[2]),\"lon\":\(f[3]),\"accuracy\":\(f[4])}\n"
        }
        let input = folder.appendingPathComponent("vans.jsonl").path
        try jsonl.write(toFile: input, atomically: true, encoding: .utf8)
        let events = folder.appendingPathComponent("events.csv").path
        let fromCSV = try PerimeterProcess.run(
            ["stream", scenario, "--start", Self.fleetStart, "--sink", "csv:" + events],
            standardInput: PerimeterProcess.root.path + "/Tracks/vans.csv")
        #expect(fromCSV.status == 0, "\(fromCSV.stderr)")
        #expect(fromCSV.stdout.isEmpty)
        let fromJSON = try PerimeterProcess.run(
            [
                "stream", scenario, "--start", Self.fleetStart, "--format", "jsonl",
                "--sink", "csv:-",
            ], standardInput: input)
        #expect(fromJSON.status == 0, "\(fromJSON.stderr)")
        let written = try String(contentsOfFile: events, encoding: .utf8)
        #expect(written.hasPrefix("time,device,region,kind,"))
        #expect(written == fromJSON.stdout)
    }

    /// Four rows of van `n`, 10 s apart from 09:00:00, as CSV or as JSON Lines.
    static func vanRows(_ n: Int, count: Int = 4, jsonLines: Bool = false) -> [String] {
        (0..<count).map { s in
            let (device, time) = (
                String(format: "van-%02d", n), String(format: "2024-05-01T09:%02d:%02dZ", s / 6, s % 6 * 10)
            )
            return jsonLines
                ? #"{"device":"\#(device)","time":"\#(time)","lat":59.93,"lon":30.32}"#
                : "\(device),\(time),59.93,30.32"
        }
    }

    /// A bad table: the first two vans' rows, then a problem; the message and what was kept.
    struct Refusal: CustomTestStringConvertible, Sendable {
        var id: String
        var rows: [String]
        var message: String
        /// The devices whose events are kept: those whose rows ended before the bad row.
        var kept: Set<String> = ["van-01", "van-02"]
        /// JSON Lines (no header: the bad row is line 9), else CSV (line 10).
        var jsonLines = false
        /// The input ends after the bad row's last byte, with no line end: a writer that died mid-row.
        var cutShort = false
        var testDescription: String { id }
    }

    static let refusals = [
        Refusal(
            id: "a device comes back after another's rows",
            rows: ["van-01,2024-05-01T09:30:00Z,59.93,30.32"],
            message: #"standard input:10:1: "van-01" comes back after other devices' rows (its rows ended at line 5)"#),
        Refusal(
            id: "a time goes back",
            rows: ["van-03,2024-05-01T09:00:10Z,59.93,30.32", "van-03,2024-05-01T09:00:05Z,59.93,30.32"],
            message:
                #"standard input:11:8: the time 2024-05-01T09:00:05.000Z of "van-03" is earlier than its time 2024-05-01T09:00:10.000Z at line 10"#
        ),
        Refusal(
            id: "a latitude that is not a number",
            rows: ["van-03,2024-05-01T09:00:10Z,north,30.32"],
            message: #"standard input:10:29: "lat" is "north", which is not a number"#),
        Refusal(
            id: "a row of a new device with too few fields",
            rows: ["van-03,2024-05-01T09:00:10Z"],
            message: #"standard input:10:8: the row has 2 fields; the header names "lat" as field 3"#),
        Refusal(
            id: "a bad row of the current device",
            rows: ["van-02,2024-05-01T09:00:40Z,59.93,east"],
            message: #"standard input:10:35: "lon" is "east", which is not a number"#, kept: ["van-01"]),
        Refusal(
            id: "CSV: a new device's row cut short by the end of input",
            rows: ["van-03,2024-05-01T09:00:10Z,59.9"],
            message: #"standard input:10:29: the row has 3 fields; the header names "lon" as field 4"#, cutShort: true),
        Refusal(
            id: "CSV: the end of input inside a new device's quoted field",
            rows: [#"van-03,"2024-05-01T09:00"#],
            message: "standard input:10:8: a quoted field is never closed", cutShort: true),
        Refusal(
            id: "CSV: the current device's row cut short by the end of input",
            rows: ["van-02,2024-05-01T09:00:40Z,59.9"],
            message: #"standard input:10:29: the row has 3 fields; the header names "lon" as field 4"#, kept: ["van-01"],
            cutShort: true),
        Refusal(
            id: "JSON Lines: a new device's line cut short by the end of input",
            rows: [#"{"device":"van-03","time":"2024-05-01T09:00:10Z","lat":59.9"#],
            message: "standard input:9:60: the line ends where '}' was expected", jsonLines: true, cutShort: true),
        Refusal(
            id: "JSON Lines: a new device's line with no lon",
            rows: [#"{"device":"van-03","time":"2024-05-01T09:00:10Z","lat":59.9}"#],
            message: #"standard input:9:61: the row has no "lon""#, jsonLines: true),
    ]

    @Test(
        "a bad row stops the stream with exit 2, naming the lines; the devices before it keep their events",
        arguments: refusals)
    func refused(_ refusal: Refusal) throws {
        let folder = try PerimeterProcess.temporaryFolder()
        let scenario = try Self.fleetScenario(in: folder, devices: false)
        let header = refusal.jsonLines ? [] : ["device,time,lat,lon"]
        let rows = Self.vanRows(1, jsonLines: refusal.jsonLines) + Self.vanRows(2, jsonLines: refusal.jsonLines)
        let input = folder.appendingPathComponent("bad").path
        try (header + rows + refusal.rows).joined(separator: "\n").appending(refusal.cutShort ? "" : "\n")
            .write(toFile: input, atomically: true, encoding: .utf8)
        let result = try PerimeterProcess.run(
            ["stream", scenario, "--start", Self.fleetStart]
                + (refusal.jsonLines ? ["--format", "jsonl"] : []), standardInput: input)
        #expect(result.status == 2)
        #expect(result.stderr.contains(refusal.message), "\(result.stderr)")
        let kept = Set(Self.devices(ofLines: result.stdout.split(separator: "\n")))
        #expect(kept == refusal.kept, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "the sinks kept the events of the \(refusal.kept.count) device\(refusal.kept.count == 1 ? "" : "s") before it"
            ))
    }

    @Test(
        "a device of more rows than --max-rows-per-device stops the stream with exit 2; the devices before it keep their events"
    )
    func tooManyRows() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        let scenario = try Self.fleetScenario(in: folder, devices: false)
        let input = folder.appendingPathComponent("long.csv").path
        try (["device,time,lat,lon"] + Self.vanRows(1, count: 3) + Self.vanRows(2, count: 5) + Self.vanRows(3, count: 2))
            .joined(separator: "\n").appending("\n").write(toFile: input, atomically: true, encoding: .utf8)
        let arguments = ["stream", scenario, "--start", Self.fleetStart]
        let refused = try PerimeterProcess.run(arguments + ["--max-rows-per-device", "3"], standardInput: input)
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(
            refused.stderr.contains(
                #"standard input:8:1: "van-02" has more than 3 rows; a streamed device holds at most 3 rows in memory (--max-rows-per-device N raises the limit, at about "#
            ),
            "\(refused.stderr)")
        #expect(Set(Self.devices(ofLines: refused.stdout.split(separator: "\n"))) == ["van-01"], "\(refused.stderr)")
        #expect(refused.stderr.contains("the sinks kept the events of the 1 device before it"))
        let enough = try PerimeterProcess.run(arguments + ["--max-rows-per-device", "5"], standardInput: input)
        #expect(enough.status == 0, "\(enough.stderr)")
        #expect(Set(Self.devices(ofLines: enough.stdout.split(separator: "\n"))) == ["van-01", "van-02", "van-03"])
        let zero = try PerimeterProcess.run(arguments + ["--max-rows-per-device", "0"], standardInput: input)
        #expect(zero.status == 64)
        #expect(
            zero.stderr.contains("--max-rows-per-device is 0; a device has at least one row: give a positive number"),
            "\(zero.stderr)")
    }

    @Test("the clock needs a start: --start, or the scenario's own (which wins)")
    func start() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        let scenario = try Self.fleetScenario(in: folder, devices: false)
        let vans = PerimeterProcess.root.path + "/Tracks/vans.csv"
        let none = try PerimeterProcess.run(["stream", scenario], standardInput: vans)
        #expect(none.status == 2)
        #expect(none.stderr.contains("has no start: give --start, the earliest fix of the whole fleet"))
        let bad = try PerimeterProcess.run(["stream", scenario, "--start", "nine"], standardInput: vans)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains(#"--start is "nine", which is not an ISO 8601 time"#))
        // vans-fleet.yaml starts at 09:00:00 itself: a different --start is not used, and said so.
        let own = try PerimeterProcess.run(
            ["stream", "Scenarios/vans-fleet.yaml", "--start", "2024-05-01T08:00:00Z"],
            standardInput: vans)
        let run = try PerimeterProcess.run(["run", "Scenarios/vans-fleet.yaml", "--sink", "jsonl:-"])
        #expect(own.status == 0 && run.status == 0)
        #expect(own.stderr.contains("starts at 2024-05-01T09:00:00.000Z; --start 2024-05-01T08:00:00.000Z is not used"))
        #expect(own.stdout.split(separator: "\n").sorted() == run.stdout.split(separator: "\n").sorted())
    }

    @Test("on a terminal a progress line shows devices and samples per second, and is cleared; in a pipe, none")
    func progressOnTerminalOnly() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        let scenario = try Self.fleetScenario(in: folder, devices: false)
        let vans = PerimeterProcess.root.path + "/Tracks/vans.csv"
        let command = [
            PerimeterProcess.executable.path, "stream", scenario, "--start", Self.fleetStart,
            "--sink", "csv:" + folder.appendingPathComponent("events.csv").path, "--quiet",
        ]
        // script(1) gives the command a pseudo-terminal. Its standard input is the fleet's table through a
        // pipe that pauses for a second after the first 2,000 rows, so that the stream outlasts the line's
        // first half second however fast the machine is: the next device done after the pause draws it.
        let paced =
            "{ head -n 2001 '\(vans)'; sleep 1; tail -n +2002 '\(vans)'; } | "
            + command.map { "'\($0)'" }.joined(separator: " ")
        let onTerminal = try PerimeterProcess.run(["-qec", paced, "/dev/null"], executable: "/usr/bin/script")
        #expect(onTerminal.status == 0, "\(onTerminal.stdout)")
        #expect(onTerminal.stdout.contains(" devices · "), "\(onTerminal.stdout)")
        #expect(onTerminal.stdout.contains(" samples/s"))
        #expect(onTerminal.stdout.contains("\r\u{1B}[K"), "the line is drawn over itself and cleared at the end")
        // A pipe's size is not known: no share and no time left (Readable's tests word those).
        #expect(!onTerminal.stdout.contains(" left"))
        let inPipe = try PerimeterProcess.run(Array(command.dropFirst()), standardInput: vans)
        #expect(inPipe.status == 0, "\(inPipe.stderr)")
        #expect(!inPipe.stderr.contains("\r") && !inPipe.stderr.contains("samples/s"), "\(inPipe.stderr)")
        let events = try String(contentsOfFile: folder.appendingPathComponent("events.csv").path, encoding: .utf8)
        // The CSV sink ends its lines with CRLF (RFC 4180): counted in bytes, the header and its events.
        #expect(events.utf8.count { $0 == UInt8(ascii: "\n") } > 1, "the piped stream wrote its events")
    }

    @Test("memory holds one device, not the fleet: 2,000 devices peak within 8 MB of 200")
    func memoryHoldsOneDevice() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        let scenario = try Self.fleetScenario(in: folder, devices: false)
        func fleet(_ devices: Int) throws -> String {
            var text = "device,time,lat,lon\n"
            text.reserveCapacity(devices * 300 * 44)
            for d in 0..<devices {
                for s in 0..<300 {
                    let lat = 59.92 + Double(s) * 0.0001, lon = 30.30 + Double(d % 50) * 0.001
                    text += "dev-\(d),\(1_714_554_000 + s * 2),\(lat),\(lon)\n"
                }
            }
            let path = folder.appendingPathComponent("fleet-\(devices).csv").path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let small = try MeasuredProcess.run(
            ["stream", scenario, "--start", Self.fleetStart, "--sink", "csv:/dev/null"],
            in: folder, standardInput: fleet(200))
        let large = try MeasuredProcess.run(
            ["stream", scenario, "--start", Self.fleetStart, "--sink", "csv:/dev/null"],
            in: folder, standardInput: fleet(2_000))
        #expect(small.result.status == 0 && large.result.status == 0, "\(large.result.stderr)")
        #expect(large.result.stderr.contains("2000 devices, 1198000 samples"), "\(large.result.stderr)")
        let growth = large.peakResidentBytes - small.peakResidentBytes
        #expect(
            growth < Sanitizer.current.memoryBound(8 << 20),
            "peak \(small.peakResidentBytes >> 20) MB for 200 devices, \(large.peakResidentBytes >> 20) MB for 2,000")
    }
}
