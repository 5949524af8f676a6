import Analysis
import Geodesy
import Geofencing
import Testing

/// A compact event: `e("enter", 100)` is an enter of phone at cafe, 100 s after noon.
private func e(_ kind: String, _ seconds: Int64, device: String = "phone", region: String = "cafe",
               rule: String = "welcome") -> GeofenceEvent {
    let time = Timestamp(microsecondsSince1970: 1_452_427_200_000_000 + seconds * 1_000_000)  // 2016-01-10T12:00:00Z
    let detail: GeofenceEvent.Detail
    switch kind {
    case "enter": detail = .enter(crossedAt: time)
    case "exit": detail = .exit(crossedAt: time)
    case "dwell": detail = .dwell(rule: rule, ruleIndex: rule == "welcome" ? 0 : 1, duration: .seconds(10))
    case "visit": detail = .visit(arrival: time, departure: time)
    default: detail = .monitorStart
    }
    return GeofenceEvent(time: time, device: device, region: region, regionIndex: region == "cafe" ? 0 : 1,
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
    MatchingCase(id: "one enter, 20 s late", reference: [e("enter", 100)], profile: [e("enter", 120)],
                 delays: [20], spurious: []),
    MatchingCase(id: "early is a negative delay", reference: [e("exit", 100)], profile: [e("exit", 95)],
                 delays: [-5], spurious: []),
    MatchingCase(id: "a tie goes to the earliest", reference: [e("enter", 100)], profile: [e("enter", 90), e("enter", 110)],
                 window: 10, delays: [-10], spurious: [110]),
    MatchingCase(id: "exactly the window away is paired", reference: [e("enter", 100)], profile: [e("enter", 700)],
                 delays: [600], spurious: []),
    MatchingCase(id: "a second past the window is missed and spurious", reference: [e("enter", 100)],
                 profile: [e("enter", 701)], delays: [nil], spurious: [701]),
    MatchingCase(id: "two enters in one region, each its own", reference: [e("enter", 100), e("enter", 500)],
                 profile: [e("enter", 130), e("enter", 520)], delays: [30, 20], spurious: []),
    MatchingCase(id: "greedy: the first reference takes the only candidate", reference: [e("enter", 100), e("enter", 200)],
                 profile: [e("enter", 150)], window: 60, delays: [50, nil], spurious: []),
    MatchingCase(id: "a paired event is not paired twice", reference: [e("exit", 100), e("exit", 101)],
                 profile: [e("exit", 100)], delays: [0, nil], spurious: []),
    MatchingCase(id: "a dwell missed: the profile's rule differs", reference: [e("dwell", 100)],
                 profile: [e("dwell", 100, rule: "goodbye")], delays: [nil], spurious: [100]),
    MatchingCase(id: "another device or region is another key", reference: [e("enter", 100)],
                 profile: [e("enter", 100, device: "tablet"), e("enter", 100, region: "bar")], delays: [nil], spurious: [100, 100]),
    MatchingCase(id: "kinds are not mixed", reference: [e("enter", 100)], profile: [e("exit", 100)],
                 delays: [nil], spurious: [100]),
    MatchingCase(id: "visits and monitor events are not matched", reference: [e("monitor-start", 0), e("visit", 100)],
                 profile: [e("visit", 300)], delays: [], spurious: []),
    MatchingCase(id: "nothing on either side", reference: [], profile: [], delays: [], spurious: []),
    MatchingCase(id: "a window of zero pairs only equal times", reference: [e("enter", 100), e("exit", 200)],
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

    @Test func tallyCountsAndNearestRankDelays() {
        // Five enters 1, 2, 3, 4, 50 s late; one missed; one spurious exit.
        let reference = [100, 200, 300, 400, 500, 600].map { e("enter", Int64($0)) }
        let profile = [101, 202, 303, 404, 550].map { e("enter", Int64($0)) } + [e("exit", 900)]
        let matching = EventMatching(reference: reference, profile: profile, window: .seconds(60))
        let enter = matching.tally(.enter)
        #expect((enter.paired, enter.missed, enter.spurious) == (5, 1, 0))
        #expect(enter.median == .seconds(3))     // rank ⌈0.5 · 5⌉ = 3
        #expect(enter.p90 == .seconds(50))       // rank ⌈0.9 · 5⌉ = 5
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
