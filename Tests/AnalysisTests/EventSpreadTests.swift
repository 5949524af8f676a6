import Analysis
import Geodesy
import Geofencing
import ReadableText
import Testing
import Time

private let noon: Int64 = 1_452_427_200_000_000

private func event(_ kind: GeofenceEvent.Kind, _ seconds: Int64, region: String = "cafe") -> GeofenceEvent {
    let time = Timestamp(microsecondsSince1970: noon + seconds * 1_000_000)
    let detail: GeofenceEvent.Detail =
        kind == .enter ? .enter(crossedAt: time) : kind == .exit ? .exit(crossedAt: time) : .monitorStart
    return GeofenceEvent(
        time: time, device: "phone", region: region, regionIndex: region == "cafe" ? 0 : 1,
        coordinate: Coordinate(latitude: 0, longitude: 0), distance: 0, detail: detail)
}

private func seconds(_ t: Timestamp) -> Int64 { (t.microsecondsSince1970 - noon) / 1_000_000 }

@Suite("The spread of a Monte Carlo batch, by crossing")
struct EventSpreadTests {
    /// The exact reference: an enter at 10 s and one at 600 s, an exit at 300 s.
    private let reference = [event(.monitorStart, 0), event(.enter, 10), event(.exit, 300), event(.enter, 600)]

    @Test func rowsByCrossingWithDetectionDelaysAndSpurious() {
        var spread = EventSpread(reference: reference)
        // Four runs. Enters: 1st crossing detected at 15, 20, 30 and 40 s; 2nd at 610 s in one run, and in
        // another an enter at 640 s pairs with it, while 11 s and 13 s flicker near the 1st crossing.
        spread.add(run: [event(.monitorStart, 0), event(.enter, 15), event(.exit, 290), event(.enter, 610)])
        spread.add(run: [event(.monitorStart, 0), event(.enter, 20)])
        spread.add(run: [
            event(.monitorStart, 0), event(.enter, 11), event(.exit, 12), event(.enter, 13), event(.enter, 30),
            event(.enter, 640),
        ])
        spread.add(run: [event(.monitorStart, 0), event(.enter, 40)])
        #expect(spread.runs == 4)
        let entries = spread.entries
        // Run 3's enters: [10, 600] aligned with [11, 13, 30, 640] (one block: no gap over 600 s).
        // 10↔11, 600↔640 costs 1 + 40 + 2 × 600 (13 and 30 spurious); 10↔13, 600↔640 costs 1243;
        // 10↔11, 600↔30 costs 1771: the first is paired.
        // Its exit at 12 s pairs with the exit at 300 s (288 s early: within the window, cheaper than both unpaired).
        #expect(
            entries.map { "\($0.key.kind) \($0.group)" } == [
                "monitor-start occurrence(1)",
                "enter crossing(1, \(Timestamp(microsecondsSince1970: noon + 10_000_000)))",
                "enter spurious",
                "exit crossing(1, \(Timestamp(microsecondsSince1970: noon + 300_000_000)))",
                "enter crossing(2, \(Timestamp(microsecondsSince1970: noon + 600_000_000)))",
            ])
        let first = entries[1]  // detected at 15, 20, 11, 40: sorted 11, 15, 20, 40
        #expect(first.count == 4 && first.share == 1)
        #expect(seconds(first.p5!) == 11 && seconds(first.p50!) == 15 && seconds(first.p95!) == 40)  // ranks 1, 2, 4
        #expect(first.delayMedian == .seconds(5) && first.delayP90 == .seconds(30))
        let spurious = entries[2]  // 13 and 30 s, both in run 3
        #expect(spurious.count == 2 && spurious.share == 0.25 && seconds(spurious.p50!) == 13)
        let exit = entries[3]  // 290 and 12 s: delays −10 and −288
        #expect(exit.count == 2 && exit.share == 0.5 && exit.delayMedian == .seconds(-288) && exit.delayP90 == .seconds(-10))
        let second = entries[4]
        #expect(
            second.count == 2 && second.share == 0.5 && second.delayMedian == .seconds(10) && second.delayP90 == .seconds(40)
        )
        #expect(
            spread.json(seed: 7).hasPrefix(
                #"{"runs":4,"seed":7,"events":[{"device":"phone","region":"cafe","kind":"monitor-start","rule":null,"group":"occurrence","n":1,"crossing":null,"count":4,"share":1.0,"p5":"2016-01-10T12:00:00.000Z","p50":"2016-01-10T12:00:00.000Z","p95":"2016-01-10T12:00:00.000Z","delay":{"median":null,"p90":null}},{"device":"phone","region":"cafe","kind":"enter","rule":null,"group":"crossing","n":1,"crossing":"2016-01-10T12:00:10.000Z","count":4,"share":1.0,"p5":"2016-01-10T12:00:11.000Z","p50":"2016-01-10T12:00:15.000Z","p95":"2016-01-10T12:00:40.000Z","delay":{"median":5.0,"p90":30.0}}"#
            ))
    }

    @Test func readableLinesNameTheCrossing() {
        var spread = EventSpread(reference: [event(.monitorStart, 0), event(.enter, 10), event(.enter, 100)])
        spread.add(run: [event(.monitorStart, 0), event(.enter, 10), event(.enter, 100), event(.enter, 2000)])
        spread.add(run: [event(.monitorStart, 0), event(.enter, 12)])
        let text = spread.readable(scenario: "Cafe", seed: 41, day: Timestamp(microsecondsSince1970: noon))
        // Run 2's enter at 12 s: 10↔12 costs 2 + 600 (the 2nd crossing missed); 100↔12 costs 88 + 600.
        #expect(
            text == """
                Cafe: 2 runs, noise seeds 41 to 42
                share  p5        p50       p95       delay  p90  event
                100 %  12:00:00  12:00:00  12:00:00              phone: monitor-start at cafe
                100 %  12:00:10  12:00:10  12:00:12  0 s    2 s  phone: enter at cafe (1st crossing, 12:00:10)
                 50 %  12:01:40  12:01:40  12:01:40  0 s    0 s  phone: enter at cafe (2nd crossing, 12:01:40)
                 50 %  12:33:20  12:33:20  12:33:20              phone: enter at cafe: 1 spurious

                """)
    }

    @Test func aCrossingNoRunDetectedHasItsRow() {
        var spread = EventSpread(reference: [event(.enter, 10)])
        spread.add(run: [])
        let entries = spread.entries
        #expect(entries.count == 1 && entries[0].count == 0 && entries[0].share == 0 && entries[0].p50 == nil)
        #expect(
            spread.json(seed: 0)
                == #"{"runs":1,"seed":0,"events":[{"device":"phone","region":"cafe","kind":"enter","rule":null,"group":"crossing","n":1,"crossing":"2016-01-10T12:00:10.000Z","count":0,"share":0.0,"p5":null,"p50":null,"p95":null,"delay":{"median":null,"p90":null}}]}"#
        )
    }

    @Test func noRunsNoEvents() {
        var spread = EventSpread(reference: [])
        spread.add(run: [])
        #expect(spread.entries.isEmpty)
        #expect(spread.json(seed: 0) == #"{"runs":1,"seed":0,"events":[]}"#)
    }
}
