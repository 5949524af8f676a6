import Foundation
import Testing

@testable import Geodesy

/// Random regions for the property tests: circles, polygons and points, crowded near the antimeridian,
/// the poles and in one small cluster (overlaps, distance-0 ties), with exact duplicates.
private struct RandomWorld {
    var rng: SeededGenerator

    enum Region {
        case shape(Shape)
        case point(Coordinate)

        var bounds: BoundingBox {
            switch self {
            case let .shape(shape): return shape.bounds
            case let .point(p): var box = BoundingBox.empty; box.extend(to: p); return box
            }
        }
        func distance(from p: Coordinate) -> Double {
            switch self {
            case let .shape(shape): return max(0, shape.signedDistance(to: p))
            case let .point(q): return p.distance(to: q)
            }
        }
    }

    mutating func unit() -> Double { Double.random(in: 0..<1, using: &rng) }

    /// A position in one of the zones: anywhere, near ±180°, near a pole, or in a 0.5° cluster.
    mutating func position() -> Coordinate {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0:
            return Coordinate(
                latitude: Double.random(in: -90...90, using: &rng),
                longitude: Double.random(in: -180...180, using: &rng))
        case 1:
            let lon = Double.random(in: 175...180, using: &rng)
            return Coordinate(latitude: Double.random(in: -60...60, using: &rng), longitude: unit() < 0.5 ? lon : -lon)
        case 2:
            let lat = Double.random(in: 85...90, using: &rng)
            return Coordinate(latitude: unit() < 0.5 ? lat : -lat, longitude: Double.random(in: -180...180, using: &rng))
        default:
            return Coordinate(
                latitude: Double.random(in: 10...10.5, using: &rng),
                longitude: Double.random(in: 20...20.5, using: &rng))
        }
    }

    mutating func region(previous: [Region]) -> Region {
        if !previous.isEmpty, unit() < 0.1 { return previous.randomElement(using: &rng)! }  // duplicate
        let c = position()
        switch Int.random(in: 0..<3, using: &rng) {
        case 0:
            let radius =
                unit() < 0.05 ? Double.random(in: 1e6...1.5e7, using: &rng) : Double.random(in: 10...50_000, using: &rng)
            return .shape(.circle(try! Circle(center: c, radius: radius)))
        case 1:
            // A rectangle or triangle within ±1° of c, clamped to the valid range (so it never crosses ±180).
            func clampLat(_ v: Double) -> Double { max(-90, min(90, v)) }
            func clampLon(_ v: Double) -> Double { max(-180, min(180, v)) }
            let h = Double.random(in: 0.001...1, using: &rng), w = Double.random(in: 0.001...1, using: &rng)
            let s = clampLat(c.latitude - h), n = clampLat(c.latitude + h)
            let west = clampLon(c.longitude - w), e = clampLon(c.longitude + w)
            let ring: [[Double]] =
                unit() < 0.5
                ? [[west, s], [e, s], [e, n], [west, n], [west, s]]
                : [[west, s], [e, s], [c.longitude, n], [west, s]]
            return .shape(.polygon(try! MultiPolygon([polygon(ring)])))
        default:
            return .point(c)
        }
    }

    mutating func query(near regions: [Region]) -> Coordinate {
        // Often exactly at a circle's centre or a point region: inside several overlapping regions.
        if !regions.isEmpty, unit() < 0.3 {
            switch regions.randomElement(using: &rng)! {
            case let .shape(.circle(circle)): return circle.center
            case let .point(p): return p
            case let .shape(.polygon(mp)): return mp.polygons[0].rings[0][0]
            }
        }
        return position()
    }
}

private func bruteForce(_ k: Int, count: Int, distance: (Int) -> Double) -> [Int] {
    guard k > 0 else { return [] }
    return (0..<count).map { (distance($0), $0) }.sorted { $0 < $1 }.prefix(k).map(\.1)
}

@Suite("SpatialIndex: R-tree k-nearest")
struct SpatialIndexTests {
    static let sizes = [0, 1, 2, 15, 16, 17, 50, 257, 1_000, 3_000]

