import Documents
import ScenarioFormat
import Testing

/// One problem a fixture must be rejected for: where (file, key path, line) and what the message says.
struct InvalidCase: Sendable, CustomTestStringConvertible {
    var fixture: String
    var keyPath: String
    var line: Int
    var message: String
    /// The file the error names, when not the fixture itself (a GeoJSON file it references).
    var file: String?
    /// How many errors the fixture has in all.
    var count = 1
    var testDescription: String { "\(fixture): \(keyPath.isEmpty ? "(file)" : keyPath)" }
}

private let scenarioCases: [InvalidCase] = [
    InvalidCase(
        fixture: "unknown-top-key.yaml", keyPath: "regoins", line: 2,
        message: "unknown key \"regoins\"; did you mean \"regions\"? The keys allowed here are: name, start, timezone, tick"),
    InvalidCase(
        fixture: "unknown-nested-key.yaml", keyPath: "regions[0].circle.radious", line: 3,
        message: "did you mean \"radius\"? The keys allowed here are: lat, lon, radius."),
    InvalidCase(
        fixture: "unknown-monitor-key.yaml", keyPath: "monitor.hysterisis", line: 3,
        message: "did you mean \"hysteresis\"?"),
    InvalidCase(
        fixture: "misspelt-shape.yaml", keyPath: "regions[0].circel", line: 3,
        message: "unknown key \"circel\"; did you mean \"circle\"?"),
    InvalidCase(
        fixture: "inline-polygon-foreign-key.yaml", keyPath: "regions[0].polygon.crs", line: 5,
        message: "unknown key \"crs\". The keys allowed here are: type, coordinates, bbox."),
    InvalidCase(
        fixture: "wrong-type-regions.yaml", keyPath: "regions", line: 1,
        message: "expected a list of regions, got \"home\""),
    InvalidCase(
        fixture: "negative-radius.yaml", keyPath: "regions[1].circle.radius", line: 5,
        message: "expected a distance in metres greater than 0 (a number or a string like \"300m\" or \"1.5km\"), got \"-3\""
    ),
    InvalidCase(
        fixture: "bad-duration-unit.yaml", keyPath: "tick", line: 1,
        message: "expected a duration greater than 0 (a number of seconds or a string like \"20s\""),
    InvalidCase(fixture: "zero-tick.yaml", keyPath: "tick", line: 1, message: "greater than 0"),
    InvalidCase(fixture: "zero-pace.yaml", keyPath: "devices[0].pace", line: 5, message: "got \"0s\""),
    InvalidCase(
        fixture: "bad-override.yaml", keyPath: "regions[0].confirmation", line: 4,
        message: "expected a duration of 0 or more"),
    InvalidCase(
        fixture: "confidence-out-of-range.yaml", keyPath: "monitor.enterConfidence", line: 1,
        message: "expected an enter confidence, a share from 0 to 1 (0.85: 85 % of the fix's circle inside), got \"1.2\"",
        count: 3),
    // Revision 3's device settings (SEMANTICS §2, §5, §7).
    InvalidCase(
        fixture: "delivery-p90-below-median.yaml", keyPath: "monitor.delivery.p90", line: 4,
        message: "the 90th percentile 10 s is below the median (2 min)"),
    InvalidCase(
        fixture: "delivery-zero-median.yaml", keyPath: "monitor.delivery.median", line: 2,
        message: "expected a duration greater than 0"),
    InvalidCase(
        fixture: "outliers-out-of-range.yaml", keyPath: "monitor.outliers.every", line: 3,
        message: "expected a duration greater than 0", count: 3),
    InvalidCase(
        fixture: "outliers-out-of-range.yaml", keyPath: "monitor.outliers.p90", line: 6,
        message: "is below the median", count: 3),
    InvalidCase(
        fixture: "outliers-out-of-range.yaml", keyPath: "monitor.outliers.accuracy", line: 7,
        message: "expected a share of the displacement, a number of 0 or more", count: 3),
    InvalidCase(
        fixture: "stationary-interval.yaml", keyPath: "monitor.stationary.interval", line: 6,
        message: "the interval 1 min 30 s is not a multiple of the tick (1 min)"),
    InvalidCase(
        fixture: "phase-not-below-interval.yaml", keyPath: "monitor.phase", line: 3,
        message: "the phase 1 min is not below the interval (1 min)"),
    InvalidCase(
        fixture: "phase-not-a-multiple.yaml", keyPath: "monitor.phase", line: 4,
        message: "the phase 15 s is not a multiple of the tick (10 s)"),
    InvalidCase(
        fixture: "phase-without-interval.yaml", keyPath: "monitor.phase", line: 3,
        message: "the phase 30 s is not below the observation interval"),
    InvalidCase(
        fixture: "miss-out-of-range.yaml", keyPath: "monitor.missEnter", line: 2,
        message: "expected a probability from 0 to 1, got \"1.5\"", count: 2),
    InvalidCase(
        fixture: "miss-out-of-range.yaml", keyPath: "regions[0].missExit", line: 6,
        message: "expected a probability from 0 to 1, got \"-0.1\"", count: 2),
    InvalidCase(
        fixture: "confidence-out-of-range.yaml", keyPath: "regions[0].exitConfidence", line: 5,
        message:
            "expected an exit confidence, a share from 0 to 0.5 (0.15: 15 % or less of the fix's circle inside), got \"0.6\"",
        count: 3),
    InvalidCase(
        fixture: "background-tick.yaml", keyPath: "tick", line: 2,
        message:
            "the profile android-background observes every 2 min, which is not a multiple of the tick (7 s); choose a tick that divides it"
    ),
    InvalidCase(
        fixture: "interval-not-a-multiple.yaml", keyPath: "monitor.interval", line: 1,
        message:
            "the interval 1 min 30 s is not a multiple of the tick (1 min); a device can only observe its position at ticks"),
    InvalidCase(
        fixture: "confidence-out-of-range.yaml", keyPath: "devices[0].accuracy", line: 7,
        message: "expected a distance in metres of 0 or more", count: 3),
    InvalidCase(
        fixture: "duplicate-region-id.yaml", keyPath: "regions[1].id", line: 4,
        message: "region id \"home\" is already used by the region at "),
    InvalidCase(
        fixture: "duplicate-id-across-files.yaml", keyPath: "regions[1].id", line: 3,
        message: "regions/restaurants.geojson:8:28 (features[0].properties.id)"),
    // Issue 49 H7: ids from idProperty: were not checked (`1` and `"1"` are one id).
    InvalidCase(
        fixture: "duplicate-id-property.yaml", keyPath: "features[1].properties.store_code", line: 4,
        message: "region id \"1\" is already used by the region at ", file: "invalid/duplicate-id-property.geojson",
        count: 2),
    InvalidCase(
        fixture: "duplicate-id-property.yaml", keyPath: "features[3].properties.store_code", line: 8,
        message: "duplicate-id-property.geojson:6:52 (features[2].properties.store_code)",
        file: "invalid/duplicate-id-property.geojson", count: 2),
    InvalidCase(
        fixture: "unknown-rule-region.yaml", keyPath: "rules[0].regions[1]", line: 5,
        message: "unknown region id \"lorenzillos\"; did you mean \"lorrenzillos\"?"),
    InvalidCase(
        fixture: "duplicate-rule.yaml", keyPath: "rules[1].name", line: 6,
        message: "rule name \"stay\" is already used by rules[0].name"),
    InvalidCase(
        fixture: "missing-track.yaml", keyPath: "devices[0].track", line: 5,
        message: "cannot read the track: no such file: "),
    InvalidCase(
        fixture: "track-is-directory.yaml", keyPath: "devices[0].track", line: 6,
        message: "Fixtures/tracks is a directory, not a file"),
    InvalidCase(
        fixture: "missing-geojson.yaml", keyPath: "regions[0].geojson", line: 2,
        message: "cannot read the GeoJSON file: no such file: "),
    InvalidCase(
        fixture: "unclosed-ring.yaml", keyPath: "features[0].geometry.coordinates[0]", line: 5,
        message: "invalid polygon: Ring 0 is not closed", file: "invalid/unclosed.geojson"),
    InvalidCase(
        fixture: "bad-yaml.yaml", keyPath: "", line: 3,
        message: "YAML syntax error: did not find expected ',' or ']' (while parsing a flow sequence at line 2, column 10)"),
    InvalidCase(fixture: "bad-yaml-indent.yaml", keyPath: "", line: 3, message: "YAML syntax error"),
    InvalidCase(
        fixture: "duplicate-key.yaml", keyPath: "", line: 4,
        message: "a key appears more than once in one mapping: \"devices\" (first given here)"),
    InvalidCase(
        fixture: "bad-profile.yaml", keyPath: "profile", line: 1,
        message:
            "unknown profile \"iphone\". The built-in profiles are ios, ios-gps, ios-terminated, android, android-background, android-idle, ideal, ios-documented"
    ),
    InvalidCase(
        fixture: "zero-capacity.yaml", keyPath: "monitor.capacity", line: 1,
        message: "an integer of 1 or more, or \"unlimited\", got \"0\""),
    InvalidCase(fixture: "bad-start.yaml", keyPath: "start", line: 1, message: "expected a time in ISO 8601"),
    InvalidCase(
        fixture: "missing-devices.yaml", keyPath: "devices", line: 1, message: "missing; expected a list of devices"),
    InvalidCase(
        fixture: "null-regions.yaml", keyPath: "regions", line: 1,
        message: "expected a list of regions, got nothing (null)"),
    InvalidCase(
        fixture: "duplicate-device.yaml", keyPath: "devices[1].id", line: 6,
        message: "device id \"phone\" is already used by devices[0].id"),
    InvalidCase(
        fixture: "empty-device-id.yaml", keyPath: "devices[0].id", line: 5,
        message: "expected the device's id, a non-empty string, got \"\""),
    InvalidCase(
        fixture: "two-shapes.yaml", keyPath: "regions[0]", line: 2,
        message: "expected one of geojson, circle or polygon, got circle and polygon"),
    InvalidCase(
        fixture: "id-on-geojson.yaml", keyPath: "regions[0].id", line: 3,
        message: "a geojson entry takes its region ids from the file's features"),
    InvalidCase(
        fixture: "inline-linestring.yaml", keyPath: "regions[0].polygon.type", line: 3,
        message: "expected \"Polygon\" or \"MultiPolygon\", got \"LineString\""),
    InvalidCase(
        fixture: "latitude-out-of-range.yaml", keyPath: "regions[0].circle.lat", line: 3,
        message: "expected a latitude in degrees, from -90 to 90, got \"91\""),
    InvalidCase(fixture: "negative-sigma.yaml", keyPath: "noise.sigma", line: 5, message: "of 0 or more"),
    InvalidCase(
        fixture: "expect-not-list.yaml", keyPath: "expect", line: 5,
        message: "expected a list of expectations, got a mapping"),
    InvalidCase(fixture: "not-a-mapping.yaml", keyPath: "", line: 1, message: "expected a scenario: a mapping"),
    InvalidCase(fixture: "empty.yaml", keyPath: "", line: 0, message: "the file is empty"),
]

