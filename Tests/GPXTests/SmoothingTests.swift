import Draws
import Geodesy
import Testing
import Time

@testable import GPX

/// The smoothing's moving median, kept sorted as the window moves, against the median of each window
/// sorted afresh (how `TrackSummary.smoothed` computed it before): the same lengths and speeds, bit for bit.
@Suite("TrackSummary smoothing")
struct SmoothingTests {
    /// The smoothed length and top speed with every window copied and sorted: the definition, O(n × w log w).
    static func reference(_ segments: [[TrackPoint]]) -> (length: Meters, maximumSpeed: Double?) {
        func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            let middle = sorted.count / 2
            return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        }
        let half = TrackSummary.medianHalfWindow
        var length: Meters = 0
        var fastest: Double?
        for segment in segments where segment.count > 1 {
            var kept: (coordinate: Coordinate, time: Timestamp?)?
            for i in segment.indices {
                let window = segment[max(0, i - half)...min(segment.count - 1, i + half)]
                let point = Coordinate(
                    latitude: median(window.map(\.coordinate.latitude)),
                    longitude: median(window.map(\.coordinate.longitude)))
                guard let last = kept else { kept = (point, segment[i].time); continue }
                let step = last.coordinate.distance(to: point)
                guard step >= TrackSummary.smoothingGate || i == segment.count - 1 else { continue }
                length += step
                if let t0 = last.time, let t1 = segment[i].time, t1 > t0 {
                    fastest = max(fastest ?? 0, step / (t1 - t0).seconds)
                }
                kept = (point, segment[i].time)
            }
        }
        return (length, fastest)
    }

    @Test("the same length and top speed as sorting every window, on 300 seeded tracks", arguments: UInt64(1)...300)
    func sameAsSortingEachWindow(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        // Few distinct values (repeats, both zeros) as well as many; segments shorter than the window too.
        let distinct = seed % 3 == 0 ? 4 : 1_000
        let segments: [[TrackPoint]] = (0..<Int.random(in: 1...4, using: &random)).map { _ in
            (0..<Int.random(in: 0...60, using: &random)).map { i in
                let north = Double(Int.random(in: 0..<distinct, using: &random)) * 7
                let east = Double(Int.random(in: 0..<distinct, using: &random)) * 5
                let origin =
                    seed % 5 == 0 ? Coordinate(latitude: 0, longitude: 0) : Coordinate(latitude: 52.5, longitude: 13.4)
                var coordinate = origin.offset(northMeters: north, eastMeters: east)
                if seed % 5 == 0, north == 0 { coordinate = Coordinate(latitude: -0.0, longitude: coordinate.longitude) }
                let time =
                    seed % 7 == 0 ? nil : Timestamp(microsecondsSince1970: 1_700_000_000_000_000 + Int64(i) * 1_000_000)
                return TrackPoint(coordinate: coordinate, time: time, elevation: nil, ordinal: i, line: i + 1, column: 1)
            }
        }
        let moving = TrackSummary.smoothed(segments), sorted = Self.reference(segments)
        #expect(
            moving.length.bitPattern == sorted.length.bitPattern, "seed \(seed): \(moving.length) ≠ \(sorted.length)")
        #expect(
            moving.maximumSpeed?.bitPattern == sorted.maximumSpeed?.bitPattern,
            "seed \(seed): \(String(describing: moving.maximumSpeed)) ≠ \(String(describing: sorted.maximumSpeed))")
    }

    @Test(
        "a sorted window's median, case by case",
        arguments: [
            ("one value", [3.0], [], 3.0),
            ("two values: their mean", [1.0, 4.0], [], 2.5),
            ("odd count: the middle one", [5.0, 1.0, 9.0, 7.0, 3.0], [], 5.0),
            ("repeats", [2.0, 2.0, 2.0, 8.0], [], 2.0),
            ("one of two equal values removed", [4.0, 4.0, 1.0], [4.0], 2.5),
            ("the smallest removed", [6.0, 1.0, 3.0], [1.0], 4.5),
        ])
    func median(id: String, inserted: [Double], removed: [Double], expected: Double) {
        var window = SortedWindow(capacity: 15)
        for value in inserted { window.insert(value) }
        for value in removed { window.remove(value) }
        #expect(window.median == expected, "\(id)")
    }
}
