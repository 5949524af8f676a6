import Draws
import HeapModule

/// What a fence measures, for people checking a region file before a run (`perimeter inspect`): its
/// area, how deep its deepest point lies, the smallest circle holding it, and the gap to another fence.
/// Measured in the local plane at the shape's box centre (the plane SEMANTICS §3's distances use), which
/// for fences of metres to kilometres is the ground's own to a part in a million.
extension Shape {
    /// The area in square metres: πr² for a circle; for a polygon, its outer rings' areas less its holes'
    /// (the shoelace formula in the local plane). O(positions).
    public var area: Double {
        switch self {
        case let .circle(circle): return .pi * circle.radius * circle.radius
        case let .polygon(shape):
            let plane = LocalPlane(at: shape.bounds.centre)
            var total = 0.0
            for polygon in shape.polygons {
                for (index, ring) in polygon.rings.enumerated() {
                    let points = ring.map(plane.point)
                    var twice = 0.0
                    for i in 1..<points.count {
                        twice += points[i - 1].x * points[i].y - points[i].x * points[i - 1].y
                    }
                    total += (index == 0 ? 1 : -1) * abs(twice) / 2
                }
            }
            return max(0, total)
        }
    }

    /// The depth of its deepest point in metres (the largest distance from a point inside to the
    /// boundary, −d at the pole of inaccessibility): a circle's radius; for a polygon, the best-first cell
    /// search of `reaches(depth:)` run to the end, within `tolerance` metres below the true depth (or what
    /// it had found when `budget` distances were computed). O(budget × edges) at most.
    public func deepest(tolerance: Meters = 0.01, budget: Int = 20_000) -> Meters {
        let polygon: MultiPolygon
        switch self {
        case let .circle(circle): return circle.radius
        case let .polygon(shape): polygon = shape
        }
        let search = DepthSearch(polygon)
        var cells = Heap<DepthCell>()
        let root = search.root
        cells.insert(root)
        var best = root.depth
        var computed = 1
        while let cell = cells.popMax(), cell.potential > best + tolerance, computed + 4 <= budget {
            let hx = cell.halfLongitude / 2, hy = cell.halfLatitude / 2
            for (dx, dy) in [(-hx, -hy), (hx, -hy), (-hx, hy), (hx, hy)] {
                let child = search.cell(cell.longitude + dx, cell.latitude + dy, hx, hy)
                best = max(best, child.depth)
                if child.potential > best + tolerance { cells.insert(child) }
            }
            computed += 4
        }
        return max(0, best)
    }

    /// The radius in metres of the smallest circle holding the shape: a circle's own; for a polygon, the
    /// smallest circle holding its outer rings' positions (Welzl's algorithm, 1991, its points in a fixed
    /// shuffled order so that the answer is the same on every run). O(positions) expected.
    public var enclosingRadius: Meters {
        switch self {
        case let .circle(circle): return circle.radius
        case let .polygon(shape):
            let plane = LocalPlane(at: shape.bounds.centre)
            var points = shape.polygons.flatMap { $0.rings[0].dropLast().map(plane.point) }
            var random = SplitMix64(seed: 0x5EED)
            for i in stride(from: points.count - 1, to: 0, by: -1) {
                points.swapAt(i, Int(random.next() % UInt64(i + 1)))
            }
            return EnclosingCircle(points).radius
        }
    }

    /// The gap in metres between this shape's boundary and `other`'s where they are apart (0 when they
    /// touch or overlap): circle to circle by their centres; otherwise the least distance from a vertex of
    /// one to the other, or from a circle's centre less its radius, which is where the gap between two
    /// shapes apart lies. O(positions of both).
    public func gap(to other: Shape) -> Meters {
        switch (self, other) {
        case let (.circle(a), .circle(b)): return max(0, a.center.distance(to: b.center) - a.radius - b.radius)
        case let (.circle(a), .polygon(b)), let (.polygon(b), .circle(a)):
            return max(0, b.signedDistance(to: a.center) - a.radius)
        case let (.polygon(a), .polygon(b)):
            var least = Double.infinity
            for (from, to) in [(a, b), (b, a)] {
                for polygon in from.polygons {
                    for ring in polygon.rings {
                        for position in ring { least = min(least, to.signedDistance(to: position)) }
                    }
                }
            }
            return max(0, least)
        }
    }
}

extension BoundingBox {
    /// The middle of the box in degrees.
    public var centre: Coordinate {
        Coordinate(latitude: (minLatitude + maxLatitude) / 2, longitude: (minLongitude + maxLongitude) / 2)
    }
}

extension LocalPlane {
    /// A position in the plane, in metres east and north of its origin.
    func point(_ position: Coordinate) -> (x: Double, y: Double) {
        (
            (position.longitude - origin.longitude) * metersPerDegreeX,
            (position.latitude - origin.latitude) * metersPerDegreeY
        )
    }
}

/// The smallest circle holding points of the plane (Welzl 1991, the iterative form): O(points) expected
/// for points in random order.
struct EnclosingCircle {
    private(set) var x = 0.0, y = 0.0, radius = 0.0

    init(_ points: [(x: Double, y: Double)]) {
        guard let first = points.first else { return }
        (x, y, radius) = (first.x, first.y, 0)
        for i in points.indices where !holds(points[i]) {
            (x, y, radius) = (points[i].x, points[i].y, 0)
            for j in 0..<i where !holds(points[j]) {
                set(diameter: points[i], points[j])
                for k in 0..<j where !holds(points[k]) { set(through: points[i], points[j], points[k]) }
            }
        }
    }

    /// Whether the point is inside, with room for rounding.
    private func holds(_ p: (x: Double, y: Double)) -> Bool {
        let dx = p.x - x, dy = p.y - y
        return (dx * dx + dy * dy).squareRoot() <= radius * (1 + 1e-9) + 1e-9
    }

    private mutating func set(diameter a: (x: Double, y: Double), _ b: (x: Double, y: Double)) {
        (x, y) = ((a.x + b.x) / 2, (a.y + b.y) / 2)
        radius = ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() / 2
    }

    /// The circle through three points; for three on a line, the widest pair's.
    private mutating func set(through a: (x: Double, y: Double), _ b: (x: Double, y: Double), _ c: (x: Double, y: Double)) {
        let bx = b.x - a.x, by = b.y - a.y, cx = c.x - a.x, cy = c.y - a.y
        let d = 2 * (bx * cy - by * cx)
        guard abs(d) > 1e-12 * max(1, bx * bx + by * by + cx * cx + cy * cy) else {
            let pairs = [(a, c), (b, c)]
            let widest = pairs.reduce((a, b)) { best, pair in
                hypot2(best.0, best.1) < hypot2(pair.0, pair.1) ? pair : best
            }
            set(diameter: widest.0, widest.1)
            return
        }
        let b2 = bx * bx + by * by, c2 = cx * cx + cy * cy
        let ux = (cy * b2 - by * c2) / d, uy = (bx * c2 - cx * b2) / d
        (x, y, radius) = (a.x + ux, a.y + uy, (ux * ux + uy * uy).squareRoot())
    }
}

/// The squared distance between two points of the plane.
private func hypot2(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Double {
    (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)
}