private let regionFileCases: [InvalidCase] = [
    InvalidCase(
        fixture: "unclosed.geojson", keyPath: "features[0].geometry.coordinates[0]", line: 5,
        message: "Ring 0 is not closed: its first and last positions must be equal (RFC 7946 §3.1.6)."),
    InvalidCase(
        fixture: "antimeridian.geojson", keyPath: "features[0].geometry.coordinates[0][1]", line: 4,
        message: "spans more than 180° of longitude; split the polygon at the antimeridian"),
    InvalidCase(
        fixture: "linestring.geojson", keyPath: "features[1].geometry.type", line: 4,
        message: "unsupported geometry type \"LineString\" in the feature at features[1]"),
    InvalidCase(
        fixture: "missing-feature-id.geojson", keyPath: "features[0]", line: 2,
        message: "the feature has no id; give it properties.id or a feature \"id\""),
    InvalidCase(
        fixture: "point-without-radius.geojson", keyPath: "properties.radius", line: 1,
        message: "a Point feature is a circle and needs properties.radius"),
    InvalidCase(
        fixture: "bad-position.geojson", keyPath: "geometry.coordinates", line: 2,
        message: "latitude in [-90, 90], got \"[0, 95]\""),
]

private func check(_ errors: [ScenarioError], _ c: InvalidCase) {
    #expect(errors.count == c.count, "\(errors.map(\.description))")
    let error = errors.first { $0.keyPath == c.keyPath }
    #expect(error != nil, "no error at \(c.keyPath) in \(errors.map(\.description))")
    guard let error else { return }
    #expect(error.file.hasSuffix(c.file ?? "invalid/" + c.fixture))
    #expect(error.line == c.line)
    #expect(error.message.contains(c.message), "\(error.message)")
    #expect(error.description.contains("\(error.file)\(error.line > 0 ? ":\(error.line):" : ":")"))
    if !c.keyPath.isEmpty { #expect(error.description.contains(": \(c.keyPath): ")) }
}

@Suite("Invalid scenarios and region files")
struct InvalidScenarioTests {
    @Test("An invalid scenario is rejected with its file, key path and line", arguments: scenarioCases)
    func scenario(_ c: InvalidCase) {
        check(errors(loading: "invalid/" + c.fixture), c)
    }

    @Test("An invalid GeoJSON region file is rejected with its file, key path and line", arguments: regionFileCases)
    func regionFile(_ c: InvalidCase) {
        var found: [ScenarioError] = []
        do {
            _ = try RegionFile.load(path: fixture("invalid/" + c.fixture))
        } catch {
            found = error.errors
        }
        check(found, c)
    }

    @Test("Every problem is reported, in document order, not only the first")
    func everyProblem() {
        let found = errors(loading: "invalid/many-problems.yaml")
        #expect(
            found.map(\.keyPath) == [
                "tick", "regions[0].circle.radius", "regions[1].circle.colour", "devices[0].track", "devices[1].id",
                "sinks[1]",
            ])
        #expect(found.map(\.line) == [1, 4, 6, 8, 9, 10])
    }

    @Test("The message reads as file:line:column: key.path: sentence")
    func description() {
        let error = errors(loading: "invalid/negative-radius.yaml").first
        #expect(
            error?.description.hasSuffix(
                "invalid/negative-radius.yaml:5:46: regions[1].circle.radius: expected a distance in metres greater than 0 (a number or a string like \"300m\" or \"1.5km\"), got \"-3\""
            ) == true)
        let all = ScenarioErrors(errors(loading: "invalid/many-problems.yaml"))
        #expect(all.description.split(separator: "\n").count == 6)
    }

    @Test("A GPX reader's error is placed on the device's track")
    func gpxError() {
        let loader = ScenarioLoader(trackLoader: { path in
            throw GPXErrorStandIn(text: "\(path):7:3: a trkpt has no lat")
        })
        var found: [ScenarioError] = []
        do { _ = try loader.load(path: fixture("valid/minimal.yaml")) } catch { found = error.errors }
        #expect(found.isEmpty)  // minimal.yaml has no devices
        do { _ = try loader.load(path: fixture("valid/scenario.json")) } catch { found = error.errors }
        #expect(found.map(\.keyPath) == ["devices[0].track"])
        #expect(found.first?.message.contains("walk.gpx:7:3: a trkpt has no lat") == true)
    }
}

private struct GPXErrorStandIn: Error, CustomStringConvertible {
    var text: String
    var description: String { text }
}