    @Test("nearest equals a brute-force sort on random regions", arguments: 0..<40)
    func matchesBruteForce(seed: Int) {
        var world = RandomWorld(rng: SeededGenerator(seed: UInt64(seed)))
        let n = Self.sizes[seed % Self.sizes.count]
        var regions: [RandomWorld.Region] = []
        for _ in 0..<n { regions.append(world.region(previous: regions)) }
        let index = SpatialIndex(bounds: regions.map(\.bounds))
        #expect(index.count == n)
        for q in 0..<25 {
            let p = world.query(near: regions)
            let distances = regions.map { $0.distance(from: p) }
            for k in [0, 1, 20, n + 3, Int.random(in: 1...max(1, n), using: &world.rng)] {
                var calls = Set<Int>()
                var repeated = false
                let got = index.nearest(k, to: p) { i in
                    if !calls.insert(i).inserted { repeated = true }
                    return distances[i]
                }
                let expected = bruteForce(k, count: n) { distances[$0] }
                #expect(got == expected, "seed \(seed), query \(q) at \(p), k = \(k), n = \(n)")
                #expect(!repeated, "seed \(seed), query \(q): distance(i) called twice for one item")
            }
        }
    }

    /// Synthetic boxes, raw longitudes past ±180 and widths ≥ 360 included, with distances equal to the
    /// box bound, rounded up to 1,000 km (many exact ties), a rounding error below the bound, or random.
    @Test("nearest equals a brute-force sort on raw boxes with tied distances", arguments: 0..<30)
    func tiesOnRawBoxes(seed: Int) {
        var rng = SeededGenerator(seed: 1_000 + UInt64(seed))
        let n = Self.sizes[seed % Self.sizes.count]
        let boxes: [BoundingBox] = (0..<n).map { _ in
            let lat = Double.random(in: -90...90, using: &rng)
            let h = Double.random(in: 0...5, using: &rng)
            let lon = Double.random(in: -200...200, using: &rng)  // past ±180 on purpose
            let w =
                Int.random(in: 0..<20, using: &rng) == 0
                ? Double.random(in: 300...400, using: &rng)
                : Double.random(in: 0...30, using: &rng)
            return BoundingBox(
                minLatitude: max(-90, lat - h), maxLatitude: min(90, lat + h),
                minLongitude: lon - w / 2, maxLongitude: lon + w / 2)
        }
        let index = SpatialIndex(bounds: boxes)
        for q in 0..<25 {
            let p = Coordinate(
                latitude: Double.random(in: -90...90, using: &rng),
                longitude: Double.random(in: -180...180, using: &rng))
            let mode = q % 4
            let distances = boxes.map { box -> Double in
                let lb = box.lowerBoundDistance(from: p)
                switch mode {
                case 0: return lb
                case 1: return (lb / 1_000_000).rounded(.up) * 1_000_000  // coarse: many ties
                // A few ulps BELOW the bound, as real circle/polygon distances are where the bound is tight
                // (BoundingBoxTests): the index's slack must absorb it.
                case 2: return max(0, lb * (1 - 1e-12))
                default: return lb + Double(Int.random(in: 0..<3, using: &rng)) * 10_000
                }
            }
            for k in [0, 1, 20, n + 1] {
                let got = index.nearest(k, to: p) { distances[$0] }
                let expected = bruteForce(k, count: n) { distances[$0] }
                #expect(got == expected, "seed \(seed), query \(q) at \(p), mode \(mode), k = \(k), n = \(n)")
            }
        }
    }

