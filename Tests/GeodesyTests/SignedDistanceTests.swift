import Foundation
import Testing

@testable import Geodesy

/// Signed distance by hand (SEMANTICS §3), and polygon validation.
@Suite("Signed distance and polygon validation")
struct SignedDistanceTests {
    static let r = 6_371_008.8
    static let metresPerDegree = r * .pi / 180

    // MARK: Circle: haversine(p, centre) − radius

    @Test("circle: inside, outside, on the edge")
    func circle() throws {
        let c = try Circle(center: Coordinate(latitude: 0, longitude: 0), radius: 1_000)
        #expect(c.signedDistance(to: Coordinate(latitude: 0, longitude: 0)) == -1_000)
        // 0.01° east on the equator: R·π/180·0.01 = 1111.95 m from the centre.
        let p = Coordinate(latitude: 0, longitude: 0.01)
        #expect(abs(c.signedDistance(to: p) - (Self.metresPerDegree * 0.01 - 1_000)) < 1e-6)
        #expect(
            abs(c.signedDistance(to: Coordinate(latitude: 0.005, longitude: 0)) - (Self.metresPerDegree * 0.005 - 1_000))
                < 1e-6)
        // A circle whose radius is exactly that distance: p is on its edge.
        let edge = try Circle(center: Coordinate(latitude: 0, longitude: 0), radius: Self.metresPerDegree * 0.01)
        #expect(abs(edge.signedDistance(to: p)) < 1e-6)
        #expect(throws: GeometryError.invalidRadius(0)) {
            _ = try Circle(center: Coordinate(latitude: 0, longitude: 0), radius: 0)
        }
        #expect(throws: GeometryError.self) { _ = try Circle(center: Coordinate(latitude: 91, longitude: 0), radius: 10) }
    }

    // MARK: Polygon with a hole

    /// Outer ring [0, 1]² and hole [0.4, 0.6]², in (lon, lat) degrees.
    static func squareWithHole() throws -> Geodesy.Polygon {
        try polygon(
            [[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]],
            holes: [[[0.4, 0.4], [0.6, 0.4], [0.6, 0.6], [0.4, 0.6], [0.4, 0.4]]])
    }

    @Test("square with a hole: inside the ring negative, inside the hole positive, edges zero")
    func hole() throws {
        let poly = try Self.squareWithHole()
        let m = Self.metresPerDegree
        // Centre of the hole (0.5, 0.5): nearest edges are the hole's west/east sides, 0.1° of longitude
        // away: x = R·0.1°·cos(0.5°) (< y = R·0.1° to the north/south sides). Outside: positive.
        let inHole = poly.signedDistance(to: Coordinate(latitude: 0.5, longitude: 0.5))
        #expect(abs(inHole - m * 0.1 * cos(0.5 * .pi / 180)) < 1e-6)
        // (lon 0.2, lat 0.5), inside the ring: outer west side and hole west side both 0.2° of longitude away.
        let inRing = poly.signedDistance(to: Coordinate(latitude: 0.5, longitude: 0.2))
        #expect(abs(inRing + m * 0.2 * cos(0.5 * .pi / 180)) < 1e-6)
        // (lon 0.5, lat 0.1): nearest is the outer south side, 0.1° of latitude: −R·0.1°.
        #expect(abs(poly.signedDistance(to: Coordinate(latitude: 0.1, longitude: 0.5)) + m * 0.1) < 1e-6)
        // Outside the outer ring, 0.5° south of it.
        #expect(abs(poly.signedDistance(to: Coordinate(latitude: -0.5, longitude: 0.5)) - m * 0.5) < 1e-6)
        // On edges and vertices of both rings: exactly 0 (inside).
        for (lat, lon) in [(0.0, 0.5), (0.4, 0.5), (0.6, 0.6), (0.5, 0.4), (1.0, 1.0), (0.45, 0.6)] {
            #expect(poly.signedDistance(to: Coordinate(latitude: lat, longitude: lon)) == 0, "(\(lat), \(lon))")
            #expect(poly.contains(Coordinate(latitude: lat, longitude: lon)))
        }
        #expect(!poly.contains(Coordinate(latitude: 0.5, longitude: 0.5)))
    }

    // MARK: Antimeridian

    @Test("a point east of the antimeridian vs a polygon west of it: the short way round")
    func antimeridian() throws {
        // Polygon: lon [179, 180], lat [-1, 1] (west of the antimeridian, touching it).
        let poly = try polygon([[179, -1], [180, -1], [180, 1], [179, 1], [179, -1]])
        let m = Self.metresPerDegree
        // (lat 0, lon -179.5): 0.5° east of the edge at 180 the short way; outside (even–odd in raw lon).
        let d = poly.signedDistance(to: Coordinate(latitude: 0, longitude: -179.5))
        #expect(abs(d - m * 0.5) < 1e-6, "d = \(d)")
        // (lat 0.5, lon -179.9): x = R·0.1°·cos(0.5°).
        let d2 = poly.signedDistance(to: Coordinate(latitude: 0.5, longitude: -179.9))
        #expect(abs(d2 - m * 0.1 * cos(0.5 * .pi / 180)) < 1e-6, "d = \(d2)")
        // The same the other way: polygon east of it, point west of it.
        let east = try polygon([[-180, -1], [-179, -1], [-179, 1], [-180, 1], [-180, -1]])
        #expect(abs(east.signedDistance(to: Coordinate(latitude: 0, longitude: 179.75)) - m * 0.25) < 1e-6)
        // Circles use haversine, which wraps by itself.
        let c = try Circle(center: Coordinate(latitude: 0, longitude: 179.9), radius: 50_000)
        #expect(abs(c.signedDistance(to: Coordinate(latitude: 0, longitude: -179.9)) - (m * 0.2 - 50_000)) < 1e-6)
    }

    // MARK: The local plane

    /// SEMANTICS §3 by hand: x = R·Δlon·cos(lat_p), y = R·Δlat, with cos at the POINT's latitude.
    @Test("local plane: x = R·Δlon·cos(lat_p), y = R·Δlat")
    func localPlane() throws {
        let poly = try polygon([[10, 60], [11, 60], [11, 61], [10, 61], [10, 60]])
        let m = Self.metresPerDegree
        // West of the square at lat 60.5: x = R·1°·cos(60.5°).
        let west = poly.signedDistance(to: Coordinate(latitude: 60.5, longitude: 9))
        #expect(abs(west - m * cos(60.5 * .pi / 180)) < 1e-6)
        // Diagonal from the corner (10, 60), p = (lat 59.5, lon 9.5): sqrt((R·0.5°·cos 59.5°)² + (R·0.5°)²).
        let x: Double = m * 0.5 * cos(59.5 * Double.pi / 180), y: Double = m * 0.5
        let corner = poly.signedDistance(to: Coordinate(latitude: 59.5, longitude: 9.5))
        #expect(abs(corner - (x * x + y * y).squareRoot()) < 1e-6)
        // Not the corner's latitude: cos(60°) would give a value 0.5 % off, far beyond the tolerance.
        let xAtCorner: Double = m * 0.5 * cos(60 * Double.pi / 180)
        let wrong: Double = (xAtCorner * xAtCorner + y * y).squareRoot()
        #expect(abs(corner - wrong) > 100)
        // A slanted edge: the foot of the perpendicular in the plane at p, solved by hand.
        // Triangle (10, 60) → (12, 61) → (10, 61); p = (lat 60, lon 11.5), below the slanted edge.
        let tri = try polygon([[10, 60], [12, 61], [10, 61], [10, 60]])
        let p = Coordinate(latitude: 60, longitude: 11.5)
        let c: Double = cos(60 * Double.pi / 180)
        // Edge from A (−1.5°·c, 0) to B (0.5°·c, 1°) in metres; p at the origin.
        let ax: Double = -1.5 * c * m, ay: Double = 0, bx: Double = 0.5 * c * m, by: Double = m
        let dx: Double = bx - ax, dy: Double = by - ay
        let t: Double = max(0, min(1, -(ax * dx + ay * dy) / (dx * dx + dy * dy)))
        let fx: Double = ax + t * dx, fy: Double = ay + t * dy
        let expected: Double = (fx * fx + fy * fy).squareRoot()
        #expect(abs(tri.signedDistance(to: p) - expected) < 1e-6, "\(tri.signedDistance(to: p)) vs \(expected)")
    }

    /// SEMANTICS §3 takes Δlon "the short way round" for every point of an edge. An edge may span up to
    /// 180° of longitude, so near a pole part of one edge can be nearer the short way across ±180 than
    /// the way its first vertex was unwrapped. Reference: dense sampling of each edge with each sample's own
    /// short-way Δlon.
    @Test("local plane: a long edge near the pole is measured the short way round at every point")
    func longEdgeShortWay() throws {
        // Triangle A (10, 80) → B (−170, 89) → C (10, 89.5); both long edges span exactly 180°.
        let ring: [[Double]] = [[10, 80], [-170, 89], [10, 89.5], [10, 80]]
        let tri = try polygon(ring)
        let p = Coordinate(latitude: 88, longitude: 178)
        var reference = Double.infinity
        for i in 1..<ring.count {
            let a = ring[i - 1], b = ring[i]
            let steps = 400_000
            for s in 0...steps {
                let t = Double(s) / Double(steps)
                let q = Coordinate(latitude: a[1] + t * (b[1] - a[1]), longitude: a[0] + t * (b[0] - a[0]))
                reference = min(reference, planeDistance(from: p, to: q))
            }
        }
        let d = tri.signedDistance(to: p)
        #expect(d > 0)  // outside by even–odd in raw (lon, lat)
        #expect(abs(d - reference) < 1, "d = \(d) m, short-way reference \(reference) m")
    }

    /// The exact orientation behind the even–odd and on-edge tests: cyclic and antisymmetric on nearly
    /// collinear points (a rounded cross product is not), zero on exactly collinear ones.
    @Test("exact orientation: consistent on nearly collinear points", arguments: 0..<5)
    func orientation(seed: Int) {
        var rng = SeededGenerator(seed: 11_000 + UInt64(seed))
        for _ in 0..<2_000 {
            let ax = Double.random(in: -180...180, using: &rng), ay = Double.random(in: -90...90, using: &rng)
            let bx = Double.random(in: -180...180, using: &rng), by = Double.random(in: -90...90, using: &rng)
            let t = Double.random(in: 0...1, using: &rng)
            let px = ax + t * (bx - ax), py = ay + t * (by - ay)  // on the line, up to rounding
            let s = orientationSign(ax, ay, bx, by, px, py)
            #expect(orientationSign(bx, by, px, py, ax, ay) == s, "cyclic: a \((ax, ay)) b \((bx, by)) p \((px, py))")
            #expect(orientationSign(px, py, ax, ay, bx, by) == s, "cyclic")
            #expect(orientationSign(bx, by, ax, ay, px, py) == -s, "antisymmetric")
        }
        #expect(orientationSign(0, 0, 1, 1, 0.1, 0.1) == 0)
        #expect(orientationSign(1.111111111111, 1.111111111111, 1.111111111111, 2.111111111111, 1.111111111111, 1.5) == 0)
        // hao's robust case: p = (16.8, 16.8) is left of (0.95000000000011190, 0.95000000000011010) → (18, 18).
        #expect(orientationSign(0.9500000000001119, 0.9500000000001101, 18, 18, 16.8, 16.8) == 1)
    }

    // MARK: Validation

    struct InvalidCase: Sendable, CustomTestStringConvertible {
        var name: String
        var rings: [[[Double]]]
        var error: GeometryError
        var testDescription: String { name }
    }

    static let invalidCases: [InvalidCase] = [
        InvalidCase(
            name: "fewer than 4 positions", rings: [[[0, 0], [1, 0], [0, 0]]], error: .tooFewPositions(ring: 0, count: 3)),
        InvalidCase(
            name: "hole with fewer than 4 positions",
            rings: [[[0, 0], [1, 0], [1, 1], [0, 0]], [[0.1, 0.1], [0.2, 0.1], [0.1, 0.1]]],
            error: .tooFewPositions(ring: 1, count: 3)),
        InvalidCase(name: "unclosed ring", rings: [[[0, 0], [1, 0], [1, 1], [0, 1]]], error: .unclosedRing(ring: 0)),
        InvalidCase(name: "no rings", rings: [], error: .emptyPolygon),
        InvalidCase(
            name: "edge spanning more than 180° of longitude", rings: [[[-170, 0], [170, 0], [170, 1], [-170, 0]]],
            error: .antimeridianEdge(ring: 0, position: 1)),
        InvalidCase(
            name: "latitude out of range", rings: [[[0, 0], [1, 91], [1, 1], [0, 0]]],
            error: .invalidCoordinate(Coordinate(latitude: 91, longitude: 1), where: "ring 0, position 1")),
        InvalidCase(
            name: "longitude out of range", rings: [[[0, 0], [181, 0], [1, 1], [0, 0]]],
            error: .invalidCoordinate(Coordinate(latitude: 0, longitude: 181), where: "ring 0, position 1")),
    ]

    @Test("invalid polygons throw the GeometryError that names the fault", arguments: invalidCases)
    func invalid(_ c: InvalidCase) {
        #expect(throws: c.error) {
            _ = try Geodesy.Polygon(rings: c.rings.map { $0.map { Coordinate(latitude: $0[1], longitude: $0[0]) } })
        }
    }

    @Test("non-finite positions are rejected", arguments: [Double.nan, .infinity, -.infinity])
    func nonFinite(_ value: Double) {
        #expect {
            _ = try Geodesy.Polygon(rings: [
                [
                    Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: value, longitude: 1),
                    Coordinate(latitude: 1, longitude: 1), Coordinate(latitude: 0, longitude: 0),
                ]
            ])
        } throws: { error in
            guard case let .invalidCoordinate(_, place) = error as? GeometryError else { return false }
            return place == "ring 0, position 1"
        }
    }

    @Test("exactly 180° of longitude is allowed; an empty MultiPolygon is not")
    func edges() throws {
        _ = try polygon([[-90, 0], [90, 0], [90, 1], [-90, 0]])
        #expect(throws: GeometryError.emptyPolygon) { _ = try MultiPolygon([]) }
    }
}
