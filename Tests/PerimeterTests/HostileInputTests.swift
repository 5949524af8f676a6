import Draws
import Foundation
import TestSupport
import Testing

/// Adversarial inputs through the built `perimeter`, each with its expected outcome, peak memory and
/// time. Measured figures (debug build, 2 cores, beside the other suites) are in the comments.
@Suite("Hostile inputs, end to end")
struct HostileInputTests {
    static let cases: [HostileInput] =
        [
            // 2 MB peak over the process's baseline (~35 MB), 0.05 s, for each GPX case unless noted.
            .init(
                id: "truncated GPX",
                make: { folder in
                    let text = Inputs.gpx(Inputs.walk())
                    return try Inputs.track(String(text.prefix(text.count - 40)), in: folder)
                }, status: 2, message: "is it truncated?"),
            .init(
                id: "garbage bytes as GPX",
                make: { folder in
                    var generator = SplitMix64(seed: 1)
                    let bytes = (0..<65_536).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                    try Data(bytes).write(to: folder.appendingPathComponent("track.gpx"))
                    return try Inputs.scenario(in: folder)
                }, status: 2, message: "devices[0].track: cannot read the track track.gpx: track.gpx:"),
            // libxml2 used to print "encoding error : input conversion failed…" on stderr besides the error.
            .init(
                id: "bytes not valid in the declared encoding",
                make: { folder in
                    let bytes =
                        Array(
                            "<?xml version=\"1.0\" encoding=\"ISO-2022-JP\"?>\n<gpx><wpt lat=\"1\" lon=\"2\"><name>\u{1b}$B"
                                .utf8)
                        + [0xFF, 0xFE] + Array("</name></wpt></gpx>\n".utf8)
                    try Data(bytes).write(to: folder.appendingPathComponent("track.gpx"))
                    return try Inputs.scenario(in: folder)
                }, status: 2, message: "track.gpx:2:33: the bytes here are not valid in the encoding the file declares"),
            .init(
                id: "billion laughs",
                make: { folder in
                    let entities =
                        ["<!ENTITY lol \"lol\">"]
                        + (1...9).map { i in
                            "<!ENTITY lol\(i) \"" + String(repeating: "&lol\(i == 1 ? "" : String(i - 1));", count: 10)
                                + "\">"
                        }
                    let doctype = "<!DOCTYPE gpx [\n" + entities.joined(separator: "\n") + "\n]>\n"
                    return try Inputs.track(
                        Inputs.gpx("<wpt lat=\"1\" lon=\"2\"><name>&lol9;</name></wpt>", doctype: doctype), in: folder)
                }, status: 2, message: "declares the entity 'lol', which is refused"),
            .init(
                id: "external entity",
                make: { folder in
                    let doctype = "<!DOCTYPE gpx [ <!ENTITY xxe SYSTEM \"file:///etc/passwd\"> ]>\n"
                    return try Inputs.track(
                        Inputs.gpx("<wpt lat=\"1\" lon=\"2\"><name>&xxe;</name></wpt>", doctype: doctype), in: folder)
                }, status: 2, message: "declares the entity 'xxe', which is refused"),
            .init(
                id: "elements nested 100,000 deep",
                make: { folder in
                    let deep =
                        String(repeating: "<extensions>", count: 100_000)
                        + String(repeating: "</extensions>", count: 100_000)
                    return try Inputs.track(Inputs.gpx("<wpt lat=\"1\" lon=\"2\">\(deep)</wpt>"), in: folder)
                }, status: 2, message: "nested more than 256 deep"),
            .init(
                id: "NaN latitude",
                make: { folder in
                    try Inputs.track(
                        Inputs.gpx(Inputs.walk().replacingOccurrences(of: "lat=\"37.694000\"", with: "lat=\"NaN\"")),
                        in: folder)
                }, status: 2, message: "track.gpx:4:1: <trkpt> has lat=\"NaN\", which is not a number"),
            .init(
                id: "infinite longitude",
                make: { folder in
                    try Inputs.track(Inputs.gpx("<wpt lat=\"1\" lon=\"-inf\"/>"), in: folder)
                }, status: 2, message: "lon=\"-inf\", which is not a number"),
            .init(
                id: "infinite radius",
                make: { folder in
                    try Inputs.write(Inputs.gpx(Inputs.walk()), "track.gpx", in: folder)
                    return try Inputs.scenario(
                        in: folder, regions: ["{id: all, circle: {lat: 37.7, lon: -121.76, radius: .inf}}"])
                }, status: 2, message: "regions[0].circle.radius: expected a distance in metres greater than 0"),
            .init(
                id: "NaN centre",
                make: { folder in
                    try Inputs.write(Inputs.gpx(Inputs.walk()), "track.gpx", in: folder)
                    return try Inputs.scenario(
                        in: folder, regions: ["{id: all, circle: {lat: .nan, lon: -121.76, radius: 5}}"])
                }, status: 2, message: "regions[0].circle.lat:"),
            // Refused before running, in 0.05 s: at the engine's ~1 M samples/s the run would take 4 days.
            .init(
                id: "a track from year 0000 to year 9999",
                make: { folder in
                    let body =
                        "<trk><trkseg><trkpt lat=\"37.70\" lon=\"-121.76\"><time>0000-01-01T00:00:00Z</time></trkpt>"
                        + "<trkpt lat=\"37.71\" lon=\"-121.76\"><time>9999-12-31T23:59:59Z</time></trkpt></trkseg></trk>"
                    return try Inputs.track(Inputs.gpx(body), in: folder)
                }, status: 2,
                message:
                    "spans 10,000 years (0000-01-01T00:00:00.000Z … 9999-12-31T23:59:59.000Z) and would make 315,569,520,000 samples"
            ),
            .init(
                id: "a run over --max-samples",
                make: { folder in
                    try Inputs.track(Inputs.gpx(Inputs.walk()), in: folder) + ["--max-samples", "100"]
                }, status: 2,
                message:
                    "the track of device \"phone\" spans 119 s (2016-01-10T12:00:00.000Z … 2016-01-10T12:01:59.000Z) and would make 120 samples at a tick of 1 s; a scenario may make at most 100 samples"
            ),
            .init(
                id: "a track in year 0000",
                make: { folder in
                    try Inputs.track(Inputs.gpx(Inputs.walk(date: "0000-01-01")), in: folder)
                }, status: 0, message: "1 device, 120 samples, 4 events"),
            .init(
                id: "a track in year 9999",
                make: { folder in
                    try Inputs.track(Inputs.gpx(Inputs.walk(date: "9999-12-31")), in: folder)
                }, status: 0, message: "1 device, 120 samples, 4 events"),
            .init(
                id: "a track in year 9999 shifted past it",
                make: { folder in
                    try Inputs.track(Inputs.gpx(Inputs.walk(date: "9999-12-31")), in: folder, offset: "12h")
                }, status: 2,
                message:
                    "devices[0].offset: track.gpx:4: the point's time 9999-12-31T12:00:00.000Z plus the offset of 43200 s is outside"
            ),
            // Before: the loader took it, and the run trapped on Int64 overflow computing point 119's time.
            .init(
                id: "an untimed track paced 285,000 years a point",
                make: { folder in
                    let points = String(repeating: "<wpt lat=\"37.7\" lon=\"-121.76\"/>\n", count: 120)
                    try Inputs.write(Inputs.gpx(points), "track.gpx", in: folder)
                    return try Inputs.scenario(in: folder, devices: ["{id: phone, track: track.gpx, pace: 9000000000000s}"])
                }, status: 2,
                message:
                    "devices[0].pace: with a pace of 9000000000000 s from the clock's start 1970-01-01T00:00:00.000Z, the track's point 119 would play outside 0000-01-01 to 9999-12-31T23:59:59.999999Z"
            ),
            .init(
                id: "a scenario start years before its track",
                make: { folder in
                    try Inputs.track(Inputs.gpx(Inputs.walk()), in: folder, extra: "start: 0001-01-01T00:00:00Z\n")
                }, status: 0, message: "1 device, 120 samples, 4 events"),
            // The run goes straight from one device's last tick to the other's first: 0.1 s, not 2,000 years.
            .init(
                id: "two devices 2,000 years apart",
                make: { folder in
                    try Inputs.write(Inputs.gpx(Inputs.walk(date: "0016-01-10")), "early.gpx", in: folder)
                    try Inputs.write(Inputs.gpx(Inputs.walk()), "late.gpx", in: folder)
                    return try Inputs.scenario(
                        in: folder, devices: ["{id: early, track: early.gpx}", "{id: late, track: late.gpx}"])
                }, status: 0, message: "2 devices, 240 samples, 8 events"),
            .init(
                id: "a track of one point",
                make: { folder in
                    try Inputs.track(Inputs.gpx(Inputs.walk(count: 1)), in: folder)
                }, status: 0, message: "1 device, 1 sample, 1 event (monitor-start 1)"),
            // 1.3 s: 1,001 rings of 5 positions, every sample measures its distance to all 5,004 edges. The
            // walk starts inside, goes into hole 503 (exit) and out of it (enter).
            .init(
                id: "a polygon with 1,000 holes",
                make: { folder in
                    try Inputs.write(Inputs.gpx(Inputs.walk(count: 600, latitudeStep: 0.00003)), "track.gpx", in: folder)
                    return try Inputs.scenario(in: folder, regions: [Inputs.polygonWithHoles(1000)])
                }, status: 0, message: "1 device, 600 samples, 3 events (monitor-start 1, exit 1, enter 1)"),
            .init(
                id: "a self-intersecting ring",
                make: { folder in
                    try Inputs.write(Inputs.gpx(Inputs.walk()), "track.gpx", in: folder)
                    return try Inputs.scenario(
                        in: folder,
                        regions: [
                            "{id: bow, polygon: {type: Polygon, coordinates: [[[-121.77, 37.69], [-121.75, 37.71], [-121.75, 37.69], [-121.77, 37.71], [-121.77, 37.69]]]}}"
                        ])
                }, status: 0, message: "regions[0].polygon.coordinates[0][2]: the ring crosses itself"),
            .init(
                id: "a zero radius",
                make: { folder in
                    try Inputs.write(Inputs.gpx(Inputs.walk()), "track.gpx", in: folder)
                    return try Inputs.scenario(
                        in: folder, regions: ["{id: dot, circle: {lat: 37.7, lon: -121.76, radius: 0}}"])
                }, status: 2, message: "regions[0].circle.radius: expected a distance in metres greater than 0"),
            .init(
                id: "a negative radius",
                make: { folder in
                    try Inputs.write(Inputs.gpx(Inputs.walk()), "track.gpx", in: folder)
                    return try Inputs.scenario(
                        in: folder, regions: ["{id: dot, circle: {lat: 37.7, lon: -121.76, radius: -5m}}"])
                }, status: 2, message: "regions[0].circle.radius: expected a distance in metres greater than 0"),
            // Compressed tracks (Strava's and Garmin's bulk exports): read through zlib as they stream.
            .init(
                id: "a .gpx.gz track",
                make: { folder in
                    try Inputs.write(Inputs.gpx(Inputs.walk()), "walk.gpx", in: folder)
                    try shell("gzip -n walk.gpx", in: folder)
                    return try Inputs.scenario(in: folder, devices: ["{id: phone, track: walk.gpx.gz}"])
                }, status: 0, message: "1 device, 120 samples, 4 events"),
            .init(
                id: "a gzip of two members",
                make: { folder in
                    let text = Inputs.gpx(Inputs.walk()), half = text.index(text.startIndex, offsetBy: text.count / 2)
                    try Inputs.write(String(text[..<half]), "a", in: folder)
                    try Inputs.write(String(text[half...]), "b", in: folder)
                    try shell("gzip -n -c a > walk.gpx.gz && gzip -n -c b >> walk.gpx.gz", in: folder)
                    return try Inputs.scenario(in: folder, devices: ["{id: phone, track: walk.gpx.gz}"])
                }, status: 0, message: "1 device, 120 samples, 4 events"),
            .init(
                id: "a gzip cut short",
                make: { folder in
                    try Inputs.write(Inputs.gpx(Inputs.walk()), "walk.gpx", in: folder)
                    try shell("gzip -n -c walk.gpx | head -c 300 > track.gpx", in: folder)
                    return try Inputs.scenario(in: folder)
                }, status: 2,
                message: "track.gpx: the gzip data ends early, after 300 bytes: the file is cut short; fetch it again."),
            .init(
                id: "a corrupt gzip",
                make: { folder in
                    try Inputs.write(Inputs.gpx(Inputs.walk()), "walk.gpx", in: folder)
                    try shell(
                        "gzip -n -c walk.gpx > w.gz && { head -c 100 w.gz; printf 'XXXXXXXXXXXXXXXX'; tail -c +117 w.gz; } > track.gpx",
                        in: folder)
                    return try Inputs.scenario(in: folder)
                }, status: 2, message: "track.gpx: the gzip data is corrupt after "),
            // 400 MB of spaces in 0.4 MB: refused once 100 MB came out of under 0.5 MB (about 1 s, memory flat).
            .init(
                id: "a gzip bomb",
                make: { folder in
                    try shell(
                        "{ printf '<gpx>'; head -c 400000000 /dev/zero | tr '\\0' ' '; } | gzip -9 -n > track.gpx",
                        in: folder)
                    return try Inputs.scenario(in: folder)
                }, status: 2, message: "which no GPX file does (they compress 10 to 20 times): refused as a gzip bomb.",
                peakMB: 100),
            // Other files given as a track say what they are.
            .init(
                id: "GeoJSON as a track",
                make: { folder in
                    try Inputs.write("{\"type\": \"FeatureCollection\", \"features\": []}", "track.gpx", in: folder)
                    return try Inputs.scenario(in: folder)
                }, status: 2,
                message:
                    "track.gpx: this is JSON (GeoJSON?), not GPX: a track must be a GPX file (<gpx> with <trk>, <trkseg> and <trkpt lat=… lon=…> points), or a gzip of one; regions from GeoJSON go under regions: - geojson: FILE."
            ),
            .init(
                id: "CSV as a track",
                make: { folder in
                    try Inputs.write("device,time,lat,lon\nvan,2024-05-01T09:00:00Z,59.9,30.3\n", "track.gpx", in: folder)
                    return try Inputs.scenario(in: folder)
                }, status: 2,
                message:
                    "track.gpx: this looks like CSV, not GPX: a table of fixes goes under devices: - fixes: FILE (columns device, time, lat, lon; see README \"Fleets in a table\")."
            ),
            .init(
                id: "a zip as a track",
                make: { folder in
                    try Inputs.write(Inputs.gpx(Inputs.walk()), "walk.gpx", in: folder)
                    try shell(
                        "python3 -c \"import zipfile; zipfile.ZipFile('track.gpx', 'w').write('walk.gpx')\"", in: folder)
                    return try Inputs.scenario(in: folder)
                }, status: 2,
                message:
                    "track.gpx: this is a zip archive, not GPX: unzip it and give the .gpx inside (a .gpx.gz is read as it is)."
            ),
            // 12.6 MB of GeoJSON: 14 s, 370 MB peak (Yams's node tree of the whole file; a release build
            // takes a fraction of that time). iOS's nearest 20 are re-chosen from the R-tree as the car moves.
            .init(
                id: "100,000 regions",
                make: { folder in
                    try Inputs.write(Inputs.manyCircles(100_000), "regions.geojson", in: folder)
                    try Inputs.write(Inputs.gpx(Inputs.walk(count: 360, latitudeStep: 0.0002)), "track.gpx", in: folder)
                    return try Inputs.scenario(in: folder, regions: ["{geojson: regions.geojson}"], extra: "profile: ios\n")
                }, status: 0, message: "1 device, 360 samples,", peakMB: 1024, seconds: 150),
            // A sparse file: 2 GB long, no disk used, refused by its size before a byte is read (0.05 s).
            .init(
                id: "a 2 GB region file",
                make: { folder in
                    let path = folder.appendingPathComponent("huge.geojson").path
                    guard FileManager.default.createFile(atPath: path, contents: nil), truncate(path, 2_000_000_000) == 0
                    else { throw POSIXError(.EIO) }
                    try Inputs.write(Inputs.gpx(Inputs.walk()), "track.gpx", in: folder)
                    return try Inputs.scenario(in: folder, regions: ["{geojson: huge.geojson}"])
                }, status: 2,
                message: "huge.geojson: cannot read GeoJSON: the file is 1907 MB; region files over 1024 MB are refused"),
            // Aliases count the nodes they stand for against a budget (F3): here 10 aliases of 10 of … of 10.
            .init(
                id: "YAML aliases nested ten deep",
                make: { folder in
                    try Inputs.write(Inputs.yamlLaughs(), "scenario.yaml", in: folder)
                    return ["run", "scenario.yaml"]
                }, status: 2,
                message:
                    "scenario.yaml:5:5: x4[7]: this alias (*a3, standing for the 11,111 nodes at line 5, column 5) brings what the file's aliases stand for to 101,218 nodes, past its budget of 100,000 (one node per 8 bytes of the file, at least 100,000): aliases are never expanded past it. Write out what they stand for, or use fewer of them"
            ),
            // 3 MB of `- *e`: 430,000 expectations read. Before the budget: exit 0 after 17.5 s, 492 MB peak
            // (a release build: 7 MB, 837 MB; 31 MB aborted under a 4 GB limit). Now refused in 1.0 s, 108 MB.
            .init(
                id: "YAML: 430,000 aliases of one expect: entry",
                make: { folder in
                    try Inputs.write(Inputs.yamlAliasedExpectations(430_000), "scenario.yaml", in: folder)
                    return ["run", "scenario.yaml"]
                }, status: 2,
                message:
                    ": this alias (*e, standing for the 7 nodes at line 7, column 5) brings what the file's aliases stand for to 376,278 nodes, past its budget of 376,272",
                peakMB: 200),
            .init(
                id: "YAML: 1,000 aliases of one expect: entry, within the budget",
                make: { folder in
                    try Inputs.write(Inputs.yamlAliasedExpectations(1_000), "scenario.yaml", in: folder)
                    return ["run", "scenario.yaml"]
                }, status: 0, message: "perimeter: aliases (ideal): 0 devices, 0 samples, 0 events"),
            .init(
                id: "YAML nested 100,000 deep",
                make: { folder in
                    try Inputs.write(
                        "name: deep\nregions: " + String(repeating: "[", count: 100_000)
                            + String(repeating: "]", count: 100_000)
                            + "\ndevices: []\n", "scenario.yaml", in: folder)
                    return ["run", "scenario.yaml"]
                }, status: 2, message: "scenario.yaml:2:11: YAML syntax error: Maximum nesting level reached"),
        ] + HostileInputTests.fixTables + HostileInputTests.paths + HostileInputTests.runs

