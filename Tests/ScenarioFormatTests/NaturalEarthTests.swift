import Documents
import Foundation
import Geodesy
import Geofencing
import ScenarioFormat
import Testing
import Time

/// Natural Earth's 1:110m countries, the most used free borders, read as they are published (see
/// Fixtures/natural-earth/README.md), and flights across them entering and leaving each country where a
/// point-in-polygon reference written here says.
@Suite("Natural Earth's countries")
struct NaturalEarthTests {
    static let file = fixture("natural-earth/ne_110m_countries.geojson")

    /// A scenario beside a copy of the countries file, its `regions:` entry given.
    static func scenario(_ entry: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("natural-earth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: file, toPath: folder.appendingPathComponent("countries.geojson").path)
        let path = folder.appendingPathComponent("world.yaml").path
        try "name: World\nregions:\n  - \(entry)\ndevices: []\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("Read whole, Antarctica's ring is refused, named, with skip: invalid offered")
    func refusedWhole() throws {
        let path = try Self.scenario("geojson: countries.geojson")
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let errors = try #require(throws: ScenarioErrors.self) { try ScenarioLoader.load(path: path) }.errors
        #expect(errors.count == 1)
        #expect(errors.first?.keyPath == "features[159].geometry.coordinates[7][0][2]")
        #expect(
            errors.first?.message.hasSuffix(
                "It is in feature \"ATA\" (Antarctica); skip: invalid on the geojson: entry "
                    + "loads the other features without it.") == true, "\(errors)")
    }

    @Test("With skip: invalid, every country but Antarctica loads, with one warning each for Russia's 180 and the skip")
    func loadsWithSkip() throws {
        let path = try Self.scenario("{geojson: countries.geojson, skip: invalid}")
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let scenario = try ScenarioLoader.load(path: path)
        #expect(scenario.simulation.regions.count == 176)
        #expect(!scenario.simulation.regions.contains { $0.id == "ATA" })
        #expect(scenario.warnings.count == 2, "\(scenario.warnings)")
        #expect(
            scenario.warnings.contains {
                $0.contains(
                    "features[18].geometry.coordinates[0][0][0]: the longitude "
                        + "180.00000000000006 lies past ±180° by less than 1e-9°")
                    && $0.hasSuffix("(and 2 more positions of this file)")
            })
        #expect(
            scenario.warnings.contains {
                $0.contains(
                    "regions[0].skip: skipped 1 feature of countries.geojson that "
                        + "cannot be read: \"ATA\" (Antarctica) at 1:")
            })
        let russia = try #require(scenario.simulation.regions.first { $0.id == "RUS" })
        #expect(russia.shape.bounds.maxLongitude == 180)
        // properties.name is each region's name, read straight from the bytes or, with escapes or
        // non-ASCII letters, through nodes.
        #expect(russia.name == "Russia")
        #expect(scenario.simulation.regions.first { $0.id == "CIV" }?.name == "Côte d'Ivoire")
        #expect(scenario.simulation.regions.allSatisfy { $0.name != nil })
    }

    /// Great-circle flights, a fix every 20 s (the tick) at 250 m/s (5 km apart: every border of the flights is still crossed between two fixes, at a quarter of the samples, which ASan runs 20 times slower): over Europe, Africa, the Americas, and from Chukotka
    /// across the antimeridian to Alaska.
    static let flights: [(id: String, from: Coordinate, to: Coordinate)] = [
        ("lisbon-moscow", Coordinate(latitude: 38.77, longitude: -9.13), Coordinate(latitude: 55.97, longitude: 37.41)),
        ("cairo-lagos", Coordinate(latitude: 30.12, longitude: 31.41), Coordinate(latitude: 6.58, longitude: 3.32)),
        ("bogota-mexico", Coordinate(latitude: 4.70, longitude: -74.15), Coordinate(latitude: 19.44, longitude: -99.07)),
        ("anadyr-nome", Coordinate(latitude: 64.73, longitude: 177.74), Coordinate(latitude: 64.51, longitude: -165.44)),
        ("delhi-hanoi", Coordinate(latitude: 28.56, longitude: 77.10), Coordinate(latitude: 21.22, longitude: 105.81)),
    ]

    @Test("Flights enter and leave each country where an even–odd point-in-polygon reference says (ideal profile)")
    func flightsAgainstReference() throws {
        let path = try Self.scenario("{geojson: countries.geojson, skip: invalid}")
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        var simulation = try ScenarioLoader.load(path: path).simulation
        let start = Timestamp(iso8601: "2024-05-01T00:00:00Z")!
        let tracks = Self.flights.map { flight in (flight.id, Self.fixes(from: flight.from, to: flight.to, start: start)) }
        simulation.devices = tracks.map { Device(id: $0.0, track: .timed([$0.1])) }
        simulation.start = start
        simulation.tick = .seconds(20)  // a sample at each fix, no position between fixes
        let log = EventLog()
        _ = try simulation.run(into: log)
        let engine = log.events.filter { $0.kind == .enter || $0.kind == .exit }
            .map { "\($0.device) \($0.region) \($0.kind) \($0.time.iso8601)" }

        let countries = simulation.regions.map { region -> (id: String, polygons: [Geodesy.Polygon]) in
            guard case let .polygon(shape) = region.shape else { return (region.id, []) }
            return (region.id, shape.polygons)
        }
        var expected: [String] = []
        for (device, fixes) in tracks {
            var inside = Set(countries.indices.filter { Self.contains(countries[$0].polygons, fixes[0].coordinate) })
            for fix in fixes.dropFirst() {
                let now = Set(countries.indices.filter { Self.contains(countries[$0].polygons, fix.coordinate) })
                for i in now.subtracting(inside) {
                    expected.append("\(device) \(countries[i].id) enter \(fix.time.iso8601)")
                }
                for i in inside.subtracting(now) { expected.append("\(device) \(countries[i].id) exit \(fix.time.iso8601)") }
                inside = now
            }
        }
        #expect(expected.count >= 20, "the flights should cross many borders")
        let engineOnly = Set(engine).subtracting(expected), referenceOnly = Set(expected).subtracting(engine)
        #expect(engineOnly.isEmpty && referenceOnly.isEmpty, "engine only: \(engineOnly); reference only: \(referenceOnly)")
        #expect(engine.count == expected.count)
    }

    /// Fixes every 20 s at 250 m/s along the great circle from `a` to `b`.
    static func fixes(from a: Coordinate, to b: Coordinate, start: Timestamp) -> [Fix] {
        let distance = a.distance(to: b), steps = Int(distance / 5000)
        let (p1, l1, p2, l2) = (
            a.latitude * .pi / 180, a.longitude * .pi / 180, b.latitude * .pi / 180, b.longitude * .pi / 180
        )
        let delta = distance / Earth.radius
        return (0...steps).map { k in
            let f = Double(k) / Double(steps)
            let s1 = sin((1 - f) * delta) / sin(delta), s2 = sin(f * delta) / sin(delta)
            let x = s1 * cos(p1) * cos(l1) + s2 * cos(p2) * cos(l2)
            let y = s1 * cos(p1) * sin(l1) + s2 * cos(p2) * sin(l2)
            let z = s1 * sin(p1) + s2 * sin(p2)
            let point = Coordinate(
                latitude: atan2(z, (x * x + y * y).squareRoot()) * 180 / .pi, longitude: atan2(y, x) * 180 / .pi)
            return Fix(point, at: start + .seconds(20 * Int64(k)))
        }
    }

    /// Even–odd ray casting in (longitude, latitude), each polygon's rings together (holes included),
    /// inside any polygon of the country; written here, apart from the engine's distances.
    static func contains(_ polygons: [Geodesy.Polygon], _ p: Coordinate) -> Bool {
        polygons.contains { polygon in
            let box = polygon.bounds
            guard p.latitude >= box.minLatitude, p.latitude <= box.maxLatitude,
                p.longitude >= box.minLongitude, p.longitude <= box.maxLongitude
            else { return false }
            var odd = false
            for ring in polygon.rings {
                for (a, b) in zip(ring, ring.dropFirst()) where (a.latitude > p.latitude) != (b.latitude > p.latitude) {
                    let x = a.longitude + (p.latitude - a.latitude) / (b.latitude - a.latitude) * (b.longitude - a.longitude)
                    if p.longitude < x { odd.toggle() }
                }
            }
            return odd
        }
    }
}
