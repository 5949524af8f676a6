import Geofencing
import Regression
import Testing
import WireFormat

struct DiffCase: Sendable, CustomTestStringConvertible {
    var id: String
    var old: [WireEvent]
    var new: [WireEvent]
    var lines: [String]
    var summary: String
    var testDescription: String { id }
}

private let enter = event(.enter, "lorrenzillos", at: "12:01:57", distance: -229.24665915420525, crossedAt: "12:01:37")
private let dwell = event(.dwell, "lorrenzillos", at: "12:02:07")
private let exit = event(.exit, "lorrenzillos", at: "12:05:00", crossedAt: "12:04:40")

private func with(_ e: WireEvent, _ change: (inout WireEvent) -> Void) -> WireEvent {
    var copy = e
    change(&copy)
    return copy
}

let diffCases: [DiffCase] = [
    DiffCase(id: "identical", old: [enter, dwell, exit], new: [enter, dwell, exit], lines: [], summary: ""),
    DiffCase(
        id: "null distances are equal", old: [with(enter) { $0.distance = .nan }],
        new: [with(enter) { $0.distance = .nan }], lines: [], summary: ""),
    DiffCase(
        id: "moved", old: [enter, dwell], new: [event(.enter, "lorrenzillos", at: "12:02:18"), dwell],
        lines: ["enter lorrenzillos phone: 12:01:57 → 12:02:18 (+21 s)"], summary: "1 moved"),
    DiffCase(
        id: "moved earlier by minutes", old: [exit], new: [event(.exit, "lorrenzillos", at: "12:03:40")],
        lines: ["exit lorrenzillos phone: 12:05:00 → 12:03:40 (-1 min 20 s)"], summary: "1 moved"),
    DiffCase(
        id: "appeared", old: [enter, dwell], new: [enter, dwell, exit],
        lines: ["+ exit lorrenzillos phone at 12:05:00"], summary: "1 appeared"),
    DiffCase(
        id: "vanished", old: [enter, dwell, exit], new: [enter, exit],
        lines: ["- dwell lorrenzillos phone \"Thanks for visiting\" at 12:02:07"], summary: "1 vanished"),
    DiffCase(
        id: "changed distance, rounded for reading", old: [enter],
        new: [with(enter) { $0.distance = -231.0 }],
        lines: ["enter lorrenzillos phone at 12:01:57: distance -229.25 → -231.0"], summary: "1 changed"),
    DiffCase(
        id: "changed by a few ulps, shown in full", old: [enter],
        new: [with(enter) { $0.distance = (-229.24665915420525).nextDown }],
        lines: ["enter lorrenzillos phone at 12:01:57: distance -229.24665915420525 → -229.24665915420528"],
        summary: "1 changed"),
    DiffCase(
        id: "changed crossing and position", old: [enter],
        new: [
            with(enter) {
                $0.crossedAt = t("12:01:40"); $0.lat = 37.70249
            }
        ],
        lines: ["enter lorrenzillos phone at 12:01:57: lat 37.7 → 37.70249, crossedAt 12:01:37 → 12:01:40"],
        summary: "1 changed"),
    DiffCase(
        id: "changed dwell duration", old: [dwell],
        new: [with(dwell) { $0.duration = .seconds(12) }],
        lines: ["dwell lorrenzillos phone \"Thanks for visiting\" at 12:02:07: duration 10 s → 12 s"],
        summary: "1 changed"),
    DiffCase(
        id: "matched by key in order: a second enter appears, the first is unchanged",
        old: [enter, exit], new: [enter, exit, event(.enter, "lorrenzillos", at: "12:07:00")],
        lines: ["+ enter lorrenzillos phone at 12:07:00"], summary: "1 appeared"),
    DiffCase(
        id: "another device's events are their own",
        old: [enter], new: [enter, event(.enter, "lorrenzillos", "tablet", at: "12:00:30")],
        lines: ["+ enter lorrenzillos tablet at 12:00:30"], summary: "1 appeared"),
    DiffCase(
        id: "all four, in time order",
        old: [enter, dwell, exit, event(.visit, "lorrenzillos", at: "12:05:00")],
        new: [
            with(enter) { $0.distance = -231.0 }, event(.dwell, "lorrenzillos", at: "12:02:37"),
            event(.visit, "lorrenzillos", at: "12:05:00"), event(.enter, "pizzeria", at: "12:09:00"),
        ],
        lines: [
            "enter lorrenzillos phone at 12:01:57: distance -229.25 → -231.0",
            "dwell lorrenzillos phone \"Thanks for visiting\": 12:02:07 → 12:02:37 (+30 s)",
            "- exit lorrenzillos phone at 12:05:00",
            "+ enter pizzeria phone at 12:09:00",
        ],
        summary: "1 moved, 1 appeared, 1 vanished, 1 changed"),
]

@Suite("Golden log differences")
struct EventLogDiffTests {
    @Test("Differences read as moved, appeared, vanished and changed events", arguments: diffCases)
    func lines(_ c: DiffCase) {
        let diff = EventLogDiff(old: c.old, new: c.new)
        #expect(diff.lines(day: clockStart) == c.lines)
        #expect(diff.summary == c.summary)
        #expect(diff.isEmpty == c.lines.isEmpty)
    }

    @Test("The listing is capped, with a count of the rest")
    func capped() {
        let new = (0..<25).map { event(.enter, "r\($0)", at: String(format: "12:%02d:00", $0)) }
        let lines = EventLogDiff(old: [], new: new).lines(day: clockStart, limit: 20)
        #expect(lines.count == 21)
        #expect(lines.first == "+ enter r0 phone at 12:00:00")
        #expect(lines[19] == "+ enter r19 phone at 12:19:00")
        #expect(lines.last == "… and 5 more differences")
    }
}
