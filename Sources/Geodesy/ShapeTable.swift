/// Shapes laid out flat for distances taken many times from many threads: each circle, and each polygon's
/// parts, rings and positions, in memory the table owns, read in place.
///
/// `Shape.signedDistance(to:)` reads a polygon through its arrays, and every array read counts a reference
/// on it; threads evaluating the same regions then share those counts, and their atomic updates, cache line
/// by cache line. The table holds only plain values, so a distance counts no reference at all. Distances are
/// bit-identical to `Shape.signedDistance(to:)`: the same scans of the same positions, in the same order.
///
/// Read-only once built; O(positions) memory.
public final class ShapeTable: @unchecked Sendable {
    // Safety: the buffers are written only by `init` and freed only by `deinit`; in between, only read.
    private let entries: UnsafeMutableBufferPointer<Entry>
    /// Each polygon part's rings: a range of `rings`.
    private let parts: UnsafeMutableBufferPointer<Range<Int>>
    /// Each ring's positions: a range of `positions`.
    private let rings: UnsafeMutableBufferPointer<Range<Int>>
    private let positions: UnsafeMutableBufferPointer<Coordinate>

    private enum Entry {
        case circle(Circle)
        /// A range of `parts`, and the box of all their positions (raw latitudes and longitudes).
        case polygon(Range<Int>, BoundingBox)
    }

    /// The table of `shapes`, in their order. O(positions).
    public init(_ shapes: [Shape]) {
        var entries: [Entry] = [], parts: [Range<Int>] = [], rings: [Range<Int>] = [], positions: [Coordinate] = []
        entries.reserveCapacity(shapes.count)
        for shape in shapes {
            switch shape {
            case let .circle(circle):
                entries.append(.circle(circle))
            case let .polygon(multiPolygon):
                let firstPart = parts.count
                for polygon in multiPolygon.polygons {
                    let firstRing = rings.count
                    for ring in polygon.rings {
                        rings.append(positions.count..<positions.count + ring.count)
                        positions.append(contentsOf: ring)
                    }
                    parts.append(firstRing..<rings.count)
                }
                entries.append(.polygon(firstPart..<parts.count, multiPolygon.bounds))
            }
        }
        self.entries = Self.owned(entries)
        self.parts = Self.owned(parts)
        self.rings = Self.owned(rings)
        self.positions = Self.owned(positions)
    }

    /// The number of shapes.
    public var count: Int { entries.count }

    /// d(p, shape number `index`) of SEMANTICS §3, in metres: negative inside, positive outside; equal to
    /// `shapes[index].signedDistance(to: point)`. O(1) for a circle, O(positions) for a polygon.
    @inline(__always)
    public func signedDistance(_ index: Int, to point: PreparedCoordinate) -> Meters {
        switch entries[index] {
        case let .circle(circle):
            return circle.signedDistance(to: point)
        case let .polygon(partRange, _):
            return polygonDistance(partRange, to: point)
        }
    }

    /// Bounds on d(p, shape number `index`) from a polygon's box alone, without its edges: nil for a circle,
    /// for `point` within the box's latitudes and longitudes, or for a box whose longitudes come within 1° of
    /// the far side of `point`'s meridian (there a position's Δlon may wrap). Otherwise `point` is outside
    /// the polygon and `lower ≤ d ≤ upper`: the plane of SEMANTICS §3 at `point` maps the box to a rectangle
    /// holding every edge, and d is the distance to the nearest edge, at most that to the farthest corner.
    /// Both bounds have room (1e-9 relative and 1 µm) for the rounding of either computation. O(1).
    @inline(__always)
    public func distanceBounds(_ index: Int, from point: PreparedCoordinate) -> (lower: Meters, upper: Meters)? {
        guard case let .polygon(_, box) = entries[index] else { return nil }
        let west = box.minLongitude - point.coordinate.longitude, east = box.maxLongitude - point.coordinate.longitude
        let south = box.minLatitude - point.coordinate.latitude, north = box.maxLatitude - point.coordinate.latitude
        guard west > -179, east < 179, west > 0 || east < 0 || south > 0 || north < 0 else { return nil }
        let plane = LocalPlane(at: point.coordinate, cosLatitude: point.cosLatitude)  // the scans' own metres a degree
        let gapX = max(0, west, -east) * plane.metersPerDegreeX, gapY = max(0, south, -north) * plane.metersPerDegreeY
        let farX = max(-west, east) * plane.metersPerDegreeX, farY = max(-south, north) * plane.metersPerDegreeY
        let bounds = (
            lower: (gapX * gapX + gapY * gapY).squareRoot() * (1 - 1e-9) - 1e-6,
            upper: (farX * farX + farY * farY).squareRoot() * (1 + 1e-9) + 1e-6
        )
        checkBounds(bounds, of: index, from: point)
        return bounds
    }

    /// With `PERIMETER_INVARIANTS` (`Scripts/invariants.sh`): `bounds` hold the exact distance (the lower
    /// bound at or below it, the upper at or above), a precondition failure naming the invariant otherwise.
    /// Without the flag, nothing: O(positions) with it.
    @inline(__always)
    func checkBounds(_ bounds: (lower: Meters, upper: Meters), of index: Int, from point: PreparedCoordinate) {
        #if PERIMETER_INVARIANTS
            let d = signedDistance(index, to: point)
            precondition(
                bounds.lower <= d && d <= bounds.upper,
                "ShapeTable invariant: the box's bounds hold the exact distance (\(bounds.lower) ≤ \(d) ≤ \(bounds.upper), shape \(index) from \(point.coordinate))"
            )
        #endif
    }

    /// The minimum over the parts (`MultiPolygon.signedDistance`), each part's rings scanned in order.
    private func polygonDistance(_ partRange: Range<Int>, to point: PreparedCoordinate) -> Meters {
        let plane = LocalPlane(at: point.coordinate, cosLatitude: point.cosLatitude)
        var best = Double.infinity
        for part in partRange {
            var polygon = PolygonDistance()
            for ring in parts[part] {
                let scan = plane.scan(ring: UnsafeBufferPointer(rebasing: positions[rings[ring]]), from: point.coordinate)
                if !polygon.add(scan) { break }
            }
            best = min(best, polygon.meters)
        }
        return best
    }

    private static func owned<Element>(_ elements: [Element]) -> UnsafeMutableBufferPointer<Element> {
        let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: elements.count)
        _ = buffer.initialize(from: elements)
        return buffer
    }

    deinit {
        entries.deinitialize().deallocate()
        parts.deinitialize().deallocate()
        rings.deinitialize().deallocate()
        positions.deinitialize().deallocate()
    }
}
