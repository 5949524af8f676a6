import Foundation
import TestSupport
import Geodesy
import GPX
import ScenarioFormat
import Testing
import TrackSynthesis

/// A fresh temporary folder for one test.
func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("perimeter-synth-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Writes `text` to a file in a fresh folder and returns its path.
func journeyFile(_ text: String, name: String = "journey.yaml") throws -> String {
    let path = try temporaryFolder().appendingPathComponent(name).path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// Writes a synthesized track with `GPXWriter`, as `perimeter track synth` does.
func write(_ track: SyntheticTrack, name: String?, untimed: Bool = false, to path: String) throws {
    let writer = try GPXWriter(path: path)
    if untimed {
        for fix in track.fixes { try writer.waypoint(fix.coordinate) }
    } else {
        try writer.beginTrack(name: name)
        for segment in track.segments {
            try writer.beginSegment()
            for fix in segment { try writer.trackPoint(fix.coordinate, time: fix.time) }
            writer.endSegment()
        }
    }
    try writer.finish()
}

let example = """
    name: Nevsky & <back> "quoted"
    start: 2024-05-01T09:00:00Z
    seed: 7
    interval: 1s
    noise: 5m
    route:
      - at: [59.9343, 30.3351]
      - to: [59.9400, 30.3150]
        speed: 12
      - stop: 5m
      - lost: 3m
      - to: [59.9500, 30.3100]
        speed: 1.4
      - lost: 30s
      - to: [59.9510, 30.3110]
        speed: 5 km/h

    """

@Suite("Journey files and GPX output")
struct JourneyFileTests {
    @Test("a journey file decodes to the journey it describes")
    func decodes() throws {
        let j = try JourneyLoader.load(path: try journeyFile(example))
        #expect(j.name == "Nevsky & <back> \"quoted\"")
        #expect(j.start == Timestamp(iso8601: "2024-05-01T09:00:00Z"))
        #expect(j.seed == 7 && j.interval == .seconds(1) && j.noise == 5)
        #expect(j.origin == Coordinate(latitude: 59.9343, longitude: 30.3351))
        #expect(j.steps == [
            .move(to: Coordinate(latitude: 59.94, longitude: 30.315), speed: 12), .stop(.seconds(300)),
            .lost(.seconds(180)), .move(to: Coordinate(latitude: 59.95, longitude: 30.31), speed: 1.4),
            .lost(.seconds(30)), .move(to: Coordinate(latitude: 59.951, longitude: 30.311), speed: 5 / 3.6),
        ])
        // Defaults: seed 0, 1 s, no noise.
        let minimal = try JourneyLoader.load(path: try journeyFile("start: 2024-05-01T09:00:00Z\nroute: [{at: [1, 2]}]\n"))
        #expect(minimal.seed == 0 && minimal.interval == .seconds(1) && minimal.noise == 0 && minimal.steps.isEmpty)
    }

    @Test("speeds", arguments: [("12", 12.0), ("1.4", 1.4), ("12m/s", 12.0), ("36 km/h", 10.0), ("40km/h", 40 / 3.6)])
    func speeds(text: String, metresPerSecond: Double) {
        #expect(abs(JourneyUnits.speed(text)! - metresPerSecond) < 1e-12)
    }

    @Test("not speeds", arguments: ["fast", "12 mph", "km/h", "12km", ""])
    func notSpeeds(text: String) { #expect(JourneyUnits.speed(text) == nil) }

    @Test("the GPX reads back through GPXTrack.load with the same points, segments and times")
    func roundTrip() throws {
        let journey = try JourneyLoader.load(path: try journeyFile(example))
        let track = journey.synthesize()
        #expect(track.segments.count == 3)
        let path = try temporaryFolder().appendingPathComponent("out.gpx").path
        try write(track, name: journey.name, to: path)
        let loaded = try GPXTrack.load(path: path)
        #expect(loaded.kind == .trackPoint && loaded.timing == .timed && loaded.warnings.isEmpty)
        #expect(loaded.segments.map(\.count) == track.segments.map(\.count))
        for (written, read) in zip(track.fixes, loaded.segments.flatMap { $0 }) {
            #expect(read.time == written.time)
            #expect(read.coordinate.latitude == Double(GPXWriter.fixed7(written.coordinate.latitude)))
            #expect(read.coordinate.longitude == Double(GPXWriter.fixed7(written.coordinate.longitude)))
            #expect(read.coordinate.distance(to: written.coordinate) < 0.01)
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("<name>Nevsky &amp; &lt;back&gt; &quot;quoted&quot;</name>"))
        #expect(text.contains("<time>2024-05-01T09:00:00.000Z</time>"))
    }

    @Test("untimed: one <wpt> per interval, read back as an untimed waypoint track")
    func untimed() throws {
        let journey = Journey(start: may1, origin: equator, steps: [.move(to: east(100), speed: 10)])
        let path = try temporaryFolder().appendingPathComponent("wpt.gpx").path
        try write(journey.synthesize(), name: nil, untimed: true, to: path)
        let loaded = try GPXTrack.load(path: path)
        #expect(loaded.kind == .waypoint && loaded.timing == .untimed)
        #expect(loaded.segments.map(\.count) == [11])
        #expect(abs(loaded.segments[0][5].coordinate.longitude - east(50).longitude) < 1e-7)
        #expect(try !String(contentsOfFile: path, encoding: .utf8).contains("<time>"))
    }

    @Test("fixed7", arguments: [(59.9343, "59.9343000"), (-121.7767850, "-121.7767850"), (0, "0.0000000"),
                                (-0.00000001, "0.0000000"), (0.00000005, "0.0000001"), (179.99999999, "180.0000000")])
    func fixed7(value: Double, text: String) { #expect(GPXWriter.fixed7(value) == text) }

    @Test("escape") func escape() {
        #expect(XMLEscaping.attribute(#"a&b<c>d"e'f"#) == "a&amp;b&lt;c&gt;d&quot;e&apos;f")
        #expect(XMLEscaping.text("bell\u{7} walk") == "bell\u{FFFD} walk")  // XML 1.0 forbids U+0007
    }

    @Test("a journey name with a control character still gives a GPX that reads back")
    func controlCharacterInName() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("synth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let journey = folder.appendingPathComponent("j.yaml").path, track = folder.appendingPathComponent("j.gpx").path
        try "name: \"Bell\\u0007 walk\"\nstart: 2024-05-01T09:00:00Z\nroute:\n  - at: [59.93, 30.33]\n  - {to: [59.931, 30.33], speed: 10}\n"
            .write(toFile: journey, atomically: true, encoding: .utf8)
        let result = try PerimeterProcess.run(["track", "synth", journey, "-o", track])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try GPXTrack.load(path: track).segments.flatMap { $0 }.count == 12)
    }

    struct Invalid: Sendable, CustomTestStringConvertible {
        var label: String
        var yaml: String
        var errors: [String]
        var testDescription: String { label }
    }

    static let invalid: [Invalid] = [
        Invalid(label: "unknown keys, with a guess, at every level", yaml: """
            start: 2024-05-01T09:00:00Z
            intervall: 1s
            route:
              - at: [59.9, 30.3]
              - {to: [59.9, 30.4], speed: 3, sped: 2}
            """, errors: [
                #"2:1: intervall: unknown key "intervall"; did you mean "interval"? The keys allowed here are: name, start, seed, interval, noise, route."#,
                #"5:34: route[1].sped: unknown key "sped"; did you mean "speed"? The keys allowed here are: at, to, speed, stop, lost."#,
            ]),
        Invalid(label: "missing start and route", yaml: "seed: 3\n", errors: [
            "1:1: start: missing; expected the time of the first fix in ISO 8601, such as 2024-05-01T09:00:00Z",
            "1:1: route: missing; expected a list of steps starting with {at: [lat, lon]}",
        ]),
        Invalid(label: "bad values", yaml: """
            start: yesterday
            seed: -1
            interval: 1.5ms
            noise: loud
            route:
              - at: [91, 30.3]
            """, errors: [
                #"1:8: start: expected a time in ISO 8601 such as 2024-05-01T09:00:00Z, in whole milliseconds, got "yesterday""#,
                #"2:7: seed: expected a seed, an integer of 0 or more, got "-1""#,
                #"3:11: interval: expected whole milliseconds (GPX times have milliseconds), got "1.5ms""#,
                #"4:8: noise: expected a distance in metres of 0 or more (a number or a string like "300m" or "1.5km"), got "loud""#,
                #"6:10: route[0].at[0]: expected a latitude in degrees in [-90, 90], got "91""#,
            ]),
        Invalid(label: "the route's shape", yaml: """
            start: 2024-05-01T09:00:00Z
            route:
              - to: [59.94, 30.31]
                speed: 12
              - at: [59.9, 30.3]
              - {to: [59.95, 30.31], speed: fast}
              - {stop: 5m, speed: 3}
              - {to: [1, 2], stop: 3}
              - {to: [1, 2]}
              - {lost: 0}
              - {}
              - {to: [1], speed: 1}
              - {to: [1, 200], speed: "-3 km/h"}
            """, errors: [
                "3:9: route[0].to: the route must start with {at: [lat, lon]}, where the device is at the start time",
                #"5:9: route[1].at: only the first step may be "at" (where the route starts); use "to" to move"#,
                #"6:33: route[2].speed: expected a speed greater than 0: metres per second, or a string like "12m/s" or "40km/h", got "fast""#,
                #"7:23: route[3].speed: speed goes with "to" only, not with "stop""#,
                #"8:24: route[4].stop: one step per entry: "to" and "stop" are both here; put them in separate entries"#,
                #"9:5: route[5].speed: missing; expected a speed greater than 0: metres per second, or a string like "12m/s" or "40km/h""#,
                #"10:12: route[6].lost: expected a duration greater than 0 (a number of seconds or a string like "20s", "5m", "2h" or "250ms", exact to the microsecond), got "0""#,
                "11:5: route[7]: expected one of at, to, stop or lost in each step, got none",
                "12:10: route[8].to: expected a position [lat, lon] in degrees, latitude in [-90, 90] and longitude in [-180, 180], got [1]",
                "13:14: route[9].to[1]: expected a longitude in degrees in [-180, 180], got \"200\"",
                #"13:27: route[9].speed: expected a speed greater than 0: metres per second, or a string like "12m/s" or "40km/h", got "-3 km/h""#,
            ]),
        Invalid(label: "a route too long to be meant", yaml: """
            start: 2024-05-01T09:00:00Z
            route:
              - at: [0, 0]
              - {to: [0, 1], speed: 0.001}
            """, errors: [
                "4:25: route[1].speed: the route would take 1286 days by here; a journey may last at most 366 days",
            ]),
        Invalid(label: "too many fixes", yaml: """
            start: 2024-05-01T09:00:00Z
            interval: 100ms
            route:
              - at: [0, 0]
              - stop: 300h
            """, errors: [
                "4:3: route: the route takes 1080000 s, which at one fix every 0.1 s makes 10800001 fixes; at most 10000000 are allowed: use a longer interval",
            ]),
        Invalid(label: "an empty route", yaml: "start: 2024-05-01T09:00:00Z\nroute: []\n", errors: [
            "2:8: route: the route is empty; expected a list of steps starting with {at: [lat, lon]}",
        ]),
        Invalid(label: "not a mapping", yaml: "- at: [1, 2]\n", errors: [
            "1:1: expected a journey: a mapping of start, interval, route and the like, got a list",
        ]),
    ]

    @Test("invalid journeys: every problem, with line, column, key path and message", arguments: invalid)
    func invalidJourneys(_ c: Invalid) throws {
        let path = try journeyFile(c.yaml + "\n")
        do {
            _ = try JourneyLoader.load(path: path)
            Issue.record("loaded an invalid journey")
        } catch {
            #expect(error.errors.allSatisfy { $0.file == path })
            #expect(error.errors.map { "\($0.line):\($0.column): " + ($0.keyPath.isEmpty ? "" : $0.keyPath + ": ") + $0.message } == c.errors)
        }
    }
}
