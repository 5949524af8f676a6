import Documents
import Foundation
import GPX
import Geodesy
import Geofencing
import ScenarioFormat
import Testing
import Time

/// What a valid fixture must load into.
struct ValidCase: Sendable, CustomTestStringConvertible {
    var fixture: String
    var name: String
    var profile: Profile
    var tick: TimeSpan
    var start: Timestamp?
    var overrides: MonitorOverrides
    var regions: [Region]
    var rules: [DwellRule]
    var devices: [Device]
    var noise: Noise?
    var sinks: [String] = []
    var expectations = 0
    var warnings: [String] = []
    var testDescription: String { fixture }
}

private func circle(_ lat: Double, _ lon: Double, _ radius: Double) -> Shape {
    .circle(try! Circle(center: Coordinate(latitude: lat, longitude: lon), radius: radius))
}

/// A (multi)polygon: each argument a polygon, each ring a flat list of lon, lat pairs, outer ring first.
private func polygon(_ polygons: [[Double]]...) -> Shape {
    .polygon(
        try! MultiPolygon(
            polygons.map { rings in
                try! Polygon(
                    rings: rings.map { ring in
                        stride(from: 0, to: ring.count, by: 2).map {
                            Coordinate(latitude: ring[$0 + 1], longitude: ring[$0])
                        }
                    })
            }))
}

private let walk: [[Fix]] = [
    [
        Fix(Coordinate(latitude: 37.7000, longitude: -121.7600), at: time("2016-01-10T12:00:00Z")),
        Fix(Coordinate(latitude: 37.7030, longitude: -121.7597), at: time("2016-01-10T12:01:00.250Z")),
    ]
]

private func shifted(_ track: [[Fix]], by seconds: Int64) -> [[Fix]] {
    track.map { $0.map { Fix($0.coordinate, at: $0.time + .seconds(seconds)) } }
}

private let untimed: [[PacedPoint]] = [
    [
        PacedPoint(Coordinate(latitude: 37.7000, longitude: -121.7600), ordinal: 0),
        PacedPoint(Coordinate(latitude: 37.7010, longitude: -121.7590), ordinal: 1),
        PacedPoint(Coordinate(latitude: 37.7020, longitude: -121.7580), ordinal: 2),
    ]
]