    /// Fix tables nobody wrote by hand (SEMANTICS §1, revision 2), each run as a scenario's `fixes:`.
    static let fixTables: [HostileInput] = [
        // The reader stops at the row's first MiB: memory stays flat however long the line.
        .init(
            id: "fix table: a line of 64 MiB with no end",
            make: { folder in
                let path = folder.appendingPathComponent("fleet.csv")
                _ = FileManager.default.createFile(atPath: path.path, contents: Data("device,time,lat,lon\n".utf8))
                let handle = try FileHandle(forWritingTo: path)
                try handle.seekToEnd()
                let chunk = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
                for _ in 0..<64 { handle.write(chunk) }
                try handle.close()
                return try Inputs.scenario(in: folder, devices: ["{fixes: fleet.csv}"])
            }, status: 2, message: "fleet.csv:2:1: a row longer than 1 MiB (is a quote never closed?)"),
        .init(
            id: "fix table: a device id of 1 MB",
            make: { folder in
                try Inputs.write(
                    "device,time,lat,lon\n" + String(repeating: "d", count: 1 << 20) + ",0,37.7,-121.76\n", "fleet.csv",
                    in: folder)
                return try Inputs.scenario(in: folder, devices: ["{fixes: fleet.csv}"])
            }, status: 2, message: "fleet.csv:2:1: the device id is 1048576 bytes long; ids are at most 1024 bytes"),
        .init(
            id: "fix table: NaN and infinities",
            make: { folder in
                try Inputs.write("{\"device\":\"d\",\"time\":0,\"lat\":\"NaN\",\"lon\":1}\n", "fleet.jsonl", in: folder)
                return try Inputs.scenario(in: folder, devices: ["{fixes: fleet.jsonl}"])
            }, status: 2, message: #"fleet.jsonl:1:30: "lat" is "NaN", which is not a number"#),
        .init(
            id: "fix table: a NUL byte",
            make: { folder in
                try Data("device,time,lat,lon\nd\u{0},0,1,2\n".utf8).write(to: folder.appendingPathComponent("fleet.csv"))
                return try Inputs.scenario(in: folder, devices: ["{fixes: fleet.csv}"])
            }, status: 2, message: "fleet.csv:2:2: a NUL byte; a fix table is text"),
        .init(
            id: "fix table: a quoted field never closed",
            make: { folder in
                try Inputs.write("device,time,lat,lon\n\"d,0,1,2\nd,1,1,2\n", "fleet.csv", in: folder)
                return try Inputs.scenario(in: folder, devices: ["{fixes: fleet.csv}"])
            }, status: 2, message: "fleet.csv:2:1: a quoted field is never closed"),
        .init(
            id: "fix table: a header only",
            make: { folder in
                try Inputs.write("device,time,lat,lon\n", "fleet.csv", in: folder)
                return try Inputs.scenario(in: folder, devices: ["{fixes: fleet.csv}"])
            }, status: 0, message: "0 devices, 0 samples"),
        // Past a million devices the reader stops, having kept a million ids: 10 million one-row devices
        // are refused at device 1,000,001 (measured 0.56 s and 152 MB in a release build).
        .init(
            id: "fix table: 1,200,000 devices of one row each",
            make: { folder in
                var text = "device,time,lat,lon\n"
                text.reserveCapacity(30_000_000)
                for i in 0..<1_200_000 { text += "v\(i),\(i),37.7,-121.76\n" }
                try Inputs.write(text, "fleet.csv", in: folder)
                return try Inputs.scenario(in: folder, devices: ["{fixes: fleet.csv}"])
            }, status: 2,
            message: "fleet.csv:1000002:1: more than 1000000 devices in one fix table; split the fleet over several files",
            peakMB: 600, seconds: 120),
    ]

    /// A track, a region file and the scenario itself that are missing, a folder, or a FIFO (which
    /// must be refused without being opened: opening it would wait for a writer forever).
    static let paths: [HostileInput] = [
        PathKind(name: "missing", make: { _, _ in }, says: "no such file"),
        PathKind(
            name: "a folder",
            make: { folder, name in
                try FileManager.default.createDirectory(
                    at: folder.appendingPathComponent(name), withIntermediateDirectories: false)
            }, says: "is a directory, not a"),
        PathKind(
            name: "a FIFO",
            make: { folder, name in
                guard mkfifo(folder.appendingPathComponent(name).path, 0o644) == 0 else { throw POSIXError(.EEXIST) }
            }, says: "is a named pipe (FIFO), not a file"),
    ].flatMap { kind in
        [
            HostileInput(
                id: "track path \(kind.name)",
                make: { folder in
                    try kind.make(folder, "track.gpx")
                    return try Inputs.scenario(in: folder)
                }, status: 2, message: "devices[0].track: cannot read the track"),
            HostileInput(
                id: "region file \(kind.name)",
                make: { folder in
                    try kind.make(folder, "zones.geojson")
                    try Inputs.write(Inputs.gpx(Inputs.walk()), "track.gpx", in: folder)
                    return try Inputs.scenario(in: folder, regions: ["{geojson: zones.geojson}"])
                }, status: 2, message: "zones.geojson"),
            HostileInput(
                id: "scenario \(kind.name)",
                make: { folder in
                    try kind.make(folder, "scenario.yaml")
                    return ["run", "scenario.yaml"]
                }, status: 2, message: kind.says),
        ]
    }

    @Test("each gives its outcome within its bounds", arguments: cases)
    func outcome(_ c: HostileInput) throws {
        let folder = try PerimeterProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = try c.make(folder)
        let seconds = Sanitizer.current.timeBound(c.seconds)
        let run = try MeasuredProcess.run(arguments, in: folder, timeout: .seconds(Int64(seconds) * 2))
        print(
            "hostile input \"\(c.id)\": exit \(run.result.status), \(run.peakResidentBytes >> 20) MB peak, "
                + String(format: "%.2f s", run.seconds))
        #expect(!run.timedOut, "killed after \(seconds * 2) s")
        #expect(run.result.status == c.status, "\(run.result.stderr)")
        #expect(run.result.stderr.contains(c.message), "\(run.result.stderr)")
        #expect(run.peakResidentBytes <= Sanitizer.current.memoryBound(c.peakMB << 20))
        #expect(run.seconds <= seconds)
        #expect(!run.result.stderr.contains("Fatal error") && !run.result.stderr.contains("Backtrace"))
        // Only perimeter's own lines: nothing printed by libxml2 or libyaml behind its back.
        for line in run.result.stderr.split(separator: "\n") {
            #expect(
                ["error: ", "warning: ", "note: ", "perimeter: "].contains { line.hasPrefix($0) }, "stray line: \(line)")
        }
    }

