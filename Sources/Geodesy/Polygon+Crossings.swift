/// Where a ring of a polygon crosses itself: two of its edges that are not neighbours and touch.
public struct RingCrossing: Hashable, Sendable {
    /// The ring (0: the outer ring).
    public var ring: Int
    /// The two edges, by the index of their first position; `first < second`.
    public var first: Int
    public var second: Int

    public init(ring: Int, first: Int, second: Int) {
        self.ring = ring
        self.first = first
        self.second = second
    }
}

extension Polygon {
    /// The first place where a ring crosses or touches itself, or nil when every ring is simple.
    ///
    /// The even–odd rule (SEMANTICS §3) still decides inside and outside of such a ring, but a bow-tie is
    /// most often a mistake (positions out of order), so loaders warn about it. Exact orientation tests
    /// in (lon, lat). O(n log n + k) per ring of n edges, k the pairs of edges whose longitude spans
    /// overlap (small for real polygons; n² at worst); rings of up to 32 edges pair by pair.
    public func firstSelfCrossing() -> RingCrossing? {
        for (r, ring) in rings.enumerated() {
            if let (a, b) = Self.firstCrossing(in: ring) { return RingCrossing(ring: r, first: a, second: b) }
        }
        return nil
    }

    /// The least pair of touching edges of one closed ring. A position repeated right after itself (common
    /// in real data) makes no edge: it is skipped, and the edges either side of it are neighbours. Edge
    /// indices are those of `positions`.
    private static func firstCrossing(in positions: [Coordinate]) -> (Int, Int)? {
        var ring: [Coordinate] = []
        var original: [Int] = []
        ring.reserveCapacity(positions.count)  // grown step by step, these took longer than the sweep
        original.reserveCapacity(positions.count)
        for (i, position) in positions.enumerated() where ring.last != position {
            ring.append(position)
            original.append(i)
        }
        guard let (a, b) = firstCrossing(simple: ring) else { return nil }
        return (original[a], original[b])
    }

    /// Rings of at most this many edges are checked pair by pair (`firstCrossingByPairs`): cheaper than
    /// sorting them (a 9-position polygon's sort cost more than its 36 pairs).
    static let pairwiseEdges = 32

    private static func firstCrossing(simple ring: [Coordinate]) -> (Int, Int)? {
        ring.count - 1 <= pairwiseEdges ? firstCrossingByPairs(ring) : firstCrossingBySweep(ring)
    }

    /// Every pair of edges whose longitude spans overlap, in order (edges with apart spans cannot touch):
    /// the first that touches is the least pair, the one the sweep finds. O(n²).
    static func firstCrossingByPairs(_ ring: [Coordinate]) -> (Int, Int)? {
        let count = ring.count - 1  // edges; the ring is closed
        guard count >= 3 else { return nil }
        for a in 0..<count {
            let aWest = min(ring[a].longitude, ring[a + 1].longitude), aEast = max(ring[a].longitude, ring[a + 1].longitude)
            for b in a + 1..<count
            where min(ring[b].longitude, ring[b + 1].longitude) <= aEast
                && aWest <= max(ring[b].longitude, ring[b + 1].longitude)
            {
                if edgesTouch(a, b, in: ring) { return (a, b) }
            }
        }
        return nil
    }

    /// Sort-and-sweep by least longitude: each edge against the edges after it in that order whose spans
    /// begin before its own ends; the least touching pair. O(n log n + k).
    static func firstCrossingBySweep(_ ring: [Coordinate]) -> (Int, Int)? {
        let count = ring.count - 1  // edges; the ring is closed
        guard count >= 3 else { return nil }
        let order = (0..<count).sorted {
            min(ring[$0].longitude, ring[$0 + 1].longitude) < min(ring[$1].longitude, ring[$1 + 1].longitude)
        }
        var found: (Int, Int)?
        for (position, i) in order.enumerated() {
            let maxLongitude = max(ring[i].longitude, ring[i + 1].longitude)
            for j in order[(position + 1)...] {
                if min(ring[j].longitude, ring[j + 1].longitude) > maxLongitude { break }
                let (a, b) = (min(i, j), max(i, j))
                if edgesTouch(a, b, in: ring), found.map({ (a, b) < $0 }) ?? true {
                    found = (a, b)
                }
            }
        }
        return found
    }

    /// Whether edges `a` < `b` of the closed ring touch. Neighbouring edges share a position (the first and
    /// last edges too: the ring closes); they cross only by doubling back along each other.
    private static func edgesTouch(_ a: Int, _ b: Int, in ring: [Coordinate]) -> Bool {
        if b == a + 1 { return doublesBack(ring[a], ring[b], ring[b + 1]) }
        if a == 0 && b == ring.count - 2 { return doublesBack(ring[b], ring[0], ring[1]) }
        return segmentsTouch(ring[a], ring[a + 1], ring[b], ring[b + 1])
    }
}

/// Whether segments pq and rs share at least one point, in (lon, lat), with exact orientation signs.
private func segmentsTouch(_ p: Coordinate, _ q: Coordinate, _ r: Coordinate, _ s: Coordinate) -> Bool {
    let d1 = orientationSign(r, s, p), d2 = orientationSign(r, s, q)
    let d3 = orientationSign(p, q, r), d4 = orientationSign(p, q, s)
    if d1 * d2 < 0 && d3 * d4 < 0 { return true }
    return (d1 == 0 && within(r, s, p)) || (d2 == 0 && within(r, s, q))
        || (d3 == 0 && within(p, q, r)) || (d4 == 0 && within(p, q, s))
}

private func orientationSign(_ a: Coordinate, _ b: Coordinate, _ p: Coordinate) -> Int {
    orientationSign(a.longitude, a.latitude, b.longitude, b.latitude, p.longitude, p.latitude)
}

/// Whether the path p → q → r turns back on itself along one line (a spike of zero width).
private func doublesBack(_ p: Coordinate, _ q: Coordinate, _ r: Coordinate) -> Bool {
    orientationSign(p, q, r) == 0 && (within(p, q, r) || within(q, r, p))
}

/// Whether `c`, collinear with ab, lies within ab's bounding box.
private func within(_ a: Coordinate, _ b: Coordinate, _ c: Coordinate) -> Bool {
    min(a.longitude, b.longitude) <= c.longitude && c.longitude <= max(a.longitude, b.longitude)
        && min(a.latitude, b.latitude) <= c.latitude && c.latitude <= max(a.latitude, b.latitude)
}
