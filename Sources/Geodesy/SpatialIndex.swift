// CONTRACT: the API the engine uses. This body is a correct linear scan; an R-tree replaces it.

/// An index over the bounding boxes of a fixed list of items (regions), for exact k-nearest queries.
public struct SpatialIndex: Sendable {
    private let bounds: [BoundingBox]

    /// Builds the index over `bounds`; item i is `bounds[i]`.
    public init(bounds: [BoundingBox]) { self.bounds = bounds }

    public var count: Int { bounds.count }

    /// The `k` items with the smallest `distance(i)`, ties broken by the smaller index, in that order.
    ///
    /// `distance(i)` must be ≥ `bounds[i].lowerBoundDistance(from: point)` (the exact ranking distance
    /// of item i from `point`, in metres). The answer equals a full sort of all items by (distance, index).
    public func nearest(_ k: Int, to point: Coordinate, distance: (Int) -> Meters) -> [Int] {
        guard k > 0 else { return [] }
        let all = (0..<bounds.count).map { (distance($0), $0) }.sorted { $0 < $1 }
        return all.prefix(k).map(\.1)
    }
}
