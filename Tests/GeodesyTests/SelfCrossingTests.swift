import Foundation
import Testing

@testable import Geodesy

/// A ring in (lon, lat) pairs (closed by the test) and where it first crosses itself.
struct CrossingCase: CustomTestStringConvertible, Sendable {
    var id: String
    var ring: [(Double, Double)]
    /// The two edges (by their first position), or nil for a simple ring.
    var crossing: (Int, Int)?
    var testDescription: String { id }
}

@Suite("Rings that cross themselves")
struct SelfCrossingTests {
    static let cases: [CrossingCase] = [
        .init(id: "square", ring: [(0, 0), (1, 0), (1, 1), (0, 1)], crossing: nil),
        .init(id: "triangle", ring: [(0, 0), (1, 0), (0, 1)], crossing: nil),
        .init(id: "bow-tie", ring: [(0, 0), (1, 1), (1, 0), (0, 1)], crossing: (0, 2)),
        .init(
            id: "square with repeated positions", ring: [(0, 0), (0, 0), (1, 0), (1, 1), (1, 1), (0, 1)],
            crossing: nil),
        .init(id: "concave, not crossing", ring: [(0, 0), (4, 0), (4, 4), (2, 1), (0, 4)], crossing: nil),
        .init(
            id: "figure eight touching at a vertex", ring: [(0, 0), (2, 2), (4, 0), (4, 4), (2, 2), (0, 4)],
            crossing: (0, 3)),
        .init(id: "vertex on another edge", ring: [(0, 0), (4, 0), (4, 4), (2, 0.0), (0, 4)], crossing: (0, 2)),
        .init(id: "collinear spike back along the next edge", ring: [(0, 0), (4, 0), (2, 0), (2, 2)], crossing: (0, 1)),
        .init(id: "straight on through a position", ring: [(0, 0), (2, 0), (4, 0), (4, 4)], crossing: nil),
        .init(
            id: "crossing near the antimeridian",
            ring: [(179, 0), (179.9, 1), (179.9, 0), (179, 1)], crossing: (0, 2)),
        .init(id: "nearly touching, 1e-12° apart", ring: [(0, 0), (4, 0), (4, 4), (2, 1e-12), (0, 4)], crossing: nil),
    ]

    @Test("the first crossing, or none", arguments: cases)
    func crossing(_ c: CrossingCase) throws {
        var positions = c.ring.map { Coordinate(latitude: $0.1, longitude: $0.0) }
        positions.append(positions[0])
        let found = try Polygon(rings: [positions]).firstSelfCrossing()
        #expect(found.map { [$0.ring, $0.first, $0.second] } == c.crossing.map { [0, $0.0, $0.1] })
    }

    @Test("a hole that crosses itself is found in its own ring")
    func hole() throws {
        let outer = [(0.0, 0.0), (10, 0), (10, 10), (0, 10), (0, 0)].map { Coordinate(latitude: $0.1, longitude: $0.0) }
        let hole = [(2.0, 2.0), (4, 4), (4, 2), (2, 4), (2, 2)].map { Coordinate(latitude: $0.1, longitude: $0.0) }
        #expect(try Polygon(rings: [outer, hole]).firstSelfCrossing() == RingCrossing(ring: 1, first: 0, second: 2))
    }

    @Test(
        "pair by pair and the sweep find the same first crossing, on random rings of 3 to 40 edges",
        arguments: 0..<4)
    func pairsAgreeWithSweep(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        var crossings = 0, simple = 0
        for _ in 0..<1_000 {
            let n = Int.random(in: 3...40, using: &rng)
            // Star-shaped (simple) or scattered (crossing) rings, on a coarse grid so that positions and
            // edges often fall on one another exactly.
            let star = Bool.random(using: &rng)
            var ring = (0..<n).map { k -> Coordinate in
                if star {
                    let angle = Double(k) / Double(n) * 2 * .pi, reach = Double.random(in: 1...4, using: &rng)
                    return Coordinate(latitude: reach * sin(angle), longitude: reach * cos(angle))
                }
                return Coordinate(
                    latitude: Double(Int.random(in: -4...4, using: &rng)) / 2,
                    longitude: Double(Int.random(in: -4...4, using: &rng)) / 2)
            }
            ring.append(ring[0])
            let pairs = Polygon.firstCrossingByPairs(ring), sweep = Polygon.firstCrossingBySweep(ring)
            #expect(pairs.map { [$0.0, $0.1] } == sweep.map { [$0.0, $0.1] }, "seed \(seed), ring \(ring)")
            if pairs == nil { simple += 1 } else { crossings += 1 }
        }
        #expect(crossings > 100 && simple > 100, "crossing \(crossings), simple \(simple)")
    }

    @Test("a ring of 100,000 edges is checked in a sweep, not pair by pair")
    func large() throws {
        // A circle-like ring: a sweep sees only neighbours, so this stays fast where n² = 10¹⁰ would not.
        let n = 100_000
        var ring = (0..<n).map { i -> Coordinate in
            let angle = Double(i) / Double(n) * 2 * Double.pi
            return Coordinate(latitude: sin(angle), longitude: cos(angle))
        }
        ring.append(ring[0])
        let clock = ContinuousClock.now
        #expect(try Polygon(rings: [ring]).firstSelfCrossing() == nil)
        // Measured (debug build): 0.4 s; a pairwise check would take hours.
        #expect(ContinuousClock.now - clock < .seconds(30))
    }
}
