import Foundation
import GPX
import Geodesy
import ScenarioFormat
import TestSupport
import Testing
import Time
import TrackSynthesis

@Suite("Journey files")
struct JourneyFileTests {
    @Test("a journey file decodes to the journey it describes")
    func decodes() throws {
        let j = try JourneyLoader.load(path: try JourneyFiles.write(JourneyFiles.example))
        #expect(j.name == "Nevsky & <back> \"quoted\"")
        #expect(j.start == Timestamp(iso8601: "2024-05-01T09:00:00Z"))
        #expect(j.seed == 7 && j.interval == .seconds(1) && j.noise == 5)
        #expect(j.origin == Coordinate(latitude: 59.9343, longitude: 30.3351))
        #expect(
            j.steps == [
                .move(to: Coordinate(latitude: 59.94, longitude: 30.315), speed: 12), .stop(.seconds(300)),
                .lost(.seconds(180)), .move(to: Coordinate(latitude: 59.95, longitude: 30.31), speed: 1.4),
                .lost(.seconds(30)), .move(to: Coordinate(latitude: 59.951, longitude: 30.311), speed: 5 / 3.6),
            ])
        // Defaults: seed 0, 1 s, no noise.
        let minimal = try JourneyLoader.load(
            path: try JourneyFiles.write("start: 2024-05-01T09:00:00Z\nroute: [{at: [1, 2]}]\n"))
        #expect(minimal.seed == 0 && minimal.interval == .seconds(1) && minimal.noise == 0 && minimal.steps.isEmpty)
        #expect(minimal.noiseCorrelation == .zero && j.noiseCorrelation == .zero)
        // Noise that wanders, as a scenario's.
        let wandering = try JourneyLoader.load(
            path: try JourneyFiles.write(
                "start: 2024-05-01T09:00:00Z\nnoise: {sigma: 8m, correlation: 30s}\nroute: [{at: [1, 2]}]\n"))
        #expect(wandering.noise == 8 && wandering.noiseCorrelation == .seconds(30))
    }

    @Test("speeds", arguments: [("12", 12.0), ("1.4", 1.4), ("12m/s", 12.0), ("36 km/h", 10.0), ("40km/h", 40 / 3.6)])
    func speeds(text: String, metresPerSecond: Double) {
        #expect(abs(JourneyUnits.speed(text)! - metresPerSecond) < 1e-12)
    }

    @Test("not speeds", arguments: ["fast", "12 mph", "km/h", "12km", ""])
    func notSpeeds(text: String) { #expect(JourneyUnits.speed(text) == nil) }

    struct Invalid: Sendable, CustomTestStringConvertible {
        var label: String
        var yaml: String
        var errors: [String]
        var testDescription: String { label }
    }

    static let invalid: [Invalid] = [
        Invalid(
            label: "unknown keys, with a guess, at every level",
            yaml: """
                start: 2024-05-01T09:00:00Z
                intervall: 1s
                route:
                  - at: [59.9, 30.3]
                  - {to: [59.9, 30.4], speed: 3, sped: 2}
                """,
            errors: [
                #"2:1: intervall: unknown key "intervall"; did you mean "interval"? The keys allowed here are: name, start, seed, interval, noise, route."#,
                #"5:34: route[1].sped: unknown key "sped"; did you mean "speed"? The keys allowed here are: at, to, speed, stop, lost."#,
            ]),
        Invalid(
            label: "noise as a mapping: its sigma is needed, its seed is the journey's",
            yaml: """
                start: 2024-05-01T09:00:00Z
                noise: {correlation: -3s, seed: 4}
                route: [{at: [1, 2]}]
                """,
            errors: [
                #"2:27: noise.seed: unknown key "seed". The keys allowed here are: sigma, correlation."#,
                #"2:8: noise.sigma: missing; expected a distance in metres of 0 or more"#,
                #"2:22: noise.correlation: expected a duration of 0 or more (a number of seconds or a string like "20s", "5m", "2h" or "250ms", exact to the microsecond), got "-3s""#,
            ]),
        Invalid(
            label: "missing start and route", yaml: "seed: 3\n",
            errors: [
                "1:1: start: missing; expected the time of the first fix in ISO 8601, such as 2024-05-01T09:00:00Z",
                "1:1: route: missing; expected a list of steps starting with {at: [lat, lon]}",
            ]),
        Invalid(
            label: "bad values",
            yaml: """
                start: yesterday
                seed: -1
                interval: 1.5ms
                noise: loud
                route:
                  - at: [91, 30.3]
                """,
            errors: [
                #"1:8: start: expected a time in ISO 8601 such as 2024-05-01T09:00:00Z, in whole milliseconds, got "yesterday""#,
                #"2:7: seed: expected a seed, an integer of 0 or more, got "-1""#,
                #"3:11: interval: expected whole milliseconds (GPX times have milliseconds), got "1.5ms""#,
                #"4:8: noise: expected a distance in metres of 0 or more (a number or a string like "300m" or "1.5km"), got "loud""#,
                #"6:10: route[0].at[0]: expected a latitude in degrees in [-90, 90], got "91""#,
            ]),
        Invalid(
            label: "the route's shape",
            yaml: """
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
                """,
            errors: [
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
        Invalid(
            label: "a route too long to be meant",
            yaml: """
                start: 2024-05-01T09:00:00Z
                route:
                  - at: [0, 0]
                  - {to: [0, 1], speed: 0.001}
                """,
            errors: [
                "4:25: route[1].speed: the route would take 1286 days by here; a journey may last at most 366 days"
            ]),
        Invalid(
            label: "too many fixes",
            yaml: """
                start: 2024-05-01T09:00:00Z
                interval: 100ms
                route:
                  - at: [0, 0]
                  - stop: 300h
                """,
            errors: [
                "4:3: route: the route takes 1080000 s, which at one fix every 0.1 s makes 10800001 fixes; at most 10000000 are allowed: use a longer interval"
            ]),
        Invalid(
            label: "an empty route", yaml: "start: 2024-05-01T09:00:00Z\nroute: []\n",
            errors: [
                "2:8: route: the route is empty; expected a list of steps starting with {at: [lat, lon]}"
            ]),
        Invalid(
            label: "not a mapping", yaml: "- at: [1, 2]\n",
            errors: [
                "1:1: expected a journey: a mapping of start, interval, route and the like, got a list"
            ]),
    ]

    @Test("invalid journeys: every problem, with line, column, key path and message", arguments: invalid)
    func invalidJourneys(_ c: Invalid) throws {
        let path = try JourneyFiles.write(c.yaml + "\n")
        do {
            _ = try JourneyLoader.load(path: path)
            Issue.record("loaded an invalid journey")
        } catch {
            #expect(error.errors.allSatisfy { $0.file == path })
            #expect(
                error.errors.map { "\($0.line):\($0.column): " + ($0.keyPath.isEmpty ? "" : $0.keyPath + ": ") + $0.message }
                    == c.errors)
        }
    }
}
