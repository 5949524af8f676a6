import Foundation
import Geodesy
import Testing

/// What `perimeter inspect` says of a fence (issue 42 item 6): its area, its deepest point's depth, its
/// smallest enclosing circle and the gap to another fence, against figures worked out by hand.
@Suite("A fence's measures")
struct ShapeMeasuresTests {
    static let centre = Coordinate(latitude: 38.71, longitude: -9.14)

    /// A ring of positions `(east, north)` metres from the centre, closed.
    static func ring(_ points: [(Double, Double)], at origin: Coordinate = centre) -> [Coordinate] {
        let ring = points.map { origin.offset(northMeters: $0.1, eastMeters: $0.0) }
        return ring + [ring[0]]
    }

    /// A `width` × `height` metres rectangle whose south-west corner is `east`, `north` metres from the centre.
    static func rectangle(_ width: Double, _ height: Double, east: Double = 0, north: Double = 0) -> [Coordinate] {
        ring([(east, north), (east + width, north), (east + width, north + height), (east, north + height)])
    }

    static func polygon(_ rings: [Coordinate]...) -> Shape {
        .polygon(try! MultiPolygon([try! Polygon(rings: rings)]))
    }

    static func circle(_ radius: Double, east: Double = 0) -> Shape {
        .circle(try! Circle(center: centre.offset(northMeters: 0, eastMeters: east), radius: radius))
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var id: String
        var shape: Shape
        var area: Double
        var depth: Double
        var enclosingRadius: Double
        var testDescription: String { id }
    }

    static let cases: [Case] = [
        Case(id: "circle of 10 m: πr², r, r", shape: circle(10), area: .pi * 100, depth: 10, enclosingRadius: 10),
        // A 30 × 20 m café: 10 m deep at its middle line; its corners √(15² + 10²) from the middle.
        Case(
            id: "30 × 20 m rectangle", shape: polygon(rectangle(30, 20)), area: 600, depth: 10,
            enclosingRadius: (15.0 * 15 + 10 * 10).squareRoot()),
        Case(
            id: "100 × 10 m strip", shape: polygon(rectangle(100, 10)), area: 1000, depth: 5,
            enclosingRadius: (50.0 * 50 + 5 * 5).squareRoot()),
        // A 100 m square with a 20 m hole in its middle: the deepest points lie on the diagonals, d from two
        // sides and √2 (40 − d) from the hole's corner: d = 40√2 / (1 + √2).
        Case(
            id: "100 m square with a 20 m hole", shape: polygon(rectangle(100, 100), rectangle(20, 20, east: 40, north: 40)),
            area: 10_000 - 400, depth: 40 * 2.0.squareRoot() / (1 + 2.0.squareRoot()),
            enclosingRadius: 50 * 2.0.squareRoot()),
        // A right triangle of legs 30 and 40: its enclosing circle's diameter is the hypotenuse (50 m), and
        // its deepest point the incircle's centre, r = (30 + 40 − 50) / 2.
        Case(
            id: "3-4-5 right triangle", shape: polygon(ring([(0, 0), (40, 0), (0, 30)])), area: 600, depth: 10,
            enclosingRadius: 25),
    ]

    @Test("Area, depth and enclosing radius, by hand", arguments: cases)
    func measures(_ c: Case) {
        #expect(abs(c.shape.area - c.area) <= c.area * 1e-4, "area \(c.shape.area)")
        #expect(abs(c.shape.deepest() - c.depth) <= 0.02, "depth \(c.shape.deepest())")
        #expect(abs(c.shape.enclosingRadius - c.enclosingRadius) <= 0.01, "radius \(c.shape.enclosingRadius)")
    }

    @Test("The deepest point agrees with reaches(depth:) on both sides", arguments: cases)
    func deepestAgreesWithReaches(_ c: Case) {
        let depth = c.shape.deepest()
        #expect(c.shape.reaches(depth: depth - 0.05) == true)
        // A strip's deepest points are a whole line, which the decision may leave unsettled (nil): never true.
        #expect(c.shape.reaches(depth: depth + 0.05) != true)
    }

    @Test(
        "The gap between two fences, by hand",
        arguments: [
            ("circles 100 m apart, radii 10 and 5", circle(10), circle(5, east: 100), 85.0),
            ("overlapping circles", circle(10), circle(10, east: 15), 0),
            ("squares side by side 50 m apart", polygon(rectangle(10, 10)), polygon(rectangle(10, 10, east: 60)), 50),
            ("a square and a circle 30 m east of its side", polygon(rectangle(10, 10, north: -5)), circle(5, east: 45), 30),
            ("a square inside another", polygon(rectangle(100, 100)), polygon(rectangle(10, 10, east: 40, north: 40)), 0),
        ] as [(String, Shape, Shape, Double)])
    func gap(_ id: String, _ a: Shape, _ b: Shape, _ expected: Double) {
        #expect(abs(a.gap(to: b) - expected) <= 0.01, "\(id): \(a.gap(to: b))")
        #expect(abs(b.gap(to: a) - expected) <= 0.01, "\(id), the other way: \(b.gap(to: a))")
    }

    @Test("Enclosing radius is the same whatever the order of the ring's positions (seeded rotations)")
    func enclosingRadiusIsOrderFree() {
        let points: [(Double, Double)] = (0..<24).map { k in
            let angle = Double(k) * .pi / 12
            let radius = k % 3 == 0 ? 40.0 : 25
            return (radius * cos(angle), radius * sin(angle))
        }
        let radii = (0..<24).map { shift in
            Self.polygon(Self.ring(Array(points[shift...] + points[..<shift]))).enclosingRadius
        }
        #expect(radii.allSatisfy { abs($0 - 40) < 0.01 }, "\(radii)")
    }
}
