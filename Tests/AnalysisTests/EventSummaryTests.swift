import Analysis
import Geofencing
import Testing
import Time
import WireFormat

/// `EventSummary`: groups, counts and nearest-rank durations, hand-computed.
@Suite struct EventSummaryTests {
    static func event(
        _ time: String, _ kind: GeofenceEvent.Kind, device: String = "d", region: String = "r",
        seconds: Int64? = nil
    ) -> WireEvent {
        let t = Timestamp(iso8601: time)!
        return WireEvent(
            time: t, device: device, region: region, kind: kind, lat: 0, lon: 0, distance: 0,
            crossedAt: kind == .enter || kind == .exit ? t : nil, arrival: seconds.map { t - .seconds($0) },
            departure: seconds.map { _ in t }, duration: seconds.map { .seconds($0) })
    }

    @Test("Ten visits: p50 is the 5th shortest, p90 the 9th, max the 10th; monitor events are not counted")
    func nearestRank() {
        let visits = (1...10).reversed().map { Self.event("2024-05-01T08:00:00Z", .visit, seconds: Int64($0) * 60) }
        let monitors = [Self.event("2024-05-01T08:00:00Z", .monitorStart), Self.event("2024-05-01T09:00:00Z", .monitorStop)]
        let summary = EventSummary(visits + monitors, by: [], zone: nil)
        #expect(summary.counted == 10 && summary.notCounted == 2 && summary.groups.count == 1)
        let group = summary.groups[0]
        #expect(group.visits == 10 && group.enters == 0)
        #expect(group.visitP50 == .seconds(300) && group.visitP90 == .seconds(540) && group.visitMax == .seconds(600))
    }

    @Test("No events: one empty group without keys, none with")
    func empty() {
        #expect(EventSummary([], by: [], zone: nil).groups.count == 1)
        #expect(EventSummary([], by: [], zone: nil).groups[0].visitP50 == nil)
        #expect(EventSummary([], by: [.region], zone: nil).groups.isEmpty)
        #expect(EventSummary([Self.event("2024-05-01T08:00:00Z", .monitorStart)], by: [.region], zone: nil).groups.isEmpty)
    }

    @Test("Ids sort by their bytes, then times ascending, in the order of the keys")
    func order() {
        let events = [
            Self.event("2024-05-01T10:00:00Z", .enter, device: "b"), Self.event("2024-05-01T08:30:00Z", .enter, device: "é"),
            Self.event("2024-05-01T09:59:59.999Z", .enter, device: "b"),
            Self.event("2024-05-01T08:00:00Z", .enter, device: "Z"),
        ]
        let keys = EventSummary(events, by: [.device, .hour], zone: nil).groups.map { $0.key.map(\.description) }
        #expect(
            keys == [
                ["Z", "2024-05-01T08:00:00Z"], ["b", "2024-05-01T09:00:00Z"], ["b", "2024-05-01T10:00:00Z"],
                ["é", "2024-05-01T08:00:00Z"],
            ])
    }

    @Test("Clocks turned back: Madrid's two hours 02:00 of 27 October 2024 are two groups, in order")
    func fallBack() throws {
        let madrid = try #require(LocalTimeZone(identifier: "Europe/Madrid"))
        // 00:30Z is 02:30 CEST (+02:00); 01:30Z is 02:30 CET (+01:00); 23:30Z the day before is 01:30 CEST.
        let events = ["2024-10-27T01:30:00Z", "2024-10-27T00:30:00Z", "2024-10-26T23:30:00Z"].map {
            Self.event($0, .enter)
        }
        let hours = EventSummary(events, by: [.hour], zone: madrid).groups.map { $0.key[0].description }
        #expect(hours == ["2024-10-27T01:00:00+02:00", "2024-10-27T02:00:00+02:00", "2024-10-27T02:00:00+01:00"])
        let days = EventSummary(events, by: [.day], zone: madrid).groups.map { ($0.key[0].description, $0.enters) }
        #expect(days.map(\.0) == ["2024-10-27"] && days[0].1 == 3)
        let utc = EventSummary(events, by: [.day], zone: nil).groups.map { $0.key[0].description }
        #expect(utc == ["2024-10-26", "2024-10-27"])
    }

    @Test("Half-hour zones floor on their own clocks: 08:10Z is hour 13:30 in Kolkata")
    func halfHourZone() throws {
        let kolkata = try #require(LocalTimeZone(identifier: "Asia/Kolkata"))
        let summary = EventSummary([Self.event("2024-05-01T08:10:00Z", .enter)], by: [.hour], zone: kolkata)
        #expect(summary.groups[0].key[0].description == "2024-05-01T13:00:00+05:30")
    }
}
