import Analysis
import Geodesy
import Geofencing
import Testing

private let noon: Int64 = 1_452_427_200_000_000

private func event(_ kind: GeofenceEvent.Kind, _ seconds: Int64, region: String = "cafe") -> GeofenceEvent {
    let time = Timestamp(microsecondsSince1970: noon + seconds * 1_000_000)
    let detail: GeofenceEvent.Detail = kind == .enter ? .enter(crossedAt: time) : kind == .exit ? .exit(crossedAt: time) : .monitorStart
    return GeofenceEvent(time: time, device: "phone", region: region, regionIndex: region == "cafe" ? 0 : 1,
                         coordinate: Coordinate(latitude: 0, longitude: 0), distance: 0, detail: detail)
}

private func seconds(_ t: Timestamp) -> Int64 { (t.microsecondsSince1970 - noon) / 1_000_000 }

@Suite("The spread of a Monte Carlo batch")
struct EventSpreadTests {
    @Test func sharesAndQuantilesByKeyAndOccurrence() {
        var spread = EventSpread()
        // Four runs: an enter in every run (at 10, 20, 30, 40 s), a second enter in two, an exit in one.
        spread.add(run: [event(.enter, 10), event(.enter, 100)])
        spread.add(run: [event(.enter, 20)])
        spread.add(run: [event(.enter, 30), event(.exit, 60), event(.enter, 120)])
        spread.add(run: [event(.enter, 40)])
        let entries = spread.entries
        #expect(spread.runs == 4)
        #expect(entries.map { "\($0.key.kind) \($0.n)" } == ["enter 1", "exit 1", "enter 2"])  // by median time
        let first = entries[0]
        #expect(first.count == 4 && first.share == 1)
        #expect(seconds(first.p5) == 10 && seconds(first.p50) == 20 && seconds(first.p95) == 40)  // ranks 1, 2, 4
        #expect(entries[1].share == 0.25 && seconds(entries[1].p50) == 60)
        #expect(entries[2].share == 0.5 && seconds(entries[2].p5) == 100 && seconds(entries[2].p50) == 100
            && seconds(entries[2].p95) == 120)
        #expect(spread.json(seed: 7).hasPrefix(#"{"runs":4,"seed":7,"events":[{"device":"phone","region":"cafe","kind":"enter","rule":null,"n":1,"share":1.0,"p5":"2016-01-10T12:00:10.000Z","p50":"2016-01-10T12:00:20.000Z","p95":"2016-01-10T12:00:40.000Z"}"#))
    }

    @Test func readableLinesNameTheOccurrence() {
        var spread = EventSpread()
        spread.add(run: [event(.monitorStart, 0), event(.enter, 10), event(.enter, 100)])
        spread.add(run: [event(.monitorStart, 0), event(.enter, 12)])
        let text = spread.readable(scenario: "Cafe", seed: 41, day: Timestamp(microsecondsSince1970: noon))
        #expect(text == """
            Cafe: 2 runs, noise seeds 41 to 42
            share  p5        p50       p95       event
            100 %  12:00:00  12:00:00  12:00:00  phone: monitor-start at cafe
            100 %  12:00:10  12:00:10  12:00:12  phone: enter at cafe
             50 %  12:01:40  12:01:40  12:01:40  phone: enter at cafe (2nd)

            """)
    }

    @Test func noRunsNoEvents() {
        var spread = EventSpread()
        spread.add(run: [])
        #expect(spread.entries.isEmpty)
        #expect(spread.json(seed: 0) == #"{"runs":1,"seed":0,"events":[]}"#)
    }
}
