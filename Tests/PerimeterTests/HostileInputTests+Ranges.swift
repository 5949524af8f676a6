import Foundation
import TestSupport
import Testing

/// Issue 49 H8: a radius or an accuracy of 1e22 m crashed `validate`, `run` and `check` with SIGILL (an
/// `Int64` conversion in the readable distances), and `check` wrote no JUnit. Every distance a scenario,
/// profile or region file gives is at most half the Earth's circumference (`Earth.farthest`, 20,015 km):
/// past it is exit 2 at its key path. 1e400 reads as infinity where a number may be written so (JSON).
extension HostileInputTests {
    struct FarPlace: CustomTestStringConvertible, Sendable {
        var id: String
        /// Writes the scenario (and its files) with `VALUE` for the distance.
        var make: @Sendable (_ folder: URL, _ value: String) throws -> Void
        /// Where the error is: `FILE:…: KEYPATH: expected a distance`.
        var file: String
        var keyPath: String
        var testDescription: String { id }
    }

    static let farPlaces: [FarPlace] = [
        .init(
            id: "a circle's radius",
            make: { folder, value in
                try secretScenario(
                    in: folder, regions: ["{id: cafe, circle: {lat: 37.703026, lon: -121.759735, radius: \(value)}}"])
            }, file: "scenario.yaml", keyPath: "regions[0].circle.radius"),
        .init(
            id: "monitor: accuracy",
            make: { folder, value in try secretScenario(in: folder, extra: "monitor: {accuracy: \(value)}\n") },
            file: "scenario.yaml", keyPath: "monitor.accuracy"),
        .init(
            id: "a device's accuracy",
            make: { folder, value in
                try secretScenario(in: folder, devices: ["{id: phone, track: track.gpx, accuracy: \(value)}"])
            }, file: "scenario.yaml", keyPath: "devices[0].accuracy"),
        .init(
            id: "a profile file's accuracy",
            make: { folder, value in
                try Inputs.write("base: ios\naccuracy: \(value)\n", "far.profile.yaml", in: folder)
                try secretScenario(in: folder, extra: "profile: far.profile.yaml\n")
            }, file: "far.profile.yaml", keyPath: "accuracy"),
        .init(
            id: "a GeoJSON feature's radius",
            make: { folder, value in
                try Inputs.write(farFeature("\"radius\":\(value)"), "zones.geojson", in: folder)
                try secretScenario(in: folder, regions: ["{geojson: zones.geojson}"])
            }, file: "zones.geojson", keyPath: "features[0].properties.radius"),
        .init(
            id: "a GeoJSON feature's hysteresis",
            make: { folder, value in
                try Inputs.write(farFeature("\"radius\":300,\"hysteresis\":\(value)"), "zones.geojson", in: folder)
                try secretScenario(in: folder, regions: ["{geojson: zones.geojson}"])
            }, file: "zones.geojson", keyPath: "features[0].properties.hysteresis"),
    ]

    /// A FeatureCollection of one Point feature around the walk, with `properties` besides its id.
    static func farFeature(_ properties: String) -> String {
        "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"properties\":{\"id\":\"cafe\",\(properties)},"
            + "\"geometry\":{\"type\":\"Point\",\"coordinates\":[-121.759735,37.703026]}}]}\n"
    }

    @Test(
        "a distance past half the Earth's circumference is exit 2 at its key path",
        arguments: farPlaces, ["1e22", "1e300", "1e400"])
    func farDistance(_ c: FarPlace, value: String) throws {
        let folder = try PerimeterProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try c.make(folder, value)
        for command in [["validate"], ["run"], ["check", "--junit", "junit.xml"]] {
            let result = try PerimeterProcess.run(command + ["scenario.yaml"], in: folder)
            // check says its errors on standard output, beside each scenario's result.
            let shown = result.stdout + result.stderr, what = "\(command[0]): \(result.stdout + result.stderr)"
            #expect(result.status == 2, "\(what)")
            #expect(shown.contains("\(c.file):"), "\(what)")
            #expect(shown.contains(": \(c.keyPath): expected a distance"), "\(what)")
            if command[0] == "check" {
                let junit = try? String(contentsOf: folder.appendingPathComponent("junit.xml"), encoding: .utf8)
                #expect(junit.map { $0.contains("<error") || $0.contains("<failure") } == true, "\(junit ?? "no JUnit")")
            }
        }
    }
}
