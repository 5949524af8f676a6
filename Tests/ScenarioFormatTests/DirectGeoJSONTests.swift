import Documents
import Draws
import Foundation
import Geodesy
import Geofencing
import TestSupport
import Testing

@testable import ScenarioFormat

/// Features of the common shape are read straight from their bytes into regions (`directFeature`), and
/// rings into coordinates (`PackedPositions`); everything else falls back to nodes. Both readings must
/// give the same regions, errors (key path, line, column, message), warnings and duplicate-id messages:
/// seeded random region files, mostly well formed, with every kind of departure the direct reader hands
/// back, are read both ways and compared.
@Suite struct DirectGeoJSONTests {
    static let seeds: [UInt64] = Array(1...400)

    @Test(arguments: seeds)
    func directAndNodeReadingsAgree(seed: UInt64) throws {
        var random = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15)
        let text = RandomRegionFile.make(&random)
        let path = try write(text)
        let (directRegions, directProblems) = read(path, direct: true)
        let (nodeRegions, nodeProblems) = read(path, direct: false)
        #expect(directRegions == nodeRegions, "seed \(seed): regions differ in\n\(text)")
        #expect(directProblems == nodeProblems, "seed \(seed): problems differ in\n\(text)")
    }

    /// The generator makes both kinds: files that load and files with problems (guarding against a
    /// generator whose every file fails, which would compare nothing but errors).
    @Test func theGeneratorMakesRegionsAndProblems() throws {
        var loaded = 0, failed = 0, direct = 0
        var firstErrors: [String] = []
        for seed in Self.seeds.prefix(100) {
            var random = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15)
            let text = RandomRegionFile.make(&random)
            let (regions, problems) = read(try write(text), direct: true)
            if problems.errors.isEmpty { loaded += 1 } else { failed += 1; firstErrors.append(problems.errors[0].message) }
            direct += regions.count
        }
        #expect(loaded >= 20 && failed >= 20, "loaded \(loaded), failed \(failed): \(firstErrors.prefix(8))")
        #expect(direct >= 200)
    }

    /// A position's place in a message comes from the packed ring's text read again: a polygon whose edge
    /// crosses the antimeridian is refused at that position's line and column.
    @Test func aPackedRingPlacesItsPositions() throws {
        let text = """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "id": "a", "geometry": {"type": "Polygon", "coordinates": [
                [[179.5, 10], [-179.5, 10],
                 [-179.5, 11], [179.5, 10]]]}}]}
            """
        let path = try write(text)
        for direct in [true, false] {
            let (_, problems) = read(path, direct: direct)
            let error = try #require(problems.errors.first)
            #expect(
                error.keyPath == "features[0].geometry.coordinates[0][1]" && error.line == 3 && error.column == 19,
                "direct \(direct): \(error)")
        }
    }

    /// Which features the direct reader takes, and which it hands back to the nodes (where the same
    /// region, or a message, comes from `GeoJSON.feature`).
    static let shapes: [(String, String, Bool)] = [
        (
            "a circle",
            #"{"type": "Feature", "properties": {"id": "a", "radius": 50}, "geometry": {"type": "Point", "coordinates": [13.4, 52.5]}}"#,
            true
        ),
        (
            "a polygon, members in another order",
            #"{"geometry": {"coordinates": [[[0, 0], [0.01, 0], [0, 0.01], [0, 0]]], "type": "Polygon"}, "id": 7, "type": "Feature"}"#,
            true
        ),
        (
            "foreign members and other properties",
            #"{"type": "Feature", "bbox": [0, 0, 1, 1], "properties": {"id": "a", "radius": 5, "name": "Caf\u00e9 \"x\"", "tags": {"a": [1, null]}}, "geometry": {"type": "Point", "coordinates": [1, 2, 30], "bbox": [1, 2, 1, 2]}}"#,
            true
        ),
        (
            "overrides as numbers",
            #"{"type": "Feature", "properties": {"id": "a", "radius": 5, "hysteresis": 0, "enterBuffer": 1e1, "confirmation": 2.5, "enterConfidence": 1, "exitConfidence": 0}, "geometry": {"type": "Point", "coordinates": [1, 2]}}"#,
            true
        ),
        (
            "a radius with a unit",
            #"{"type": "Feature", "properties": {"id": "a", "radius": "300m"}, "geometry": {"type": "Point", "coordinates": [1, 2]}}"#,
            false
        ),
        (
            "an id with an escape",
            #"{"type": "Feature", "properties": {"id": "\u0041", "radius": 5}, "geometry": {"type": "Point", "coordinates": [1, 2]}}"#,
            false
        ),
        (
            "an id that is not ASCII",
            #"{"type": "Feature", "properties": {"id": "café", "radius": 5}, "geometry": {"type": "Point", "coordinates": [1, 2]}}"#,
            false
        ),
        (
            "a null",
            #"{"type": "Feature", "properties": {"id": "a", "radius": 5, "hysteresis": null}, "geometry": {"type": "Point", "coordinates": [1, 2]}}"#,
            false
        ),
        (
            "a MultiPolygon",
            #"{"type": "Feature", "id": "m", "geometry": {"type": "MultiPolygon", "coordinates": [[[[0, 0], [0.01, 0], [0, 0.01], [0, 0]]]]}}"#,
            false
        ),
        (
            "a ring that crosses itself",
            #"{"type": "Feature", "id": "x", "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [0.01, 0.01], [0.01, 0], [0, 0.01], [0, 0]]]}}"#,
            false
        ),
        (
            "a latitude out of range",
            #"{"type": "Feature", "properties": {"id": "a", "radius": 5}, "geometry": {"type": "Point", "coordinates": [1, 95]}}"#,
            false
        ),
    ]

    @Test(arguments: shapes)
    func directReaderTakesTheCommonShape(name: String, feature: String, taken: Bool) throws {
        let text = #"{"type": "FeatureCollection", "features": ["# + feature + "]}"
        var kinds: [Bool] = []
        let streamed = try Array(text.utf8).withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer)
            return try reader.forEachFeature(defaults: MonitorOverrides()) { read, _ in
                if case .direct = read { kinds.append(true) } else { kinds.append(false) }
            }
        }
        #expect(streamed && kinds == [taken], "\(name)")
    }

    struct Problems: Equatable {
        var errors: [ScenarioError]
        var warnings: [String]
    }

    private func read(_ path: String, direct: Bool) -> ([Region], Problems) {
        let log = ProblemLog()
        let placed = RegionFile.read(path, defaults: MonitorOverrides(), diagnostics: log, direct: direct)
        RegionFile.checkUniqueIDs(placed)
        return (placed.map(\.region), Problems(errors: log.errors, warnings: log.warnings))
    }

    private func write(_ text: String) throws -> String {
        let folder = try TemporaryFolders.make("direct-geojson")
        let path = folder.appendingPathComponent("zones.geojson").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