    @Test("identical regions around the point come out by index")
    func duplicatesOrderedByIndex() throws {
        let circle = try Circle(center: Coordinate(latitude: 48.85, longitude: 2.35), radius: 500)
        // 40 copies interleaved with 40 far regions: the copies all have distance 0.
        var bounds: [BoundingBox] = []
        var distance: [Double] = []
        let p = Coordinate(latitude: 48.851, longitude: 2.351)
        for i in 0..<80 {
            if i % 2 == 0 {
                bounds.append(circle.bounds); distance.append(max(0, circle.signedDistance(to: p)))
            } else {
                let far = try Circle(center: Coordinate(latitude: -30, longitude: Double(i)), radius: 100)
                bounds.append(far.bounds); distance.append(max(0, far.signedDistance(to: p)))
            }
        }
        let index = SpatialIndex(bounds: bounds)
        #expect(index.nearest(20, to: p) { distance[$0] } == Array(stride(from: 0, to: 40, by: 2)))
        #expect(index.nearest(1, to: p) { distance[$0] } == [0])
        #expect(index.nearest(0, to: p) { distance[$0] } == [])
        #expect(index.nearest(500, to: p) { distance[$0] }.count == 80)
    }

    @Test("boxes crossing ±180 and covering every longitude are found")
    func antimeridianBoxes() throws {
        let east = try Circle(center: Coordinate(latitude: 0, longitude: 179.99), radius: 5_000)  // box past 180
        let west = try Circle(center: Coordinate(latitude: 0, longitude: -179.99), radius: 5_000)  // box past -180
        let cap = try Circle(center: Coordinate(latitude: 89.9, longitude: 0), radius: 50_000)  // all longitudes
        var shapes: [Circle] = []
        for i in 0..<200 {
            shapes.append(try Circle(center: Coordinate(latitude: -60 + Double(i) * 0.5, longitude: 0), radius: 100))
        }
        shapes += [east, west, cap]
        #expect(east.bounds.maxLongitude > 180 && west.bounds.minLongitude < -180)
        #expect(cap.bounds.maxLongitude - cap.bounds.minLongitude >= 360)
        let index = SpatialIndex(bounds: shapes.map(\.bounds))
        let d: (Coordinate) -> (Int) -> Double = { p in { max(0, shapes[$0].signedDistance(to: p)) } }
        // Just east of the antimeridian: the circle centred at 179.99 (west of it) covers it.
        let p = Coordinate(latitude: 0, longitude: -179.97)
        #expect(index.nearest(2, to: p, distance: d(p)) == [200, 201])
        #expect(
            index.nearest(
                1, to: Coordinate(latitude: 89.5, longitude: 120), distance: d(Coordinate(latitude: 89.5, longitude: 120)))
                == [202])
    }

    /// The point of the tree: at N = 100,000 a k = 20 query measures a few dozen items, not N.
    @Test("k = 20 at N = 100,000 calls distance for far fewer than 5 % of the items")
    func distanceCallsDoNotGrowWithN() throws {
        var rng = SeededGenerator(seed: 42)
        let n = 100_000
        let circles: [Circle] = try (0..<n).map { _ in
            let lat = asin(Double.random(in: -1...1, using: &rng)) * 180 / .pi  // uniform on the sphere
            return try Circle(
                center: Coordinate(latitude: lat, longitude: Double.random(in: -180..<180, using: &rng)),
                radius: Double.random(in: 50...2_000, using: &rng))
        }
        let index = SpatialIndex(bounds: circles.map(\.bounds))
        var counts: [Int] = []
        for q in 0..<40 {
            let p =
                q % 4 == 0
                ? circles[q].center  // inside a region
                : Coordinate(
                    latitude: asin(Double.random(in: -1...1, using: &rng)) * 180 / .pi,
                    longitude: Double.random(in: -180..<180, using: &rng))
            var calls = 0
            let got = index.nearest(20, to: p) { i in
                calls += 1; return max(0, circles[i].signedDistance(to: p))
            }
            counts.append(calls)
            #expect(calls < n / 20, "query \(q) at \(p) measured \(calls) of \(n)")
            if q < 5 {
                let expected = bruteForce(20, count: n) { max(0, circles[$0].signedDistance(to: p)) }
                #expect(got == expected, "query \(q) at \(p)")
            }
        }
        let mean = Double(counts.reduce(0, +)) / Double(counts.count)
        print(
            "SpatialIndex: N = \(n), k = 20: distance calls per query mean \(mean), max \(counts.max()!), min \(counts.min()!)"
        )
    }
}
