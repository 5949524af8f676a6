import Draws
import Foundation
import Geodesy
import Testing

/// How deep a shape goes, and how deep an enter must be (SEMANTICS §5): the inverse of the confidence,
/// and the search that tells whether some point of a shape lies that far inside.
@Suite("Depth of a shape")
struct DepthTests {
    @Test(
        "Confidence.depth inverts the share, by hand",
        arguments: [
            (share: 0.5, accuracy: 20.0, depth: 0.0), (share: 1, accuracy: 20, depth: 20),
            (share: 0.85, accuracy: 20, depth: 0.5851374228807952 * 20), (share: 0.85, accuracy: 0, depth: 0),
            (share: 0.8044988905221148, accuracy: 10, depth: 5), (share: 0.5951336488308931, accuracy: 20, depth: 3),
        ])
    func depthForShare(share: Double, accuracy: Double, depth: Double) {
        #expect(abs(Confidence.depth(forShare: share, accuracy: accuracy) - depth) < 1e-5)
    }

    @Test("At the depth found the share is reached, and a millimetre less it is not (seeded)")
    func depthRoundTrip() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<2_000 {
            let share = 0.5 + Double(random.next() % 500_000) / 1_000_000
            let accuracy = 1 + Double(random.next() % 100_000) / 1_000
            let depth = Confidence.depth(forShare: share, accuracy: accuracy)
            #expect(Confidence.inside(distance: -depth, accuracy: accuracy) >= share, "share \(share), accuracy \(accuracy)")
            #expect(
                Confidence.inside(distance: -(depth - 1e-3), accuracy: accuracy) < share,
                "share \(share), accuracy \(accuracy)")
        }
    }

    /// A rectangle of `width` × `height` metres at latitude 60 (half as many metres a degree of longitude).
    static func rectangle(width: Double, height: Double, latitude: Double = 60) throws -> Shape {
        let dLat = height / (Earth.radius * .pi / 180)
        let dLon = width / (Earth.radius * .pi / 180 * cos(latitude * .pi / 180))
        return try .polygon(
            MultiPolygon([
                polygon([
                    [30, latitude], [30 + dLon, latitude], [30 + dLon, latitude + dLat],
                    [30, latitude + dLat], [30, latitude],
                ])
            ]))
    }

    @Test("A circle reaches its radius and no more")
    func circle() throws {
        let circle = Shape.circle(try Circle(center: Coordinate(latitude: 60, longitude: 30), radius: 10))
        #expect(circle.reaches(depth: 10) == true)
        #expect(circle.reaches(depth: 10.001) == false)
    }

    @Test(
        "A 30 × 20 m rectangle is 10 m deep at most",
        arguments: [
            (depth: 9.9, reaches: true), (depth: 10.1, reaches: false), (depth: 11.7, reaches: false),
            (depth: 3, reaches: true),
        ])
    func rectangle(depth: Double, reaches: Bool) throws {
        #expect(try Self.rectangle(width: 30, height: 20).reaches(depth: depth) == reaches)
    }

    /// In the corner square of an L (arms 20 m wide), a point (x, x) from the outer corner is x from the
    /// outer edges and √2 (20 − x) from the inner corner: deepest where they meet, x = 20√2 / (1 + √2) = 11.716 m.
    @Test("An L whose arms are 20 m wide is 11.716 m deep, in its corner")
    func lShape() throws {
        let m = 1 / (Earth.radius * .pi / 180)  // degrees a metre at the equator
        let shape = try Shape.polygon(
            MultiPolygon([
                polygon([
                    [0, 0], [100 * m, 0], [100 * m, 20 * m], [20 * m, 20 * m],
                    [20 * m, 100 * m], [0, 100 * m], [0, 0],
                ])
            ]))
        #expect(shape.reaches(depth: 11.70) == true)
        #expect(shape.reaches(depth: 11.73) == false)
    }

    /// Walls 40 m wide around a 100 m hole: deepest in a corner, as in the L, 40√2 / (1 + √2) = 23.431 m.
    @Test("Walls 40 m wide around a hole are 23.431 m deep, in a corner; a country-sized square settles at once")
    func holeAndLarge() throws {
        let m = 1 / (Earth.radius * .pi / 180)
        let ring = try Shape.polygon(
            MultiPolygon([
                polygon(
                    [[0, 0], [180 * m, 0], [180 * m, 180 * m], [0, 180 * m], [0, 0]],
                    holes: [
                        [
                            [40 * m, 40 * m], [140 * m, 40 * m], [140 * m, 140 * m],
                            [40 * m, 140 * m], [40 * m, 40 * m],
                        ]
                    ])
            ]))
        #expect(ring.reaches(depth: 23.41) == true)
        #expect(ring.reaches(depth: 23.45) == false)
        let large = try Self.rectangle(width: 500_000, height: 300_000, latitude: 50)
        #expect(large.reaches(depth: 16, budget: 8) == true)
    }
}
