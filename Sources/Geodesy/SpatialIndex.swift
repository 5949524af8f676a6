// CONTRACT: the API the engine uses (`init(bounds:)`, `count`, `nearest(_:to:distance:)`).
//
// The body is a static R-tree: Sort-Tile-Recursive bulk load with a fan-out of 16, searched best-first
// (see SpatialIndex+Nearest.swift). Building is O(N log N); a query reaches only the items whose boxes
// are not farther than the k-th answer, so its cost does not grow with N for a fixed k.

/// An index over the bounding boxes of a fixed list of items (regions), for exact k-nearest queries.
public struct SpatialIndex: Sendable {
    /// The most children a node has.
    static let fanout = 16

    /// One node of the tree. A leaf's children are `leafItems[first ..< first + count]` (item indices);
    /// an internal node's children are `nodes[first ..< first + count]`.
    struct Node: Sendable {
        /// A superset of the children's boxes: plain min/max of their raw numbers (a width ≥ 360 covers all).
        var box: BoundingBox
        var first: Int
        var count: Int
        var isLeaf: Bool
    }

    /// The number of items.
    public let count: Int
    /// Item indices in leaf order: each leaf covers a contiguous run.
    let leafItems: [Int]
    /// `leafBounds[slot]` is the box of item `leafItems[slot]`: a leaf's boxes side by side. A query reads
    /// the boxes of the leaves it opens; read through the items' own order they were a cache miss each
    /// (over half of a query's time at 100,000 regions).
    let leafBounds: [BoundingBox]
    /// All nodes; every internal node's children are contiguous. Empty when there are no items.
    let nodes: [Node]
    /// The root's index in `nodes` (meaningless when `nodes` is empty).
    let root: Int

    /// Builds the index over `bounds`; item i is `bounds[i]`. O(N log N).
    public init(bounds: [BoundingBox]) {
        count = bounds.count
        guard !bounds.isEmpty else {
            self.leafItems = []
            self.leafBounds = []
            self.nodes = []
            self.root = 0
            return
        }
        // Leaves: tile the items; each leaf's items are a contiguous run of `leafItems`.
        var leafItems: [Int] = []
        leafItems.reserveCapacity(bounds.count)
        var level: [Node] = []
        for group in Self.sortTileRecursive(Array(bounds.indices), box: { bounds[$0] }) {
            var box = BoundingBox.empty
            for item in group { box.extend(to: bounds[item]) }
            level.append(Node(box: box, first: leafItems.count, count: group.count, isLeaf: true))
            leafItems.append(contentsOf: group)
        }
        // Upper levels: tile the level below and reorder it group by group, so that every parent's
        // children are a contiguous run of that level. `first` of a parent indexes the level below.
        var levels: [[Node]] = []
        while level.count > 1 {
            let below = level
            var reordered: [Node] = []
            reordered.reserveCapacity(below.count)
            var parents: [Node] = []
            for group in Self.sortTileRecursive(Array(below.indices), box: { below[$0].box }) {
                var box = BoundingBox.empty
                let first = reordered.count
                for child in group {
                    box.extend(to: below[child].box)
                    reordered.append(below[child])
                }
                parents.append(Node(box: box, first: first, count: group.count, isLeaf: false))
            }
            levels.append(reordered)
            level = parents
        }
        levels.append(level)  // the root alone
        // Lay the levels out root first; turn each internal node's `first` into an index of `nodes`.
        var nodes: [Node] = []
        nodes.reserveCapacity(levels.reduce(0) { $0 + $1.count })
        var offsets = [Int](repeating: 0, count: levels.count)
        var offset = 0
        for l in stride(from: levels.count - 1, through: 0, by: -1) {
            offsets[l] = offset
            offset += levels[l].count
        }
        for l in stride(from: levels.count - 1, through: 0, by: -1) {
            for var node in levels[l] {
                if !node.isLeaf { node.first += offsets[l - 1] }
                nodes.append(node)
            }
        }
        self.leafItems = leafItems
        self.leafBounds = leafItems.map { bounds[$0] }
        self.nodes = nodes
        self.root = 0
    }

    /// Sort-Tile-Recursive grouping: sort by box centre longitude, cut into ⌈√P⌉ vertical slices
    /// (P = ⌈n / fanout⌉ groups), sort each slice by centre latitude and cut it into runs of `fanout`.
    static func sortTileRecursive(_ ids: [Int], box: (Int) -> BoundingBox) -> [[Int]] {
        let n = ids.count
        let m = fanout
        guard n > m else { return [ids] }
        func center(_ id: Int) -> (lon: Double, lat: Double) {
            let b = box(id)
            let lon = (b.minLongitude + b.maxLongitude) / 2, lat = (b.minLatitude + b.maxLatitude) / 2
            return (lon.isFinite ? lon : 0, lat.isFinite ? lat : 0)
        }
        let keyed = ids.map { (id: $0, c: center($0)) }
        let byLon = keyed.sorted { ($0.c.lon, $0.id) < ($1.c.lon, $1.id) }
        let groupCount = (n + m - 1) / m
        let slices = Int(Double(groupCount).squareRoot().rounded(.up))
        let sliceSize = slices * m
        var groups: [[Int]] = []
        groups.reserveCapacity(groupCount)
        var start = 0
        while start < n {
            let slice = byLon[start..<min(n, start + sliceSize)].sorted { ($0.c.lat, $0.id) < ($1.c.lat, $1.id) }
            var s = 0
            while s < slice.count {
                groups.append(slice[s..<min(slice.count, s + m)].map(\.id))
                s += m
            }
            start += sliceSize
        }
        return groups
    }
}
