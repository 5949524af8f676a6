/// Signed distance from a point to a polygon (SEMANTICS §3).
///
/// The distance is the shortest distance to any edge of any ring, measured in the local equirectangular
/// plane at the point: `x = R·Δlon·cos(lat_p)`, `y = R·Δlat` (radians, Δlon the short way round). Inside
/// is decided by the even–odd rule in (lon, lat); a point exactly on an edge is inside with d = 0.
extension Polygon {
    /// Negative inside, positive outside, zero on an edge; in metres. O(number of positions).
    public func signedDistance(to point: Coordinate) -> Meters {
        signedDistance(to: point, in: LocalPlane(at: point))
    }

    /// The same, in a plane already set up at `point`.
    /// (The rings are read through buffers: iterating the array, or reading it by index, copies each
    /// ring and so counts a reference on it, which every thread evaluating the polygon would share.)
    func signedDistance(to point: Coordinate, in plane: LocalPlane) -> Meters {
        rings.withUnsafeBufferPointer { rings in
            var polygon = PolygonDistance()
            for index in rings.indices {
                let scan = rings[index].withUnsafeBufferPointer { plane.scan(ring: $0, from: point) }
                if !polygon.add(scan) { break }
            }
            return polygon.meters
        }
    }

    /// True when `point` is inside or on the boundary (even–odd over the rings). O(positions).
    public func contains(_ point: Coordinate) -> Bool { signedDistance(to: point) <= 0 }
}

extension MultiPolygon {
    /// The minimum of `d` over its polygons (SEMANTICS §3, revision 2): negative inside any part, as deep
    /// as the deepest part; positive outside all, as far as the nearest part. When the parts neither
    /// overlap nor share edges this is the signed distance to the union's boundary. O(positions).
    public func signedDistance(to point: Coordinate) -> Meters {
        signedDistance(to: point, in: LocalPlane(at: point))
    }

    /// The same from a point whose latitude's cosine is computed (the plane is the same, bit for bit).
    public func signedDistance(to point: PreparedCoordinate) -> Meters {
        signedDistance(to: point.coordinate, in: LocalPlane(at: point.coordinate, cosLatitude: point.cosLatitude))
    }

    /// The minimum over the parts, read through a buffer (no reference counted per part).
    func signedDistance(to point: Coordinate, in plane: LocalPlane) -> Meters {
        polygons.withUnsafeBufferPointer { polygons in
            var best = Double.infinity
            for index in polygons.indices { best = min(best, polygons[index].signedDistance(to: point, in: plane)) }
            return best
        }
    }
}

/// The local equirectangular plane at a point p: `x = R·Δlon·cos(lat_p)`, `y = R·Δlat`, in metres.
struct LocalPlane {
    let origin: Coordinate
    let metersPerDegreeX: Double
    let metersPerDegreeY: Double

    init(at origin: Coordinate) { self.init(at: origin, cosLatitude: _cos(origin.latitude.radians)) }

    /// The plane at `origin`, whose latitude's cosine (`_cos` of its radians) is `cosLatitude`.
    init(at origin: Coordinate, cosLatitude: Double) {
        self.origin = origin
        self.metersPerDegreeY = Earth.radius * .pi / 180
        self.metersPerDegreeX = metersPerDegreeY * cosLatitude
    }

    enum RingScan {
        case onEdge
        case off(distance: Meters, crossesOddTimes: Bool)
    }

    /// One pass over a closed ring: the nearest edge in the plane, and the even–odd crossing parity of a
    /// ray from `point` toward +lon in raw (lon, lat). An edge through `point` exactly ends the scan.
    /// O(positions).
    func scan(ring: UnsafeBufferPointer<Coordinate>, from point: Coordinate) -> LocalPlane.RingScan {
        let px = point.longitude, py = point.latitude
        var bestSquared = Double.infinity
        var odd = false
        var a = ring[0]
        for i in 1..<ring.count {
            let b = ring[i]
            // Even–odd crossing and exact on-edge test, in raw (lon, lat).
            let ax = a.longitude, ay = a.latitude, bx = b.longitude, by = b.latitude
            // Both use the exact sign of the orientation of (a, b, p), so that they agree with each other and
            // with real arithmetic (a rounded cross product, or a rounded crossing abscissa, can put a point
            // 1e-10 m off an edge on it, or on the wrong side of it).
            let straddles = (ay > py) != (by > py)
            let inBox = min(ax, bx) <= px && px <= max(ax, bx) && min(ay, by) <= py && py <= max(ay, by)
            if straddles || inBox {
                let side = orientationSign(ax, ay, bx, by, px, py)
                if inBox && side == 0 { return .onEdge }
                // p is left of the upward edge (or right of the downward one): the +lon ray crosses it.
                if straddles && (side > 0) == (by > ay) { odd.toggle() }
            }
            // Distance in the local plane at p. The edge's first vertex goes the short way round; the
            // second follows the edge itself (no edge spans more than 180°).
            let dxA = shortWay(ax - px)
            let dxB = dxA + (bx - ax)
            let x1 = dxA * metersPerDegreeX, y1 = (ay - py) * metersPerDegreeY
            let x2 = dxB * metersPerDegreeX, y2 = (by - py) * metersPerDegreeY
            bestSquared = min(bestSquared, squaredDistanceFromOrigin(x1, y1, x2, y2))
            // dxB may leave [-180, 180]: the part of the edge past ±180 is nearer the other way round
            // (SEMANTICS: Δlon the short way for every point), so also measure the edge shifted by 360°.
            if dxB > 180 || dxB < -180 {
                let shift = (dxB > 0 ? -360 : 360) * metersPerDegreeX
                bestSquared = min(bestSquared, squaredDistanceFromOrigin(x1 + shift, y1, x2 + shift, y2))
            }
            a = b
        }
        return .off(distance: bestSquared.squareRoot(), crossesOddTimes: odd)
    }
}

