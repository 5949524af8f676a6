import Draws
import Foundation

@testable import Geodesy

/// Draws' SplitMix64, with the seed offset these tests' seeds were chosen with.
struct SeededGenerator: RandomNumberGenerator {
    private var base: SplitMix64
    init(seed: UInt64) { base = SplitMix64(seed: seed &+ 0x9E37_79B9_7F4A_7C15) }
    mutating func next() -> UInt64 { base.next() }
}

/// The fixture folder copied into the test bundle (`resources: [.copy("Fixtures")]`).
enum Fixtures {
    static func url(_ relativePath: String) -> URL {
        Bundle.module.resourceURL!.appendingPathComponent("Fixtures").appendingPathComponent(relativePath)
    }
    static func data(_ relativePath: String) -> Data {
        do { return try Data(contentsOf: url(relativePath)) } catch {
            fatalError("missing fixture \(relativePath): \(error)")
        }
    }
    static func text(_ relativePath: String) -> String { String(decoding: data(relativePath), as: UTF8.self) }
    static func json(_ relativePath: String) -> Any {
        do { return try JSONSerialization.jsonObject(with: data(relativePath)) } catch {
            fatalError("bad JSON in \(relativePath): \(error)")
        }
    }
}

/// Hand-written local-plane distance of SEMANTICS §3 from p to one point q, independent of the library.
func planeDistance(from p: Coordinate, to q: Coordinate) -> Double {
    let r = 6_371_008.8
    var dLon = q.longitude - p.longitude
    while dLon >= 180 { dLon -= 360 }
    while dLon < -180 { dLon += 360 }
    let x = r * dLon * .pi / 180 * cos(p.latitude * .pi / 180)
    let y = r * (q.latitude - p.latitude) * .pi / 180
    return (x * x + y * y).squareRoot()
}

/// Hand-written haversine (SEMANTICS §3), independent of the library.
func referenceHaversine(_ a: Coordinate, _ b: Coordinate) -> Double {
    let r = 6_371_008.8
    let p1 = a.latitude * .pi / 180, p2 = b.latitude * .pi / 180
    let dp = p2 - p1, dl = (b.longitude - a.longitude) * .pi / 180
    let h = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
    return 2 * r * asin(min(1, h.squareRoot()))
}

func polygon(_ lonLat: [[Double]], holes: [[[Double]]] = []) throws -> Geodesy.Polygon {
    let rings = ([lonLat] + holes).map { ring in ring.map { Coordinate(latitude: $0[1], longitude: $0[0]) } }
    return try Geodesy.Polygon(rings: rings)
}
