import Analysis
import Draws
import Foundation
import Geofencing
import Testing

/// The greedy pairing `perimeter compare` used before the alignment (each reference event, in time order,
/// took the earliest unpaired profile event within the window): the yardstick of the benchmark below.
/// O(n + m) per key but for profile events skipped inside one window. Pairs per reference time.
private func greedy(reference: [Int64], profile: [Int64], window: Int64) -> [Int?] {
    var paired = [Bool](repeating: false, count: profile.count)
    var cursor = 0
    return reference.map { r in
        while cursor < profile.count && (paired[cursor] || profile[cursor] < r - window) { cursor += 1 }
        var i = cursor
        while i < profile.count && profile[i] <= r + window {
            if !paired[i] {
                paired[i] = true
                return i
            }
            i += 1
        }
        return nil
    }
}

/// A fleet's keys, one (reference, profile) pair of time lists per device and region: a crossing every
/// 30 min over 8 h, each detected 0–60 s late, one in five with a flicker of three events 5 s apart a
/// few minutes before it (noisy fixes near the boundary). Seeded: the same fleet every time.
private func fleet(devices: Int, regions: Int) -> [([Int64], [Int64])] {
    var generator = SplitMix64(seed: 42)
    var keys: [([Int64], [Int64])] = []
    for _ in 0..<(devices * regions) {
        var reference: [Int64] = [], profile: [Int64] = []
        var t = Int64(generator.next() % 1_800) * 1_000_000
        while t < 8 * 3_600 * 1_000_000 {
            reference.append(t)
            if generator.next() % 5 == 0 {
                let flicker = t - Int64(60 + generator.next() % 240) * 1_000_000
                profile += [flicker, flicker + 5_000_000, flicker + 10_000_000]
            }
            profile.append(t + Int64(generator.next() % 60) * 1_000_000)
            t += Int64(1_500 + generator.next() % 600) * 1_000_000
        }
        keys.append((reference, profile.sorted()))
    }
    return keys
}

@Suite("The pairing's cost on a large fleet (PERIMETER_BENCHMARK=1)")
struct MatchingBenchmark {
    /// Times the greedy pairing and the alignment on 20,000 keys (5,000 devices × 4 regions, about
    /// 640,000 reference and 770,000 profile times) and prints the ratio. Not a check: a measurement.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PERIMETER_BENCHMARK"] == "1"))
    func alignmentAgainstGreedy() {
        let keys = fleet(devices: 5_000, regions: 4)
        let window: Int64 = 600_000_000
        let clock = ContinuousClock()
        var pairedGreedy = 0, pairedAligned = 0
        let greedyTime = clock.measure {
            for (r, p) in keys { pairedGreedy += greedy(reference: r, profile: p, window: window).compactMap { $0 }.count }
        }
        let alignedTime = clock.measure {
            for (r, p) in keys {
                pairedAligned += EventAlignment.align(reference: r, profile: p, window: window).compactMap { $0 }.count
            }
        }
        let times = keys.reduce(0) { $0 + $1.0.count + $1.1.count }
        print(
            "pairing benchmark: \(keys.count) keys, \(times) times; greedy \(greedyTime), alignment \(alignedTime), "
                + "ratio \(String(format: "%.2f", alignedTime / greedyTime)); paired \(pairedGreedy) and \(pairedAligned)")
    }
}