    /// A logger still writing the track: points are appended (the closing tags not yet written) while
    /// perimeter reads it. The run must say so, not report a truncated file nor play a track cut at a
    /// random point. Measured: the 30 MB read fails after 1.0 s, 44 MB peak.
    @Test("a track file being appended to while it is read fails cleanly")
    func appendedWhileRead() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("track.gpx").path
        let point: @Sendable (Int) -> String = { i in
            String(
                format: "<trkpt lat=\"%.6f\" lon=\"-121.759735\"><time>2016-01-10T%02d:%02d:%02dZ</time></trkpt>\n",
                37.69 + Double(i % 1000) * 0.00002, (i / 3600) % 24, (i / 60) % 60, i % 60)
        }
        // About 30 MB already written: long enough to read that the writer appends meanwhile.
        var text =
            "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"logger\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n"
            + String(repeating: "<!-- padding padding padding padding padding padding -->\n", count: 400_000)
            + "<trk><trkseg>\n"
        for i in 0..<80_000 { text += point(i) }
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let _ = try Inputs.scenario(in: folder)

        let stop = StopFlag()
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: path) else { return }
            _ = try? handle.seekToEnd()
            var i = 80_000
            while !stop.isSet {
                try? handle.write(contentsOf: Data(point(i).utf8))
                i += 1
                usleep(200)
            }
            try? handle.close()
        }
        writer.start()
        defer { stop.set() }
        let run = try MeasuredProcess.run(["run", "scenario.yaml", "--sink", "jsonl:-"], in: folder, timeout: .seconds(60))
        stop.set()
        print(
            "appended while read: exit \(run.result.status), \(run.peakResidentBytes >> 20) MB peak, "
                + String(format: "%.2f s", run.seconds))
        #expect(run.result.status == 2, "\(run.result.stderr)")
        #expect(
            run.result.stderr.contains(
                "devices[0].track: cannot read the track track.gpx: track.gpx: the file changed while it was read ("),
            "\(run.result.stderr)")
        #expect(run.result.stdout.isEmpty)
    }
}

/// Set once by the test, read by its writer thread.
private final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    func set() { lock.lock(); flag = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return flag }
}
