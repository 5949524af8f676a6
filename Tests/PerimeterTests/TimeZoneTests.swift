import Foundation
import TestSupport
import Testing

/// Times written without a zone (issue "The first hour, round two", item 1): read as UTC with a warning,
/// or in the scenario's `timezone:`; a clock that starts after every track is said, and `check --update`
/// will not record the empty log it gives; `--timezone` shows people's times on a zone's clocks.
@Suite("Times with no zone")
struct TimeZoneTests {
    /// Anna's timed track (2024-05-01T10:00:00Z to 10:41:56Z) in St Petersburg, whose clocks show 13:00
    /// at 10:00 UTC (Europe/Moscow, +03:00 all year).
    static func scenario(_ top: String, track: String = "anna.gpx") throws -> (folder: URL, path: String) {
        try GuardRailTests.scenario(
            """
            name: Zones
            \(top)
            profile: ideal
            regions:
              - {id: depot, circle: {lat: 59.9270, lon: 30.3200, radius: 150}}
            devices:
              - {id: anna, track: \(track)}

            """)
    }

    @Test("A start with no zone after every track: two warnings, no event, and check --update records nothing")
    func zonelessStartAfterTheTracks() throws {
        let (folder, path) = try Self.scenario("start: 2024-05-01T13:00:00")
        defer { try? FileManager.default.removeItem(at: folder) }
        let validated = try PerimeterProcess.run(["validate", path])
        #expect(validated.status == 0, "\(validated.stderr)")
        let warnings = validated.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: ") }.map(String.init)
        #expect(
            warnings == [
                "warning: \(path):2:8: start: 2024-05-01T13:00:00 has no zone, so it is read as UTC (2024-05-01T13:00:00.000Z); "
                    + "write it with Z or an offset, or give the scenario timezone: NAME (such as Europe/Madrid) if it is a local time",
                "warning: \(path):2:8: start: every device's track ends before the clock starts at 2024-05-01T13:00:00.000Z, so "
                    + "the run has no sample and no event (anna's at 2024-05-01T10:41:56.000Z); is start: a local time? Write it "
                    + "with its offset, or give timezone: NAME",
            ])
        let run = try PerimeterProcess.run(["run", path, "--sink", "jsonl:-"])
        #expect(run.status == 0 && run.stdout.isEmpty, "\(run.stderr)")

