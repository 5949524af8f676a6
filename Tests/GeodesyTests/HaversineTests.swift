import Draws
import Foundation
import Testing

@testable import Geodesy

/// One line of Karney's GeodTest: `lat1 lon1 azi1 lat2 lon2 azi2 s12 a12 m12 S12` (WGS84 ellipsoid).
struct GeodLine: Sendable, CustomTestStringConvertible {
    var line: Int
    var lat1, lon1, lat2, lon2, s12: Double
    var testDescription: String { "GeodTest-short.every3rd.dat line \(line)" }
}

func geodLines() -> [GeodLine] {
    Fixtures.text("geodesic/GeodTest-short.every3rd.dat").split(separator: "\n").enumerated().map { n, text in
        let f = text.split(separator: " ").map { Double($0)! }
        return GeodLine(line: n + 1, lat1: f[0], lon1: f[1], lat2: f[3], lon2: f[4], s12: f[6])
    }
}

@Suite("Haversine distance (SEMANTICS §3)")
struct HaversineTests {
    static let r = 6_371_008.8

    /// GeodTest is ellipsoidal; the sphere differs from it by at most 0.56 % on this subset (MANIFEST), so the
    /// check is relative 0.6 % on every line. The exact spherical value is checked against an independent
    /// haversine written in the test.
    @Test("against Karney's GeodTest (3,334 lines): relative error ≤ 0.6 %")
    func geodTest() {
        let lines = geodLines()
        #expect(lines.count == 3_334)
        var worst = (error: 0.0, line: 0)
        for g in lines {
            let a = Coordinate(latitude: g.lat1, longitude: g.lon1), b = Coordinate(latitude: g.lat2, longitude: g.lon2)
            let d = a.distance(to: b)
            let error = abs(d - g.s12) / g.s12
            if error > worst.error { worst = (error, g.line) }
            #expect(error <= 0.006, "\(g.testDescription): haversine \(d) m vs s12 \(g.s12) m (\(error * 100) %)")
            let reference = referenceHaversine(a, b)
            #expect(
                abs(d - reference) <= 1e-9 * max(1, reference),
                "\(g.testDescription): \(d) vs independent haversine \(reference)")
        }
        print("Haversine vs GeodTest: worst relative error \(worst.error * 100) % on line \(worst.line)")
        #expect(worst.error > 0.005, "the worst line should be the MANIFEST's 0.56 %")
    }

    struct HandCase: Sendable, CustomTestStringConvertible {
        var name: String
        var a, b: Coordinate
        var metres: Double
        var tolerance: Double
        var testDescription: String { name }
    }

    static let handCases: [HandCase] = [
        HandCase(
            name: "one degree of the equator = R·π/180", a: Coordinate(latitude: 0, longitude: 0),
            b: Coordinate(latitude: 0, longitude: 1), metres: r * .pi / 180, tolerance: 1e-6),
        HandCase(
            name: "one degree of a meridian = R·π/180", a: Coordinate(latitude: 45, longitude: 7),
            b: Coordinate(latitude: 46, longitude: 7), metres: r * .pi / 180, tolerance: 1e-6),
        HandCase(
            name: "equator to pole = R·π/2", a: Coordinate(latitude: 0, longitude: 30),
            b: Coordinate(latitude: 90, longitude: -100), metres: r * .pi / 2, tolerance: 1e-6),
        HandCase(
            name: "antipodes on the equator = R·π", a: Coordinate(latitude: 0, longitude: 0),
            b: Coordinate(latitude: 0, longitude: 180), metres: r * .pi, tolerance: 1e-6),
        HandCase(
            name: "antipodes pole to pole = R·π", a: Coordinate(latitude: 90, longitude: 0),
            b: Coordinate(latitude: -90, longitude: 0), metres: r * .pi, tolerance: 1e-6),
        // asin near 1 amplifies rounding: sqrt(2·1e-16) rad ≈ 0.1 m at worst.
        HandCase(
            name: "antipodes (30, 40) / (-30, -140) = R·π", a: Coordinate(latitude: 30, longitude: 40),
            b: Coordinate(latitude: -30, longitude: -140), metres: r * .pi, tolerance: 0.2),
        HandCase(
            name: "same point = 0", a: Coordinate(latitude: 51.5, longitude: -0.12),
            b: Coordinate(latitude: 51.5, longitude: -0.12), metres: 0, tolerance: 0),
        HandCase(
            name: "across the antimeridian: 179.5 to -179.5 on the equator = R·π/180",
            a: Coordinate(latitude: 0, longitude: 179.5),
            b: Coordinate(latitude: 0, longitude: -179.5), metres: r * .pi / 180, tolerance: 1e-6),
        // Along the 60th parallel, 1° of longitude: haversine = 2R·asin(cos 60° · sin 0.5°).
        HandCase(
            name: "1° of longitude at 60° N = 2R·asin(cos60°·sin0.5°)", a: Coordinate(latitude: 60, longitude: 10),
            b: Coordinate(latitude: 60, longitude: 11), metres: 2 * r * asin(0.5 * sin(0.5 * .pi / 180)), tolerance: 1e-6),
    ]

    @Test("exact hand-computed distances", arguments: handCases)
    func hand(_ c: HandCase) {
        #expect(abs(c.a.distance(to: c.b) - c.metres) <= c.tolerance, "\(c.name): \(c.a.distance(to: c.b)) vs \(c.metres)")
        #expect(abs(c.b.distance(to: c.a) - c.metres) <= c.tolerance, "\(c.name), reversed")
    }

    /// The quiet windows measure with `distanceBound` (from their anchors, and between anchors): it must never fall below the haversine
    /// distance (beyond the haversine's own rounding, a few nanometres) (here over GeodTest's pairs, which reach the antipodes, and a million seeded steps of up to
    /// 20 km at every latitude and across the antimeridian), and stay within 10⁻⁵ of it for steps under 5 km up to 80° of latitude (where windows open).
    @Test("distanceBound is never below the haversine distance, and tight for short steps")
    func distanceBound() {
        // The haversine's own rounding: its latitudes in radians are a few ulps off, R · 2⁻⁵² ≈ 1.4 nm.
        let slack = 1e-8
        var failures: [String] = []
        for line in geodLines() {
            let a = PreparedCoordinate(Coordinate(latitude: line.lat1, longitude: line.lon1))
            let b = PreparedCoordinate(Coordinate(latitude: line.lat2, longitude: line.lon2))
            if a.distanceBound(to: b) < a.distance(to: b) - slack { failures.append("GeodTest line \(line.line)") }
        }
        let seed: UInt64 = 16
        var random = SplitMix64(seed: seed)
        var worstShort = 0.0
        for _ in 0..<1_000_000 {
            let from = Coordinate(
                latitude: .random(in: -90...90, using: &random), longitude: .random(in: -180...180, using: &random))
            let metres = Double.random(in: 0...20_000, using: &random)
            let to = from.offset(
                northMeters: metres * .random(in: -1...1, using: &random),
                eastMeters: metres * .random(in: -1...1, using: &random))
            let a = PreparedCoordinate(from), b = PreparedCoordinate(to)
            let exact = a.distance(to: b), bound = a.distanceBound(to: b)
            if bound < exact - slack { failures.append("seed \(seed): \(from) → \(to): \(bound) < \(exact)") }
            if exact > 1, exact < 5_000, abs(to.longitude - from.longitude) < 180, abs(from.latitude) <= 80 {
                worstShort = max(worstShort, bound / exact - 1)
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        #expect(worstShort < 1e-5, "worst relative excess \(worstShort)")
    }

    /// A quiet sample is told without a square root (`QuietWindow.holds(at:…)`): a spread under
    /// `nearSpreadLimit(below: d)` must give a bound under d, and the limit must give up little of d.
    @Test("a spread under nearSpreadLimit gives a bound under the distance, and the limit is tight")
    func nearSpreadLimit() {
        #expect(Coordinate.nearSpreadLimit(below: 0) < 0 && Coordinate.nearSpreadLimit(below: -.infinity) < 0)
        #expect(Coordinate.nearSpreadLimit(below: .infinity) == 1)  // every finite bound is below +∞
        let seed: UInt64 = 41
        var random = SplitMix64(seed: seed)
        var failures: [String] = []
        for _ in 0..<200_000 {
            let reach = exp(Double.random(in: log(0.001)...log(200_000), using: &random))
            let limit = Coordinate.nearSpreadLimit(below: reach)
            // Spreads at, just under and well under the limit, as the bound computes them.
            for s in [limit.nextDown, limit * (1 - 1e-12), limit * .random(in: 0...1, using: &random)] {
                let bound = Earth.radius * s.squareRoot() * (1 + s / 4)
                if !(bound < reach) { failures.append("seed \(seed): reach \(reach), s \(s): bound \(bound)") }
            }
            // Tight: the bound at the limit is short of the reach by a billionth and r⁴/8 (relative).
            let atLimit = Earth.radius * limit.squareRoot() * (1 + limit / 4)
            let r = reach / Earth.radius
            if atLimit < reach * (1 - 1e-9 - r * r * r * r / 8 - 1e-12) {
                failures.append("seed \(seed): reach \(reach) loses \(reach - atLimit) m")
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }

    @Test("Earth.radius is SEMANTICS' R")
    func radius() { #expect(Earth.radius == 6_371_008.8) }
}
