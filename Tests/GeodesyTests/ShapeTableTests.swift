import Foundation
import Geodesy
import Testing

/// `ShapeTable` lays shapes out flat for the engine; its distances must be the shapes' own, bit for bit
/// (SEMANTICS §3): circles, polygons with holes, multipolygons, points on edges and vertices, and shapes
/// beside the antimeridian seen from its other side.
@Suite("Shape table")
struct ShapeTableTests {
    /// A closed, star-shaped ring of `corners` positions around `centre`, `size` degrees across at most.
    static func ring(
        around centre: Coordinate, size: Double, corners: Int,
        using rng: inout SeededGenerator
    ) -> [Coordinate] {
        var ring = (0..<corners).map { k -> Coordinate in
            let angle = Double(k) / Double(corners) * 2 * .pi
            let reach = size / 2 * .random(in: 0.3...1, using: &rng)
            return Coordinate(
                latitude: centre.latitude + reach * sin(angle), longitude: centre.longitude + reach * cos(angle))
        }
        ring.append(ring[0])
        return ring
    }

    /// A random circle or multipolygon (one to three parts, each with up to two holes) near `centre`.
    static func shape(near centre: Coordinate, using rng: inout SeededGenerator) throws -> Shape {
        if Bool.random(using: &rng) {
            return .circle(try Circle(center: centre, radius: .random(in: 1...5_000, using: &rng)))
        }
        let parts = try (0..<Int.random(in: 1...3, using: &rng)).map { part -> Polygon in
            let partCentre = Coordinate(latitude: centre.latitude + 0.02 * Double(part), longitude: centre.longitude)
            let outer = ring(around: partCentre, size: 0.015, corners: .random(in: 3...12, using: &rng), using: &rng)
            // Holes well inside the outer ring's smallest reach (0.3 × half its size).
            let holes = (0..<Int.random(in: 0...2, using: &rng)).map { hole in
                ring(
                    around: Coordinate(
                        latitude: partCentre.latitude + 0.0006 * Double(hole), longitude: partCentre.longitude),
                    size: 0.0008, corners: .random(in: 3...6, using: &rng), using: &rng)
            }
            return try Polygon(rings: [outer] + holes)
        }
        return .polygon(try MultiPolygon(parts))
    }

    /// Points around `shape`: random ones near it, its vertices (on an edge: d = 0) and edge midpoints.
    static func points(near centre: Coordinate, shape: Shape, using rng: inout SeededGenerator) -> [Coordinate] {
        var points = (0..<40).map { _ in
            Coordinate(
                latitude: centre.latitude + .random(in: -0.05...0.07, using: &rng),
                longitude: normalizedLongitude(centre.longitude + .random(in: -0.05...0.05, using: &rng)))
        }
        if case let .polygon(multiPolygon) = shape {
            for ring in multiPolygon.polygons.flatMap(\.rings) {
                points.append(ring[0])
                points.append(
                    Coordinate(
                        latitude: (ring[1].latitude + ring[2].latitude) / 2,
                        longitude: (ring[1].longitude + ring[2].longitude) / 2))
            }
        }
        return points
    }

