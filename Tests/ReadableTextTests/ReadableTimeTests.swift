import ReadableText
import Testing
import Time

/// `Readable.time` with `--timezone`'s zone: computed by hand from the tz database's offsets.
@Suite("Readable times")
struct ReadableTimeTests {
    @Test(
        "Times for people on a zone's clocks: the time of day on the day's date there, else in full with the offset",
        arguments: [
            (time: "2016-01-10T12:01:57Z", zone: "America/Los_Angeles", shown: "04:01:57"),
            (time: "2016-01-10T12:01:57.250Z", zone: "America/Los_Angeles", shown: "04:01:57.250"),
            (time: "2016-01-10T04:00:00Z", zone: "America/Los_Angeles", shown: "2016-01-09T20:00:00-08:00"),
            (time: "2016-01-10T23:30:00Z", zone: "Asia/Kolkata", shown: "2016-01-11T05:00:00+05:30"),
            (time: "2016-01-10T12:01:57Z", zone: "", shown: "12:01:57"),
        ])
    func shown(time: String, zone: String, shown: String) throws {
        let day = try #require(Timestamp(iso8601: "2016-01-10T12:00:00Z"))
        let instant = try #require(Timestamp(iso8601: time))
        #expect(Readable.time(instant, day: day, zone: LocalTimeZone(identifier: zone)) == shown)
    }
}
