import HeapModule

extension SpatialIndex {
    /// The `k` items with the smallest `distance(i)`, ties broken by the smaller index, in that order.
    ///
    /// `distance(i)` must be ≥ `lowerBoundDistance(from: point)` of item i's box (the exact ranking distance
    /// of item i from `point`, in metres). The answer equals a full sort of all items by (distance, index).
    ///
    /// Best-first search: a min-heap of entries ordered by (key, kind, id), where a node or a not yet
    /// measured item is keyed by the lower bound of its box and a measured item by its exact distance.
    /// Unmeasured entries sort before measured ones of the same key, so a measured item is only emitted
    /// when nothing left in the heap can hold an item of equal distance and a smaller index. `distance`
    /// is called only for items whose box bound is not beyond the k-th answer (each at most once).
    public func nearest(_ k: Int, to point: Coordinate, distance: (Int) -> Meters) -> [Int] {
        guard k > 0, !nodes.isEmpty else { return [] }
        var result: [Int] = []
        result.reserveCapacity(Swift.min(k, count))
        var heap = Heap<SearchEntry>()
        let cosLatitude = _cos(point.latitude.radians)  // once a query, not once a box
        func bound(_ box: BoundingBox) -> Meters { box.safeLowerBoundDistance(from: point, cosLatitude: cosLatitude) }
        heap.insert(SearchEntry(key: bound(nodes[root].box), kind: .node, id: root))
        while let entry = heap.popMin() {
            switch entry.kind {
            case .item:
                result.append(entry.id)
                if result.count == k { return result }
            case .unmeasuredItem:
                heap.insert(SearchEntry(key: distance(entry.id), kind: .item, id: entry.id))
            case .node:
                let node = nodes[entry.id]
                if node.isLeaf {
                    for slot in node.first..<node.first + node.count {
                        heap.insert(SearchEntry(key: bound(leafBounds[slot]), kind: .unmeasuredItem, id: leafItems[slot]))
                    }
                } else {
                    for child in node.first..<node.first + node.count {
                        heap.insert(SearchEntry(key: bound(nodes[child].box), kind: .node, id: child))
                    }
                }
            }
        }
        return result
    }
}

/// A heap entry of the best-first search, ordered by (key, kind, id).
struct SearchEntry: Comparable {
    enum Kind: UInt8, Comparable {
        /// A node: `id` indexes `nodes`; `key` is its box's lower bound.
        case node
        /// An item not yet measured: `key` is its box's lower bound.
        case unmeasuredItem
        /// A measured item: `key` is `distance(id)`.
        case item

        static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    var key: Meters
    var kind: Kind
    var id: Int

    static func < (a: SearchEntry, b: SearchEntry) -> Bool {
        if a.key != b.key { return a.key < b.key }
        if a.kind != b.kind { return a.kind < b.kind }
        return a.id < b.id
    }
}
