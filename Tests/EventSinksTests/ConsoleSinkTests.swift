import FileSystem
import Foundation
import Geodesy
import Geofencing
import ReadableText
import TestSupport
import Testing
import Time
import WireFormat

@testable import EventSinks

@Suite struct ConsoleSinkTests {
    @Test func timelineOfEveryKind() {
        #expect(
            ConsoleSink.lines(for: samples.map(\.event)) == [
                #"2016-01-10 (UTC)"#,
                #"12:00:00      phone                        monitor-start   cafe     512.3 m outside"#,
                #"12:00:01      phone                        monitor-stop    a,b      3.0 m outside"#,
                #"12:00:02      say "hi"                     monitor-failed  it's     3.0 m inside"#,
                #"12:03:10.250  line1\nline2\r               enter           café ☕️  crossed 12:03:05, 12.5 m inside"#,
                #"12:07:30.999  back\slash\ttab\u0001\u001b  exit            日本語   crossed 12:07:25.500, 0.3 m outside"#,
                #"12:07:30      phone                        visit           cafe     stayed 4 min 19.998 s, 12:03:05.001 to 12:07:25, 0.0 m outside"#,
                #"2016-01-11 (UTC)"#,
                #"00:00:00      phone 2                      dwell           cafe     rule "Thanks, \"friend\" 👋" after 4 min 20 s, 1234567.9 m inside"#,
                #"1969-12-31 (UTC)"#,
                #"23:59:59.500  \u2028sep                    dwell                    rule "" after 1.5 s, 0.0 m outside"#,
            ])
    }

    @Test func crossingOnAnotherDayShowsTheDate() {
        let event = GeofenceEvent(
            time: at("2016-01-11T00:00:05Z"), device: "d", region: "r", regionIndex: 0,
            coordinate: Coordinate(latitude: 0, longitude: 0), distance: -1,
            detail: .enter(crossedAt: at("2016-01-10T23:59:58Z")))
        #expect(ConsoleSink.detail(event) == "crossed 2016-01-10 23:59:58, 1.0 m inside")
    }

    struct DurationCase: CustomTestStringConvertible, Sendable {
        let microseconds: Int64
        let text: String
        var testDescription: String { text }
    }

    @Test(arguments: [
        DurationCase(microseconds: 0, text: "0 s"), DurationCase(microseconds: 10_000_000, text: "10 s"),
        DurationCase(microseconds: 250_000, text: "0.25 s"), DurationCase(microseconds: 1_000_999, text: "1 s"),
        DurationCase(microseconds: 260_000_000, text: "4 min 20 s"),
        DurationCase(microseconds: 3_605_000_000, text: "1 h 5 s"),
        DurationCase(microseconds: 3_600_000_000, text: "1 h"), DurationCase(microseconds: 183_600_000_000, text: "2 d 3 h"),
        DurationCase(microseconds: -90_000_000, text: "-1 min 30 s"),
    ])
    func durations(c: DurationCase) {
        #expect(TimeSpan(microseconds: c.microseconds).readable == c.text)
    }

    struct DistanceCase: CustomTestStringConvertible, Sendable {
        let meters: Double
        let text: String
        var testDescription: String { text }
    }

    @Test(arguments: [
        DistanceCase(meters: 0, text: "on the boundary"), DistanceCase(meters: 12.34, text: "12.3 m outside"),
        DistanceCase(meters: -12.25, text: "12.3 m inside"), DistanceCase(meters: -12.24, text: "12.2 m inside"),
        DistanceCase(meters: 0.04, text: "0.0 m outside"), DistanceCase(meters: 1999.96, text: "2000.0 m outside"),
        DistanceCase(meters: 2e20, text: "2e+20 m outside"), DistanceCase(meters: .infinity, text: "distance inf"),
    ])
    func distances(c: DistanceCase) {
        #expect(ConsoleSink.distance(c.meters) == c.text)
    }

    /// Widths come from the first `window` events; a longer id afterwards widens the column from there on.
    struct WidthCase: CustomTestStringConvertible, Sendable {
        let text: String
        let columns: Int
        var testDescription: String { "\(text.debugDescription) → \(columns)" }
    }

    @Test(arguments: [
        WidthCase(text: "van-12", columns: 6), WidthCase(text: "", columns: 0), WidthCase(text: "a\r\nb", columns: 3),
        WidthCase(text: "#1*", columns: 3), WidthCase(text: "café", columns: 4), WidthCase(text: "cafe\u{301}", columns: 4),
        WidthCase(text: "東京", columns: 4), WidthCase(text: "☕️ bar", columns: 6), WidthCase(text: "#️⃣", columns: 2),
    ])
    func columnsOfText(c: WidthCase) {
        #expect(ConsoleSink.width(c.text) == c.columns)
    }

    @Test func columnsWidenAfterTheWindow() {
        func event(_ i: Int, device: String) -> GeofenceEvent {
            GeofenceEvent(
                time: Timestamp(microsecondsSince1970: Int64(i) * 1_000_000), device: device, region: "r",
                regionIndex: 0, coordinate: Coordinate(latitude: 0, longitude: 0), distance: 1, detail: .monitorStart)
        }
        var events = (0..<ConsoleSink.window).map { event($0, device: "ab") }
        events.append(event(ConsoleSink.window, device: "abcdef"))
        events.append(event(ConsoleSink.window + 1, device: "ab"))
        let lines = ConsoleSink.lines(for: events)
        #expect(lines.count == ConsoleSink.window + 3)
        #expect(lines[1] == "00:00:00      ab  monitor-start   r  1.0 m outside")
        #expect(lines[ConsoleSink.window + 1] == "00:16:40      abcdef  monitor-start   r  1.0 m outside")
        #expect(lines[ConsoleSink.window + 2] == "00:16:41      ab      monitor-start   r  1.0 m outside")
    }

    @Test func nothingIsWrittenUntilTheWindowFillsOrFinish() throws {
        var text = ""
        let sink = ConsoleSink(write: { text += $0 })
        try sink.send(samples[0].event)
        #expect(text.isEmpty)
        try sink.finish()
        #expect(text == "2016-01-10 (UTC)\n12:00:00      phone  monitor-start   cafe  512.3 m outside\n")
    }

    @Test func writesToAPipeAndLeavesItOpen() throws {
        let pipe = Pipe()
        let sink = ConsoleSink(output: OutputFile(fileDescriptor: pipe.fileHandleForWriting.fileDescriptor, spec: "console"))
        try run(sink, [samples[0].event])
        try pipe.fileHandleForWriting.close()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text == "2016-01-10 (UTC)\n12:00:00      phone  monitor-start   cafe  512.3 m outside\n")
    }
}