private let validCases: [ValidCase] = [
    ValidCase(
        fixture: "full.yaml", name: "Lunch at Lorrenzillo's", profile: .iosGPS, tick: TimeSpan(microseconds: 500_000),
        start: time("2016-01-10T12:00:00Z"),
        overrides: MonitorOverrides {
            $0.capacity = .some(nil); $0.selection = .static; $0.refreshDistance = 1500; $0.hysteresis = 50;
            $0.enterBuffer = 10; $0.confirmation = TimeSpan(microseconds: 250_000); $0.initialTrigger = .enter
        },
        regions: [
            Region(
                id: "pizza", shape: circle(37.70, -121.75, 50),
                overrides: MonitorOverrides {
                    $0.hysteresis = 20; $0.confirmation = .seconds(5)
                }),
            Region(
                id: "7", shape: polygon([[-121.77, 37.69, -121.76, 37.69, -121.76, 37.70, -121.77, 37.69]]),
                overrides: MonitorOverrides { $0.confirmation = .zero }),
            Region(
                id: "mall",
                shape: polygon(
                    [[0, 0, 10, 0, 10, 10, 0, 10, 0, 0], [2, 2, 3, 2, 3, 3, 2, 2]],
                    [[20, 20, 21, 20, 21, 21, 20, 20]]),
                overrides: MonitorOverrides {
                    $0.enterBuffer = 500; $0.confirmation = .seconds(5)
                }),
            Region(
                id: "lorrenzillos", shape: circle(37.703026, -121.759735, 300),
                overrides: MonitorOverrides { $0.hysteresis = 50 }),
            Region(
                id: "square", shape: polygon([[-121.76, 37.70, -121.75, 37.70, -121.75, 37.71, -121.76, 37.70]]),
                overrides: MonitorOverrides { $0.enterBuffer = 2 }),
            Region(id: "park", shape: polygon([[1, 1, 2, 1, 2, 2, 1, 1]])),
        ],
        rules: [
            DwellRule(name: "customer", duration: .seconds(10), regions: ["lorrenzillos", "pizza"]),
            DwellRule(name: "regular", duration: .seconds(90)),
        ],
        devices: [
            Device(id: "phone", track: .timed(shifted(walk, by: -30))),
            Device(id: "tablet", track: .paced(untimed, pace: .seconds(2))),
        ],
        noise: Noise(sigma: 5, seed: 42), sinks: ["console", "jsonl:out.jsonl"], expectations: 2,
        warnings: [
            "tracks/untimed.gpx:6: latitude 91 is out of range; the point is dropped (device \"tablet\")",
            // The fixture's regions are spread over the globe, and a rule outlasts its 1-minute walk.
            "regions: 2 of 6 regions are more than 10 km from every device's track, so no device can reach them: mall (7,189 km), park (9,762 km)",
            "rules[1].dwell: rule \"regular\" needs 1 min 30 s inside a region, longer than every track (the longest, phone's, lasts 1 min 0.25 s): it can never fire",
        ]),
    ValidCase(
        fixture: "minimal.yaml", name: "minimal", profile: .ideal, tick: .seconds(1), start: nil,
        overrides: MonitorOverrides(), regions: [Region(id: "home", shape: circle(0, 0, 100))], rules: [],
        devices: [], noise: nil),
    ValidCase(
        fixture: "scenario.json", name: "JSON is YAML", profile: .android, tick: .seconds(2), start: nil,
        overrides: MonitorOverrides {
            $0.capacity = .some(5); $0.confirmation = TimeSpan(microseconds: 1_500_000)
        },
        regions: [
            Region(id: "home", shape: circle(0, 0, 1000)),
            Region(id: "zone", shape: polygon([[1, 1, 2, 1, 2, 2, 1, 1]])),
        ],
        rules: [DwellRule(name: "long", duration: .seconds(7200), regions: ["home"])],
        devices: [Device(id: "phone", track: .timed(shifted(walk, by: 60)))],
        noise: Noise(sigma: 0.5, seed: 0),
        warnings: [
            "regions: every region is more than 10 km from every device's track, so no device can reach them: home (10,006 km), zone (9,762 km); are the coordinates right?",
            "rules[0].dwell: rule \"long\" needs 2 h inside a region",
        ]),
    ValidCase(
        fixture: "pace-and-offset.yaml", name: "pace-and-offset", profile: .ideal, tick: .seconds(1), start: nil,
        overrides: MonitorOverrides(), regions: [], rules: [],
        devices: [
            Device(id: "timed", track: .timed(walk)),
            Device(id: "untimed", track: .paced(untimed, pace: TimeSpan(microseconds: 250_000), offset: .seconds(300))),
        ],
        noise: nil,
        warnings: [
            "valid/pace-and-offset.yaml:5:50: devices[0].pace: pace has no effect on a timed track",
            "untimed.gpx:6: latitude 91 is out of range",
        ]),
]