    @Test(
        "a polygon's box bounds its distance from outside: lower ≤ d ≤ upper, d > 0; none for circles or inside the box",
        arguments: [UInt64(0xB0B5), 5, 6])
    func boxBoundsHoldDistances(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        // Centres as above, and points up to a degree away, some across the antimeridian from their shape.
        let centres = (0..<80).map { i -> Coordinate in
            switch i % 4 {
            case 0:
                return Coordinate(
                    latitude: .random(in: -60...60, using: &rng), longitude: .random(in: -170...170, using: &rng))
            case 1:
                return Coordinate(
                    latitude: .random(in: -10...10, using: &rng), longitude: .random(in: 179.2...179.99, using: &rng))
            case 2:
                return Coordinate(
                    latitude: .random(in: -10...10, using: &rng), longitude: .random(in: -179.99 ... -179.2, using: &rng))
            default:
                return Coordinate(
                    latitude: .random(in: 80...89.8, using: &rng) * (Bool.random(using: &rng) ? 1 : -1),
                    longitude: .random(in: -170...170, using: &rng))
            }
        }
        let shapes = try centres.map { try Self.shape(near: $0, using: &rng) }
        let table = ShapeTable(shapes)
        var bounded = 0, tight = 0, declined = 0
        for (index, shape) in shapes.enumerated() {
            var points = Self.points(near: centres[index], shape: shape, using: &rng)
            for _ in 0..<40 {
                let reach = [0.02, 0.2, 1.0].randomElement(using: &rng)!
                points.append(
                    Coordinate(
                        latitude: max(-90, min(90, centres[index].latitude + .random(in: -reach...reach, using: &rng))),
                        longitude: normalizedLongitude(centres[index].longitude + .random(in: -reach...reach, using: &rng))))
            }
            for point in points where point.isValid {
                let prepared = PreparedCoordinate(point)
                let d = table.signedDistance(index, to: prepared)
                guard let bounds = table.distanceBounds(index, from: prepared) else {
                    declined += 1
                    continue
                }
                if case .circle = shape { Issue.record("seed \(seed), shape \(index): a circle has box bounds") }
                #expect(
                    d > 0 && bounds.lower <= d && d <= bounds.upper,
                    "seed \(seed), shape \(index), point \(point): d \(d) against \(bounds.lower)…\(bounds.upper)")
                // The upper bound holds every vertex in the plane at the point (x = R·Δlon·cos φ, y = R·Δlat).
                if case let .polygon(multiPolygon) = shape {
                    let metres = 6_371_008.8 * .pi / 180
                    let farthest = multiPolygon.polygons.flatMap(\.rings).joined().map { v -> Double in
                        let x = (v.longitude - point.longitude) * metres * prepared.cosLatitude
                        let y = (v.latitude - point.latitude) * metres
                        return (x * x + y * y).squareRoot()
                    }.max()!
                    #expect(
                        farthest <= bounds.upper, "seed \(seed), shape \(index), point \(point): a vertex \(farthest) m away"
                    )
                }
                bounded += 1
                if bounds.lower > 0.5 * d { tight += 1 }
            }
        }
        #expect(bounded > 1_000 && declined > 1_000, "bounded \(bounded), declined \(declined)")
        #expect(tight > bounded / 2, "the lower bound is mostly within half of d: \(tight) of \(bounded)")
    }

    @Test("distances equal the shapes' own, bit for bit", arguments: [UInt64(0x5_7AB1E), 2, 3])
    func sameDistances(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        // Some centres beside the antimeridian, and far north and south, where the plane's metric bites.
        let centres = (0..<60).map { i -> Coordinate in
            switch i % 4 {
            case 0:
                return Coordinate(
                    latitude: .random(in: -60...60, using: &rng), longitude: .random(in: -170...170, using: &rng))
            case 1: return Coordinate(latitude: .random(in: -10...10, using: &rng), longitude: 179.96)
            case 2: return Coordinate(latitude: .random(in: -10...10, using: &rng), longitude: -179.96)
            default:
                return Coordinate(
                    latitude: .random(in: 80...89.8, using: &rng) * (Bool.random(using: &rng) ? 1 : -1),
                    longitude: .random(in: -170...170, using: &rng))
            }
        }
        let shapes = try centres.map { try Self.shape(near: $0, using: &rng) }
        let table = ShapeTable(shapes)
        #expect(table.count == shapes.count)
        var compared = 0, onEdges = 0
        for (index, shape) in shapes.enumerated() {
            for point in Self.points(near: centres[index], shape: shape, using: &rng) where point.isValid {
                let prepared = PreparedCoordinate(point)
                let expected = shape.signedDistance(to: prepared)
                let found = table.signedDistance(index, to: prepared)
                #expect(
                    found.bitPattern == expected.bitPattern,
                    "seed \(seed), shape \(index), point \(point): \(found) against \(expected)")
                compared += 1
                if expected == 0 { onEdges += 1 }
            }
        }
        #expect(compared > 2_000)
        #expect(onEdges > 0, "no point fell on an edge: the on-edge path went untested")
    }
}