        let golden = folder.appendingPathComponent("scenario.events.jsonl").path
        let update = try PerimeterProcess.run(["check", "--update", path])
        #expect(update.status == 1, "\(update.stdout)")
        #expect(
            update.stdout.contains(
                "the run produced no events, so \(golden) was not recorded: an empty golden log "
                    + "passes for as long as the scenario produces nothing"), "\(update.stdout)")
        #expect(!FileManager.default.fileExists(atPath: golden))
        let allowed = try PerimeterProcess.run(["check", "--update", "--allow-empty", path])
        #expect(allowed.status == 0, "\(allowed.stdout)")
        #expect(FileManager.default.fileExists(atPath: golden))
    }

    @Test("timezone: reads the start in that zone: no warning, and the run starts at 10:00 UTC")
    func startInTheZone() throws {
        let (folder, path) = try Self.scenario("start: 2024-05-01T13:00:00\ntimezone: Europe/Moscow")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try PerimeterProcess.run(["run", path, "--sink", "jsonl:-"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("warning:"), "\(run.stderr)")
        #expect(
            run.stdout.hasPrefix(
                #"{"time":"2024-05-01T10:00:00.000Z","device":"anna","region":"depot","kind":"monitor-start""#),
            "\(run.stdout.prefix(200))")
        let misspelt = try Self.scenario("timezone: Europe/Moskva")
        defer { try? FileManager.default.removeItem(at: misspelt.folder) }
        let unknown = try PerimeterProcess.run(["validate", misspelt.path])
        #expect(unknown.status == 2)
        #expect(
            unknown.stderr.contains("timezone: expected an IANA time zone name from the tz database, such as Europe/Madrid"))
    }

    @Test("A GPX whose times have no zone: read as UTC with a warning, or in the scenario's timezone: exactly")
    func zonelessTrack() throws {
        let (folder, path) = try Self.scenario("", track: "local.gpx")
        defer { try? FileManager.default.removeItem(at: folder) }
        // The same track written on St Petersburg's clocks, without a zone: 10:00:00.000Z → 13:00:00.000.
        let original = try String(contentsOf: folder.appendingPathComponent("anna.gpx"), encoding: .utf8)
        let local = original.replacingOccurrences(of: "T10:", with: "T13:").replacingOccurrences(
            of: "Z</time>", with: "</time>")
        try local.write(to: folder.appendingPathComponent("local.gpx"), atomically: true, encoding: .utf8)
        let asUTC = try PerimeterProcess.run(["run", path, "--sink", "jsonl:-"])
        #expect(asUTC.status == 0)
        #expect(
            asUTC.stderr.contains(
                "devices[0].track: 1259 of the track's times have no zone, so they are read as UTC; "
                    + "give the scenario timezone: NAME (such as Europe/Madrid) if they are local times"), "\(asUTC.stderr)")
        #expect(asUTC.stdout.hasPrefix(#"{"time":"2024-05-01T13:00:00.000Z""#))

        let zoned = try Self.scenario("timezone: Europe/Moscow", track: "local.gpx")
        defer { try? FileManager.default.removeItem(at: zoned.folder) }
        try local.write(to: zoned.folder.appendingPathComponent("local.gpx"), atomically: true, encoding: .utf8)
        let inZone = try PerimeterProcess.run(["run", zoned.path, "--sink", "jsonl:-"])
        let plain = try Self.scenario("")
        defer { try? FileManager.default.removeItem(at: plain.folder) }
        let reference = try PerimeterProcess.run(["run", plain.path, "--sink", "jsonl:-"])
        #expect(inZone.status == 0 && !inZone.stderr.contains("warning:"), "\(inZone.stderr)")
        #expect(inZone.stdout == reference.stdout && !reference.stdout.isEmpty, "the same events as the track with Z")
    }

    @Test("--timezone shows the console's times on a zone's clocks; an unknown zone is a usage error")
    func displayZone() throws {
        let run = try PerimeterProcess.run(["run", "Scenarios/lorrenzillos.yaml", "--timezone", "America/Los_Angeles"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "2016-01-10 (America/Los_Angeles)")
        #expect(lines.dropFirst().first?.hasPrefix("04:00:00      phone  monitor-start") == true, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("04:01:57      phone  enter           lorrenzillos  crossed 04:01:37,") })
        let files = try PerimeterProcess.run([
            "run", "Scenarios/lorrenzillos.yaml", "--timezone", "America/Los_Angeles",
            "--sink", "jsonl:-",
        ])
        #expect(files.stdout.contains(#""time":"2016-01-10T12:01:57.000Z""#), "files stay UTC")
        let unknown = try PerimeterProcess.run(["run", "Scenarios/lorrenzillos.yaml", "--timezone", "Mars/Olympus"])
        #expect(unknown.status == 64)
        #expect(
            unknown.stderr.contains("--timezone: \"Mars/Olympus\" is not a zone of the tz database"), "\(unknown.stderr)")
    }

    @Test("The scenario's timezone: is also the zone run shows times on; --timezone wins over it")
    func scenarioZoneIsTheDisplayZone() throws {
        let (folder, path) = try Self.scenario("timezone: Europe/Moscow")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try PerimeterProcess.run(["run", path])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "2024-05-01 (Europe/Moscow)", "\(lines.prefix(2))")
        #expect(lines.dropFirst().first?.hasPrefix("13:00:00") == true, "10:00 UTC on Moscow's clocks: \(lines.prefix(2))")
        let utc = try PerimeterProcess.run(["run", path, "--timezone", "UTC"])
        let utcLines = utc.stdout.split(separator: "\n").map(String.init)
        #expect(utcLines.first == "2024-05-01 (UTC)" && utcLines.dropFirst().first?.hasPrefix("10:00:00") == true)
        let files = try PerimeterProcess.run(["run", path, "--sink", "jsonl:-"])
        #expect(files.stdout.hasPrefix(#"{"time":"2024-05-01T10:00:00.000Z""#), "files stay UTC")
    }

    @Test(
        "stream: --input-timezone reads the table's zone-less times, --timezone shows times; the old spelling still reads, said so"
    )
    func streamZones() throws {
        let (folder, path) = try Self.scenario("")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Two fixes at the depot at 13:00 on St Petersburg's clocks (Europe/Moscow, +03:00): 10:00 UTC.
        let table = folder.appendingPathComponent("fleet.csv").path
        try "device,time,lat,lon\nv,2024-05-01T13:00:00,59.9270,30.3200\nv,2024-05-01T13:00:10,59.9270,30.3200\n"
            .write(toFile: table, atomically: true, encoding: .utf8)
        let base = ["stream", path, "--start", "2024-05-01T10:00:00Z"]
        let read = try PerimeterProcess.run(base + ["--input-timezone", "Europe/Moscow"], standardInput: table)
        #expect(read.status == 0, "\(read.stderr)")
        #expect(
            read.stdout.hasPrefix(
                #"{"time":"2024-05-01T10:00:00.000Z","device":"v","region":"depot","kind":"monitor-start""#))
        #expect(read.stderr.contains("2 times have no zone and were read in Europe/Moscow"), "\(read.stderr)")
        #expect(!read.stderr.contains("--timezone"), "\(read.stderr)")

        let old = try PerimeterProcess.run(base + ["--timezone", "Europe/Moscow"], standardInput: table)
        #expect(old.status == 0 && old.stdout == read.stdout, "\(old.stderr)")
        #expect(
            old.stderr.contains(
                "warning: --timezone Europe/Moscow also reads the table's times written without a zone, as it did "
                    + "before --input-timezone; give --input-timezone Europe/Moscow for that"), "\(old.stderr)")

        let shown = try PerimeterProcess.run(
            base + ["--input-timezone", "Europe/Moscow", "--timezone", "Asia/Tokyo", "--sink", "console"],
            standardInput: table)
        let lines = shown.stdout.split(separator: "\n").map(String.init)
        #expect(shown.status == 0 && !shown.stderr.contains("--timezone"), "\(shown.stderr)")
        #expect(
            lines.first == "2024-05-01 (Asia/Tokyo)" && lines.dropFirst().first?.hasPrefix("19:00:00") == true, "\(lines)")

        let utc = try PerimeterProcess.run(base, standardInput: table)
        #expect(
            utc.stderr.contains(
                "2 times have no zone and were read as UTC; write them with Z or an offset, or give --input-timezone NAME"),
            "\(utc.stderr)")
    }

    @Test("A device whose track holds no fix is said: it has no sample")
    func deviceWithoutFixes() throws {
        let (folder, path) = try GuardRailTests.scenario(
            """
            name: Ghost
            regions:
              - {id: depot, circle: {lat: 59.9270, lon: 30.3200, radius: 150}}
            devices:
              - {id: anna, track: anna.gpx}
              - {id: ghost, track: empty.gpx}

            """)
        defer { try? FileManager.default.removeItem(at: folder) }
        try
            #"<?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg/></trk></gpx>"#
            .write(to: folder.appendingPathComponent("empty.gpx"), atomically: true, encoding: .utf8)
        let result = try PerimeterProcess.run(["validate", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "warning: \(path):5:3: devices: 1 of 2 devices have no fix in their track, so no sample "
                    + "and no event: \"ghost\""), "\(result.stderr)")
    }

    @Test("validate says where a track's and an expectation's local times fall in a clock change")
    func clockChangeSaid() throws {
        // Los Angeles' clocks went from 02:00 PST to 03:00 PDT on 2016-03-13: 02:30 is read as 03:00 PDT.
        let (folder, path) = try GuardRailTests.scenario(
            """
            start: 2016-03-13T01:00:00-08:00
            timezone: America/Los_Angeles
            regions:
              - {id: home, circle: {lat: 1, lon: 2, radius: 100}}
            devices:
              - {id: anna, track: gap.gpx}
            expect:
              - {kind: enter, region: home, at: "02:30:00", within: 30s}

            """)
        defer { try? FileManager.default.removeItem(at: folder) }
        let track = folder.appendingPathComponent("gap.gpx").path
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="hand" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
        <trkpt lat="1" lon="2"><time>2016-03-13T01:59:00</time></trkpt>
        <trkpt lat="1" lon="2"><time>2016-03-13T02:30:00</time></trkpt>
        <trkpt lat="1" lon="2"><time>2016-03-13T03:10:00</time></trkpt>
        </trkseg></trk></gpx>

        """.write(toFile: track, atomically: true, encoding: .utf8)
        let validated = try PerimeterProcess.run(["validate", path])
        #expect(validated.status == 0, "\(validated.stderr)")
        let read =
            "is not a time on America/Los_Angeles's clocks: they skip it, turned forward that night, so it is "
            + "read as the first time after the gap, 2016-03-13T03:00:00.000 there (2016-03-13T10:00:00.000Z)"
        #expect(validated.stderr.contains("warning: \(track):4:1: 2016-03-13T02:30:00.000 \(read)"), "\(validated.stderr)")
        #expect(
            validated.stderr.contains("warning: \(path):8:37: expect[0].at: 02:30:00 on 2016-03-13 \(read)"),
            "\(validated.stderr)")
    }
}
