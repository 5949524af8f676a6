import Foundation
import Testing

@testable import Geodesy

@Suite("BoundingBox.lowerBoundDistance")
struct BoundingBoxTests {
    /// A random box: latitudes within [-90, 90]; raw longitudes from -200 to 200 (past ±180, as a circle
    /// near the antimeridian gives); widths mostly small, sometimes ≥ 360 (covers all).
    static func randomBox(_ rng: inout SeededGenerator) -> BoundingBox {
        let a = Double.random(in: -90...90, using: &rng), b = Double.random(in: -90...90, using: &rng)
        let h = Double.random(in: 0..<1, using: &rng) < 0.5 ? abs(a - b) : Double.random(in: 0...2, using: &rng)
        let minLat = min(a, b), maxLat = min(90, minLat + h)
        let minLon = Double.random(in: -200...200, using: &rng)
        let width: Double
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: width = Double.random(in: 300...420, using: &rng)
        case 1: width = 0
        default: width = Double.random(in: 0...60, using: &rng)
        }
        return BoundingBox(minLatitude: minLat, maxLatitude: maxLat, minLongitude: minLon, maxLongitude: minLon + width)
    }

    static func randomPoint(_ rng: inout SeededGenerator, near box: BoundingBox) -> Coordinate {
        switch Int.random(in: 0..<3, using: &rng) {
        case 0:  // anywhere, uniform on the sphere
            return Coordinate(
                latitude: asin(Double.random(in: -1...1, using: &rng)) * 180 / .pi,
                longitude: Double.random(in: -180...180, using: &rng))
        case 1:  // near a pole
            let lat = Double.random(in: 80...90, using: &rng)
            return Coordinate(
                latitude: Bool.random(using: &rng) ? lat : -lat, longitude: Double.random(in: -180...180, using: &rng))
        default:  // near the box
            let lat = max(-90, min(90, Double.random(in: box.minLatitude - 5...box.maxLatitude + 5, using: &rng)))
            let lon = normalizedLongitude(Double.random(in: box.minLongitude - 10...box.maxLongitude + 10, using: &rng))
            return Coordinate(latitude: lat, longitude: lon)
        }
    }

    static func randomInside(_ rng: inout SeededGenerator, _ box: BoundingBox) -> Coordinate {
        let lat = Double.random(in: box.minLatitude...box.maxLatitude, using: &rng)
        let lon = Double.random(in: box.minLongitude...min(box.maxLongitude, box.minLongitude + 360), using: &rng)
        return Coordinate(latitude: lat, longitude: normalizedLongitude(lon))
    }

    @Test("bound ≤ haversine and ≤ local-plane distance to random points inside the box", arguments: 0..<20)
    func isALowerBound(seed: Int) {
        var rng = SeededGenerator(seed: 7_000 + UInt64(seed))
        var failures = 0
        for b in 0..<200 {
            let box = Self.randomBox(&rng)
            for _ in 0..<10 {
                let p = Self.randomPoint(&rng, near: box)
                let bound = box.lowerBoundDistance(from: p)
                #expect(bound >= 0 && bound.isFinite)
                for _ in 0..<10 {
                    let q = Self.randomInside(&rng, box)
                    let h = referenceHaversine(p, q), plane = planeDistance(from: p, to: q)
                    // Rounding slack only: 1e-9 relative + 1 µm.
                    if bound > h * (1 + 1e-9) + 1e-6 || bound > plane * (1 + 1e-9) + 1e-6, failures < 5 {
                        failures += 1
                        Issue.record(
                            "seed \(seed), box \(b) \(box), p \(p), q \(q): bound \(bound) > haversine \(h) or plane \(plane)"
                        )
                    }
                }
            }
        }
    }

    /// The gap as it was written before the remainder was skipped for differences already in [0, 360).
    static func referenceLongitudeGap(_ box: BoundingBox, _ p: Coordinate) -> Degrees {
        let width = box.maxLongitude - box.minLongitude
        if width >= 360 { return 0 }
        var d = (p.longitude - box.minLongitude).truncatingRemainder(dividingBy: 360)
        if d < 0 { d += 360 }
        if d <= width { return 0 }
        return min(d - width, 360 - d)
    }

    @Test(
        "the longitude gap equals the remainder's, bit for bit, at the edges of [0, 360) and at random",
        arguments: 0..<5)
    func longitudeGapWithoutRemainder(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let edges: [Double] = [0, -0.0, 360, -360, 359.99999999999994, -1e-300, 720, 540, -540, .ulpOfOne]
        for _ in 0..<2_000 {
            let box = Self.randomBox(&rng)
            let p = Coordinate(latitude: .random(in: -90...90, using: &rng), longitude: .random(in: -180..<180, using: &rng))
            let atEdge = Coordinate(latitude: p.latitude, longitude: box.minLongitude + edges.randomElement(using: &rng)!)
            for q in [p, atEdge] {
                let got = box.longitudeGap(from: q), want = Self.referenceLongitudeGap(box, q)
                if got.bitPattern != want.bitPattern {
                    Issue.record("seed \(seed), box \(box), p \(q): gap \(got), with the remainder \(want)")
                }
            }
        }
    }

    @Test("bound is 0 inside the box, across ±180 and for boxes covering all longitudes")
    func zeroInside() {
        let wraps = BoundingBox(minLatitude: -1, maxLatitude: 1, minLongitude: 179, maxLongitude: 181)
        #expect(wraps.lowerBoundDistance(from: Coordinate(latitude: 0, longitude: -179.5)) == 0)
        #expect(wraps.lowerBoundDistance(from: Coordinate(latitude: 0, longitude: 179.5)) == 0)
        #expect(wraps.lowerBoundDistance(from: Coordinate(latitude: 0, longitude: 180)) == 0)
        #expect(wraps.lowerBoundDistance(from: Coordinate(latitude: 0, longitude: -178)) > 0)
        let west = BoundingBox(minLatitude: -1, maxLatitude: 1, minLongitude: -185, maxLongitude: -175)
        #expect(west.lowerBoundDistance(from: Coordinate(latitude: 0, longitude: 177)) == 0)
        let all = BoundingBox(minLatitude: 10, maxLatitude: 20, minLongitude: -200, maxLongitude: 170)
        #expect(all.lowerBoundDistance(from: Coordinate(latitude: 15, longitude: 175)) == 0)
        let r = 6_371_008.8
        #expect(abs(all.lowerBoundDistance(from: Coordinate(latitude: 25, longitude: 0)) - r * 5 * .pi / 180) < 1e-6)
    }

    @Test("circle and polygon bounds: bound ≤ ranking distance", arguments: 0..<10)
    func shapesRespectTheBound(seed: Int) throws {
        var rng = SeededGenerator(seed: 9_000 + UInt64(seed))
        for _ in 0..<300 {
            let c = Coordinate(
                latitude: Double.random(in: -89.9...89.9, using: &rng), longitude: Double.random(in: -180...180, using: &rng)
            )
            let circle = try Circle(center: c, radius: Double.random(in: 1...3_000_000, using: &rng))
            let w = Double.random(in: 0.01...20, using: &rng), h = Double.random(in: 0.01...20, using: &rng)
            let s = max(-90, c.latitude - h), n = min(90, c.latitude + h)
            let west = max(-180, c.longitude - w), east = min(180, c.longitude + w)
            let poly = try polygon([[west, s], [east, s], [c.longitude, n], [west, s]])
            for _ in 0..<20 {
                let p = Self.randomPoint(&rng, near: circle.bounds)
                let dc = max(0, circle.signedDistance(to: p)), dp = max(0, poly.signedDistance(to: p))
                let bc = circle.bounds.lowerBoundDistance(from: p), bp = poly.bounds.lowerBoundDistance(from: p)
                #expect(bc <= dc * (1 + 1e-9) + 1e-6, "seed \(seed): circle \(circle) p \(p): bound \(bc) > \(dc)")
                #expect(bp <= dp * (1 + 1e-9) + 1e-6, "seed \(seed): polygon at \(c) p \(p): bound \(bp) > \(dp)")
            }
        }
    }
}
