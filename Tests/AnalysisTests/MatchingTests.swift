import Analysis
import Draws
import Geodesy
import Geofencing
import Testing
import Time

/// A compact event: `e("enter", 100)` is an enter of phone at cafe, 100 s after noon.
private func e(
    _ kind: String, _ seconds: Int64, device: String = "phone", region: String = "cafe",
    rule: String = "welcome"
) -> GeofenceEvent {
    let time = Timestamp(microsecondsSince1970: 1_452_427_200_000_000 + seconds * 1_000_000)  // 2016-01-10T12:00:00Z
    let detail: GeofenceEvent.Detail
    switch kind {
    case "enter": detail = .enter(crossedAt: time)
    case "exit": detail = .exit(crossedAt: time)
    case "dwell": detail = .dwell(rule: rule, ruleIndex: rule == "welcome" ? 0 : 1, duration: .seconds(10))
    case "visit": detail = .visit(arrival: time, departure: time)
    default: detail = .monitorStart
    }
    return GeofenceEvent(
        time: time, device: device, region: region, regionIndex: region == "cafe" ? 0 : 1,
        coordinate: Coordinate(latitude: 0, longitude: 0), distance: 0, detail: detail)
}

/// One hand-made case: reference and profile logs (each in time order), the window, and what must come
/// out: each reference event's delay in seconds (nil: missed), and the spurious profile times.
struct MatchingCase: CustomStringConvertible, Sendable {
    let id: String
    let reference: [GeofenceEvent]
    let profile: [GeofenceEvent]
    var window: Int64 = 600
    let delays: [Int64?]
    let spurious: [Int64]
    var description: String { id }
}

let matchingCases: [MatchingCase] = [
    MatchingCase(
        id: "one enter, 20 s late", reference: [e("enter", 100)], profile: [e("enter", 120)],
        delays: [20], spurious: []),
    MatchingCase(
        id: "early is a negative delay", reference: [e("exit", 100)], profile: [e("exit", 95)],
        delays: [-5], spurious: []),
    MatchingCase(
        id: "a tie goes to the earliest", reference: [e("enter", 100)], profile: [e("enter", 90), e("enter", 110)],
        window: 10, delays: [-10], spurious: [110]),
    MatchingCase(
        id: "exactly the window away is paired", reference: [e("enter", 100)], profile: [e("enter", 700)],
        delays: [600], spurious: []),
    MatchingCase(
        id: "a second past the window is missed and spurious", reference: [e("enter", 100)],
        profile: [e("enter", 701)], delays: [nil], spurious: [701]),
    MatchingCase(
        id: "two enters in one region, each its own", reference: [e("enter", 100), e("enter", 500)],
        profile: [e("enter", 130), e("enter", 520)], delays: [30, 20], spurious: []),
    // 100↔150 and 200↔150 both cost 50 + 60: the tie goes to the sequence (0, unpaired) over (unpaired, 0).
    MatchingCase(
        id: "a tie between two references: the first takes the only candidate",
        reference: [e("enter", 100), e("enter", 200)],
        profile: [e("enter", 150)], window: 60, delays: [50, nil], spurious: []),
    // 100↔190 costs 90 + 100, 200↔190 costs 10 + 100: the nearer reference event wins (greedy took the first).
    MatchingCase(
        id: "one profile event between two references goes to the nearer", reference: [e("exit", 100), e("exit", 200)],
        profile: [e("exit", 190)], window: 100, delays: [nil, -10], spurious: []),
    // 95, 150, 205 against 100, 200 (window 60): {100↔95, 200↔205} costs 5 + 5 + 60 (150 unpaired); the
    // greedy {100↔95, 200↔150} cost 5 + 50 + 60.
    MatchingCase(
        id: "a block of three: the two near ones are paired, the middle one spurious",
        reference: [e("enter", 100), e("enter", 200)], profile: [e("enter", 95), e("enter", 150), e("enter", 205)],
        window: 60, delays: [-5, 5], spurious: [150]),
    // The true exit at 10:00 (−7200 s from noon), flicker exits at 09:55:00 and 09:55:05 with enters
    // between, and an exit at 10:00:20. Exits: 10:00:20 costs 20 + 2 × 600, 09:55:05 costs 295 + 2 × 600,
    // 09:55:00 costs 300 + 2 × 600: 10:00:20 is paired. Enters: the true one at 09:30 (−9000) pairs with
    // 09:30:10; those at 09:55:02 and 09:55:10 are 1502 s and more away, past the window: spurious.
    MatchingCase(
        id: "flicker: the exit 20 s late is paired, the early flickers are spurious",
        reference: [e("enter", -9000), e("exit", -7200)],
        profile: [
            e("enter", -8990), e("exit", -7500), e("enter", -7498), e("exit", -7495), e("enter", -7490),
            e("exit", -7180),
        ],
        delays: [10, 20], spurious: [-7500, -7498, -7495, -7490]),
    // Two keys' blocks apart (gap 1000 s > window): each aligned alone.
    MatchingCase(
        id: "blocks apart are aligned alone", reference: [e("enter", 0), e("enter", 1000)],
        profile: [e("enter", 30), e("enter", 990), e("enter", 1010)], window: 60, delays: [30, -10], spurious: [1010]),
    MatchingCase(
        id: "a paired event is not paired twice", reference: [e("exit", 100), e("exit", 101)],
        profile: [e("exit", 100)], delays: [0, nil], spurious: []),
    MatchingCase(
        id: "a dwell missed: the profile's rule differs", reference: [e("dwell", 100)],
        profile: [e("dwell", 100, rule: "goodbye")], delays: [nil], spurious: [100]),
    MatchingCase(
        id: "another device or region is another key", reference: [e("enter", 100)],
        profile: [e("enter", 100, device: "tablet"), e("enter", 100, region: "bar")], delays: [nil], spurious: [100, 100]),
    MatchingCase(
        id: "kinds are not mixed", reference: [e("enter", 100)], profile: [e("exit", 100)],
        delays: [nil], spurious: [100]),
    MatchingCase(
        id: "visits and monitor events are not matched", reference: [e("monitor-start", 0), e("visit", 100)],
        profile: [e("visit", 300)], delays: [], spurious: []),
    MatchingCase(id: "nothing on either side", reference: [], profile: [], delays: [], spurious: []),
    MatchingCase(
        id: "a window of zero pairs only equal times", reference: [e("enter", 100), e("exit", 200)],
        profile: [e("enter", 100), e("exit", 201)], window: 0, delays: [0, nil], spurious: [201]),
]