/// d(p, polygon) from its rings' scans, one ring at a time (SEMANTICS §3): the nearest edge of any ring, negative
/// when the crossings of all rings are odd in total; zero as soon as one ring has `p` on an edge.
struct PolygonDistance {
    private var best = Double.infinity
    private var inside = false
    private var onEdge = false

    /// Takes one ring's scan; false when `p` is on an edge, and no further ring can change the result.
    @inline(__always)
    mutating func add(_ scan: LocalPlane.RingScan) -> Bool {
        switch scan {
        case .onEdge:
            onEdge = true
            return false
        case let .off(distance, crossesOddTimes):
            best = min(best, distance)
            if crossesOddTimes { inside.toggle() }
            return true
        }
    }

    /// Negative inside, positive outside, zero on an edge; in metres.
    var meters: Meters { onEdge ? 0 : inside ? -best : best }
}

/// A longitude difference brought into [-180, 180).
@inline(__always)
private func shortWay(_ delta: Degrees) -> Degrees {
    delta >= -180 && delta < 180 ? delta : normalizedLongitude(delta)
}

/// Squared distance from (0, 0) to the segment (x1, y1)–(x2, y2).
@inline(__always)
private func squaredDistanceFromOrigin(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
    let dx = x2 - x1, dy = y2 - y1
    let lengthSquared = dx * dx + dy * dy
    var t = lengthSquared > 0 ? -(x1 * dx + y1 * dy) / lengthSquared : 0
    t = min(1, max(0, t))
    let cx = x1 + t * dx, cy = y1 + t * dy
    return cx * cx + cy * cy
}

/// The exact sign of (bx − ax)(py − ay) − (by − ay)(px − ax): > 0 when p is left of the line a → b, 0 on it.
/// A floating-point filter (Shewchuk's ccwerrboundA) decides almost every call; the rest are evaluated
/// exactly with error-free transformations (two-diff, FMA two-product, grow-expansion).
@usableFromInline
func orientationSign(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ px: Double, _ py: Double) -> Int {
    let left = (bx - ax) * (py - ay), right = (by - ay) * (px - ax)
    let det = left - right
    let bound = 3.3306690738754716e-16 * (abs(left) + abs(right))
    if det > bound { return 1 }
    if -det > bound { return -1 }
    // Exact: each difference is hi + lo exactly; each product of two such is 4 exact two-products.
    func twoDiff(_ a: Double, _ b: Double) -> (Double, Double) {
        let x = a - b, bVirtual = a - x, aVirtual = x + bVirtual
        return (x, (a - aVirtual) + (bVirtual - b))
    }
    func twoSum(_ a: Double, _ b: Double) -> (Double, Double) {
        let x = a + b, bVirtual = x - a, aVirtual = x - bVirtual
        return (x, (a - aVirtual) + (b - bVirtual))
    }
    let d1 = twoDiff(bx, ax), d2 = twoDiff(py, ay), d3 = twoDiff(by, ay), d4 = twoDiff(px, ax)
    var terms: [Double] = []
    terms.reserveCapacity(16)
    for (u, v, sign) in [(d1, d2, 1.0), (d3, d4, -1.0)] {
        for x in [u.0, u.1] {
            for y in [v.0, v.1] {
                let product = x * y
                terms.append(sign * product)
                terms.append(sign * (-product).addingProduct(x, y))  // the product's rounding error, exactly
            }
        }
    }
    // Grow-expansion: keeps an exact, non-overlapping sum ordered by magnitude; its sign is that of its
    // largest (last) non-zero component.
    var expansion: [Double] = []
    expansion.reserveCapacity(32)
    for term in terms {
        var q = term
        for i in expansion.indices {
            let (sum, error) = twoSum(q, expansion[i])
            expansion[i] = error
            q = sum
        }
        expansion.append(q)
    }
    for component in expansion.reversed() where component != 0 { return component > 0 ? 1 : -1 }
    return 0
}