@Suite("Valid scenarios")
struct ValidScenarioTests {
    @Test("A valid scenario loads into the expected Simulation", arguments: validCases)
    func loads(_ c: ValidCase) throws {
        let scenario = try ScenarioLoader(trackLoader: fakeTracks).load(path: fixture("valid/" + c.fixture))
        let sim = scenario.simulation
        #expect(scenario.name == c.name)
        #expect(scenario.file == fixture("valid/" + c.fixture))
        #expect(sim.profile == c.profile)
        #expect(sim.tick == c.tick)
        #expect(sim.start == c.start)
        #expect(sim.overrides == c.overrides)
        #expect(sim.regions.map(\.id) == c.regions.map(\.id))
        for (got, want) in zip(sim.regions, c.regions) { #expect(got == want, "region \(want.id)") }
        #expect(sim.rules == c.rules)
        #expect(sim.devices == c.devices)
        #expect(sim.noise == c.noise)
        #expect(scenario.sinks == c.sinks)
        #expect(scenario.expectations.count == c.expectations)
        #expect(scenario.warnings.count == c.warnings.count, "\(scenario.warnings)")
        for (got, want) in zip(scenario.warnings, c.warnings) { #expect(got.contains(want), "\(got)") }
    }

    @Test("expect: is decoded into typed expectations, with places")
    func expectationsKeepTheirPlaces() throws {
        let scenario = try ScenarioLoader(trackLoader: fakeTracks).load(path: fixture("valid/full.yaml"))
        let first = try #require(scenario.expectations.first)
        #expect(first.keyPath == "expect[0]")
        #expect(first.line == 34)
        #expect(first.kind == .enter)
        #expect(first.region == "lorrenzillos")
        #expect(first.condition == .count(1, in: nil))
        #expect(scenario.expectations[1].condition == .after(atLeast: nil, atMost: .seconds(120)))
        #expect(scenario.expectations[1].rule == "customer")
    }

    @Test("Resolved settings: the profile with the monitor block applied")
    func settings() throws {
        let scenario = try ScenarioLoader(trackLoader: fakeTracks).load(path: fixture("valid/scenario.json"))
        let settings = scenario.simulation.settings
        #expect(settings.capacity == 5)
        #expect(settings.initialTrigger == .enter)
        #expect(settings.confirmation == TimeSpan(microseconds: 1_500_000))
    }

    @Test("Revision 2: accuracy and confidence at the monitor, region and device levels")
    func confidence() throws {
        let scenario = try ScenarioLoader(trackLoader: fakeTracks).load(path: fixture("valid/confidence.yaml"))
        let simulation = scenario.simulation
        #expect(simulation.settings.accuracy == 20)
        #expect(simulation.settings.enterConfidence == 0.85 && simulation.settings.exitConfidence == 0.15)
        #expect(simulation.regions.map(\.overrides.enterConfidence) == [0.9, nil, nil, nil])
        #expect(simulation.regions.map(\.overrides.exitConfidence) == [nil, 0.1, 0.1, 0.1])
        #expect(simulation.devices.map(\.accuracy) == [35])
        #expect(simulation.noise == Noise(sigma: 8, seed: 3, correlation: .seconds(30)))
    }

    @Test("Revision 3: phase, stationary, outliers, delivery, misses and signed enter buffers")
    func revision3() throws {
        let scenario = try ScenarioLoader(trackLoader: fakeTracks).load(path: fixture("valid/revision3.yaml"))
        let settings = scenario.simulation.settings
        #expect(settings.phase == .random)
        #expect(settings.stationary == Stationary(after: .seconds(300), within: 25, interval: .seconds(360)))
        #expect(
            settings.outliers
                == Outliers(
                    every: .seconds(1800), duration: .seconds(20), median: 300, p90: 2000,
                    accuracyScale: 1))
        #expect(settings.delivery == Delivery(median: .seconds(10), p90: .seconds(120)))
        #expect(settings.missEnter == 0.1 && settings.missExit == 0.2)
        #expect(settings.enterBuffer == -15 && settings.enterConfidence == 0.3)
        let regions = scenario.simulation.regions
        #expect(regions[0].overrides.missEnter == 0.25 && regions[0].overrides.missExit == 0.5)
        #expect(regions[0].overrides.enterBuffer == -5 && regions[0].overrides.enterConfidence == 0.4)
        #expect(regions.dropFirst().allSatisfy { $0.overrides.missExit == 1 && $0.overrides.missEnter == nil })
        // No noise, but the scenario draws: its Monte Carlo runs vary.
        #expect(scenario.simulation.noise == nil && scenario.runs == 10)
    }

    /// Issue 40: a scenario under a fitted profile can switch its phone parts off, and `null` keeps them.
    @Test("none switches a fitted profile's stationary, outliers and delivery off; null keeps the profile's")
    func switchOff() throws {
        let settings = try ScenarioLoader(trackLoader: fakeTracks).load(path: fixture("valid/switch-off.yaml"))
            .simulation.settings
        #expect(Profile.android.settings.stationary != nil && Profile.android.settings.delivery != nil)
        #expect(settings.stationary == nil && settings.delivery == nil)
        #expect(settings.outliers == Profile.android.settings.outliers)
        #expect(settings.missEnter == 0 && settings.missExit == 0)
    }

    @Test("Revision 2: a fix table's devices run as the same tracks given in GPX do")
    func fixTable() throws {
        let table = try ScenarioLoader.load(path: fixture("valid/fleet.yaml"))
        let gpx = try ScenarioLoader.load(path: fixture("valid/fleet-gpx.yaml"))
        #expect(table.simulation.devices.map(\.id) == ["van-1", "van \"2\""])
        #expect(table.simulation.devices == gpx.simulation.devices)
        func events(_ scenario: Scenario) throws -> [GeofenceEvent] {
            let log = EventLog()
            try scenario.simulation.run(into: log)
            return log.events
        }
        let enters = try events(table).filter { $0.kind == .enter }
        #expect(enters.map(\.device) == ["van-1", "van \"2\""])
        #expect(try events(table) == events(gpx))
    }

    @Test("Revision 2: a fix table's accuracy column, format and errors at their key paths")
    func fixTableKeys() throws {
        let folder = fixture("valid")
        let scenario = folder + "/fleet-accuracy.yaml"
        try """
        regions: []
        devices:
          - {fixes: ../tables/fleet.csv, format: csv, columns: {device: van_id, time: ts, lat: y, lon: x, accuracy: acc}, accuracy: 9}

        """.write(toFile: scenario, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: scenario) }
        let devices = try ScenarioLoader.load(path: scenario).simulation.devices
        guard case let .timed(segments) = devices[0].track else { Issue.record("not timed"); return }
        #expect(segments.count == 1 && segments[0].prefix(4).map(\.accuracy) == [5, 6, 7, 5])
        #expect(devices.map(\.accuracy) == [9, 9])

        try
            "regions: []\ndevices:\n  - {fixes: ../tables/fleet.csv, columns: {device: vehicle}}\n  - {id: van-1, track: ../tracks/van1.gpx}\n"
            .write(toFile: scenario, atomically: true, encoding: .utf8)
        let error = #expect(throws: ScenarioErrors.self) { try ScenarioLoader.load(path: scenario) }
        #expect(error?.errors.map(\.keyPath) == ["devices[0].fixes"])
        #expect(error?.errors.first?.message.contains(#"the header has no "vehicle" column"#) == true)
    }

    @Test("A GeoJSON region file loads on its own")
    func regionFile() throws {
        let regions = try RegionFile.load(path: fixture("regions/restaurants.geojson"))
        #expect(regions.map(\.id) == ["pizza", "7", "mall"])
        #expect(regions[0].shape == circle(37.70, -121.75, 50))
        #expect(regions[0].overrides.confirmation == nil)
        let park = try RegionFile.load(path: fixture("regions/park.geojson"))
        #expect(park.map(\.id) == ["park"])
    }
}

@Suite("With the real GPX reader")
struct RealGPXTests {
    @Test(
        "The real reader gives the same devices as the tracks built in code",
        arguments: ["full.yaml", "scenario.json"])
    func sameDevices(_ name: String) throws {
        let real = try ScenarioLoader.load(path: fixture("valid/" + name))
        let fake = try ScenarioLoader(trackLoader: fakeTracks).load(path: fixture("valid/" + name))
        #expect(real.simulation.devices == fake.simulation.devices)
    }
}
