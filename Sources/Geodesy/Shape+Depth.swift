import HeapModule

extension Shape {
    /// Whether some point lies `depth` metres or more inside the shape (d ≤ −depth, SEMANTICS §3): for a
    /// circle, whether its radius is that large; for a polygon, by a best-first search of its box in cells
    /// (the pole-of-inaccessibility search of Agafonkin's polylabel, 2016), each cell bounded above by its
    /// centre's depth plus its half-diagonal in metres (d moves by at most a metre a metre).
    ///
    /// Nil when the search cannot settle it: `budget` distances computed, or a cell smaller than
    /// `tolerance` metres whose bound still straddles `depth`. A nil never becomes a warning. Costs
    /// O(budget × edges) at most; a shape far deeper or far shallower than `depth` settles in a few cells.
    public func reaches(depth: Meters, tolerance: Meters = 0.01, budget: Int = 20_000) -> Bool? {
        let polygon: MultiPolygon
        switch self {
        case let .circle(circle): return circle.radius >= depth
        case let .polygon(shape): polygon = shape
        }
        let search = DepthSearch(polygon)
        var cells = Heap<DepthCell>()
        cells.insert(search.root)
        var computed = 1
        var undecided = false
        while let best = cells.popMax() {
            if best.potential < depth { break }  // no cell left can reach it
            if best.depth >= depth { return true }
            if best.halfDiagonal < tolerance {
                undecided = true
                continue
            }
            guard computed + 4 <= budget else { return nil }
            let hx = best.halfLongitude / 2, hy = best.halfLatitude / 2
            for (dx, dy) in [(-hx, -hy), (hx, -hy), (-hx, hy), (hx, hy)] {
                cells.insert(search.cell(best.longitude + dx, best.latitude + dy, hx, hy))
            }
            computed += 4
        }
        return undecided ? nil : false
    }
}

/// The cells of the depth search over a polygon's box: each cell's centre depth and its half-diagonal in
/// metres, an upper bound of how much deeper any point of it can be.
struct DepthSearch {
    let polygon: MultiPolygon
    /// Metres a degree: of latitude everywhere; of longitude at most that at the box's latitude nearest
    /// the equator, so that a cell's half-diagonal is never under-stated.
    private let metresPerDegree: Double
    private let metresPerDegreeX: Double

    init(_ polygon: MultiPolygon) {
        self.polygon = polygon
        let box = polygon.bounds
        metresPerDegree = Earth.radius * .pi / 180
        let nearestEquator = box.minLatitude > 0 ? box.minLatitude : (box.maxLatitude < 0 ? -box.maxLatitude : 0)
        metresPerDegreeX = metresPerDegree * _cos(nearestEquator * .pi / 180)
    }

    /// The cell covering the polygon's box.
    var root: DepthCell {
        let box = polygon.bounds
        return cell(
            (box.minLongitude + box.maxLongitude) / 2, (box.minLatitude + box.maxLatitude) / 2,
            (box.maxLongitude - box.minLongitude) / 2, (box.maxLatitude - box.minLatitude) / 2)
    }

    /// The cell centred at (`longitude`, `latitude`) with these half sizes in degrees; one distance computed.
    func cell(_ longitude: Degrees, _ latitude: Degrees, _ halfLongitude: Degrees, _ halfLatitude: Degrees) -> DepthCell {
        let inside = -polygon.signedDistance(to: Coordinate(latitude: latitude, longitude: longitude))
        let x = halfLongitude * metresPerDegreeX, y = halfLatitude * metresPerDegree
        let halfDiagonal = (x * x + y * y).squareRoot() * 1.01 + 1e-3  // room for the plane's rounding
        return DepthCell(
            longitude: longitude, latitude: latitude, halfLongitude: halfLongitude,
            halfLatitude: halfLatitude, depth: inside, halfDiagonal: halfDiagonal)
    }
}

/// A cell of the depth search: its centre and half sizes in degrees, its centre's depth (−d) and its
/// half-diagonal in metres; ordered by the most depth it may hold.
struct DepthCell: Comparable {
    var longitude: Degrees
    var latitude: Degrees
    var halfLongitude: Degrees
    var halfLatitude: Degrees
    var depth: Meters
    var halfDiagonal: Meters

    /// The most depth any point of the cell may have.
    var potential: Meters { depth + halfDiagonal }

    static func < (a: DepthCell, b: DepthCell) -> Bool { a.potential < b.potential }
    static func == (a: DepthCell, b: DepthCell) -> Bool { a.potential == b.potential }
}