@Suite("Pairing a profile's events with the reference's")
struct MatchingTests {
    @Test(arguments: matchingCases)
    func pairs(_ c: MatchingCase) {
        let matching = EventMatching(reference: c.reference, profile: c.profile, window: .seconds(c.window))
        #expect(matching.pairs.map { $0.delay.map { $0.microseconds / 1_000_000 } } == c.delays)
        #expect(matching.pairs.map(\.reference) == c.reference.filter { EventMatching.kinds.contains($0.kind) }.map(\.time))
        let noon: Int64 = 1_452_427_200_000_000
        #expect(matching.spurious.map { ($0.time.microsecondsSince1970 - noon) / 1_000_000 } == c.spurious)
    }

    /// Every order-preserving pairing of small random cases, enumerated: `EventAlignment` must find the
    /// least cost and, of equal costs, the lexicographically smallest profile indices.
    @Test(arguments: 0..<200)
    func alignmentIsTheEnumeratedOptimum(seed: Int) {
        var generator = SplitMix64(seed: UInt64(seed))
        let window = Int64(generator.next() % 40)
        let r = (0..<Int(generator.next() % 5)).map { _ in Int64(generator.next() % 100) }.sorted()
        let p = (0..<Int(generator.next() % 6)).map { _ in Int64(generator.next() % 100) }.sorted()
        // Every alignment as (cost, the profile index per reference, Int.max for unpaired).
        func all(_ i: Int, _ j: Int) -> [(Int64, [Int])] {
            if i == r.count { return [(window * Int64(p.count - j), [])] }
            var out = all(i + 1, j).map { ($0.0 + window, [Int.max] + $0.1) }
            for k in j..<p.count where abs(r[i] - p[k]) <= window {
                out += all(i + 1, k + 1).map { ($0.0 + abs(r[i] - p[k]) + window * Int64(k - j), [k] + $0.1) }
            }
            return out
        }
        let best = all(0, 0).min { a, b in a.0 != b.0 ? a.0 < b.0 : a.1.lexicographicallyPrecedes(b.1) }!
        let got = EventAlignment.align(reference: r, profile: p, window: window)
        #expect(got.map { $0 ?? Int.max } == best.1, "r \(r) p \(p) window \(window)")
    }

    @Test func tallyCountsAndNearestRankDelays() {
        // Five enters 1, 2, 3, 4, 50 s late; one missed; one spurious exit.
        let reference = [100, 200, 300, 400, 500, 600].map { e("enter", Int64($0)) }
        let profile = [101, 202, 303, 404, 550].map { e("enter", Int64($0)) } + [e("exit", 900)]
        let matching = EventMatching(reference: reference, profile: profile, window: .seconds(60))
        let enter = matching.tally(.enter)
        #expect((enter.paired, enter.missed, enter.spurious) == (5, 1, 0))
        #expect(enter.median == .seconds(3))  // rank ⌈0.5 · 5⌉ = 3
        #expect(enter.p90 == .seconds(50))  // rank ⌈0.9 · 5⌉ = 5
        #expect(enter.max == .seconds(50))
        let exit = matching.tally(.exit)
        #expect((exit.paired, exit.missed, exit.spurious) == (0, 0, 1))
        #expect(exit.median == nil && exit.p90 == nil && exit.max == nil)
    }
}

@Suite("Nearest-rank percentiles")
struct NearestRankTests {
    @Test(arguments: [
        (percent: 50, values: [Int](), expected: Int?.none),
        (50, [7], 7), (5, [7], 7), (95, [7], 7),
        (50, [1, 2], 1), (51, [1, 2], 2), (100, [1, 2], 2),
        (5, Array(1...10), 1), (50, Array(1...10), 5), (90, Array(1...10), 9), (95, Array(1...10), 10),
        (5, Array(1...100), 5), (95, Array(1...100), 95), (50, Array(1...101), 51),
    ])
    func percentile(percent: Int, values: [Int], expected: Int?) {
        #expect(NearestRank.percentile(percent, of: values) == expected)
    }
}
