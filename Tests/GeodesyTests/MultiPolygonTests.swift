import Geodesy
import Testing

/// SEMANTICS §3 (revision 2): a MultiPolygon's d is the minimum of its polygons' d. Two squares on the
/// equator, in metres east and north: A = [0, 200] × [0, 200], B = [100, 300] × [0, 200], overlapping in
/// [100, 200]. Distances in the local plane, which on the equator is metres exactly (cos 0 = 1).
@Suite("MultiPolygon distance")
struct MultiPolygonTests {
    static let metresPerDegree = Earth.radius * .pi / 180

    static func point(_ x: Double, _ y: Double) -> Coordinate {
        Coordinate(latitude: y / metresPerDegree, longitude: x / metresPerDegree)
    }

    static func square(_ x0: Double, _ x1: Double) throws -> Polygon {
        try Polygon(rings: [[point(x0, 0), point(x1, 0), point(x1, 200), point(x0, 200), point(x0, 0)]])
    }

    @Test(
        "the minimum over the parts, overlapping or not",
        arguments: [
            // In both: A's nearest edge is 80 m away, B's 20 m; the deeper part wins (revision 1 said -20).
            (120.0, 100.0, -80.0),
            (150, 100, -50),  // in both, 50 m from an edge of each
            (50, 100, -50),  // in A only: -50 in A, +50 from B
            (250, 100, -50),  // in B only
            (350, 100, 50),  // outside both: B is 50 m away
            (100, 100, -100),  // on B's edge, inside A 100 m deep: min(-100, 0)
            (-30, 100, 30),
        ])
    func distances(x: Double, y: Double, d: Double) throws {
        let shape = try MultiPolygon([Self.square(0, 200), Self.square(100, 300)])
        #expect(abs(shape.signedDistance(to: Self.point(x, y)) - d) < 1e-6)
        #expect(abs(Shape.polygon(shape).signedDistance(to: PreparedCoordinate(Self.point(x, y))) - d) < 1e-6)
    }

    @Test("one part is the polygon itself")
    func onePart() throws {
        let polygon = try Self.square(0, 200)
        for (x, y) in [(120.0, 100.0), (350, 100), (0, 50), (-1, -1)] {
            #expect(
                try MultiPolygon([polygon]).signedDistance(to: Self.point(x, y))
                    == polygon.signedDistance(to: Self.point(x, y)))
        }
    }
}
