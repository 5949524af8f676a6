import Testing
import Time

/// Times written without a zone, read in an IANA zone from the system's tz database: hand-checked against
/// the rules of Europe/Madrid (CET +1, CEST +2 from the last Sunday of March 01:00 UTC to the last Sunday
/// of October 01:00 UTC) and America/New_York (EST −5, EDT −4).
@Suite("Local time zones")
struct LocalTimeZoneTests {
    @Test(
        "A wall-clock time is the instant at which the zone's clocks read it",
        arguments: [
            (zone: "Europe/Madrid", local: "2026-11-20T12:00:00", utc: "2026-11-20T11:00:00.000Z"),
            (zone: "Europe/Madrid", local: "2026-07-01T12:00:00.250", utc: "2026-07-01T10:00:00.250Z"),
            (zone: "Europe/Madrid", local: "2026-03-29T02:30:00", utc: "2026-03-29T01:00:00.000Z"),  // the gap: its end
            (zone: "Europe/Madrid", local: "2026-03-29T02:59:59", utc: "2026-03-29T01:00:00.000Z"),
            (zone: "Europe/Madrid", local: "2026-03-29T01:59:59", utc: "2026-03-29T00:59:59.000Z"),
            (zone: "Europe/Madrid", local: "2026-03-29T03:00:00", utc: "2026-03-29T01:00:00.000Z"),
            // the overlap: the earlier
            (zone: "Europe/Madrid", local: "2026-10-25T02:30:00", utc: "2026-10-25T00:30:00.000Z"),
            (zone: "Europe/Madrid", local: "2026-10-25T03:30:00", utc: "2026-10-25T02:30:00.000Z"),
            (zone: "America/New_York", local: "2026-01-15T08:00:00", utc: "2026-01-15T13:00:00.000Z"),
            (zone: "America/New_York", local: "2026-11-01T01:30:00", utc: "2026-11-01T05:30:00.000Z"),  // overlap: EDT
            (zone: "UTC", local: "2026-06-01T00:00:00", utc: "2026-06-01T00:00:00.000Z"),
        ])
    func local(zone: String, local: String, utc: String) throws {
        let zone = try #require(LocalTimeZone(identifier: zone))
        let read = try #require(Timestamp.parse(iso8601: local, localZone: zone))
        #expect(read.instant.iso8601 == utc)
        #expect(!read.hadZone)
    }

    @Test("A time with its own zone keeps it, whatever the local zone")
    func ownZone() throws {
        let zone = try #require(LocalTimeZone(identifier: "Asia/Tokyo"))
        let read = try #require(Timestamp.parse(iso8601: "2026-11-20T12:00:00+01:00", localZone: zone))
        #expect(read.instant.iso8601 == "2026-11-20T11:00:00.000Z" && read.hadZone)
        #expect(Timestamp.parse(iso8601: "2026-11-20T12:00:00Z", localZone: zone)?.hadZone == true)
    }

    @Test("Names the tz database does not have are refused", arguments: ["Mars/Olympus", "Europe/Madird", "", "CEST"])
    func unknown(name: String) {
        #expect(LocalTimeZone(identifier: name) == nil)
    }

    @Test("The cache counts times without a zone and reads them in its zone, a minute at a time")
    func cache() throws {
        var cache = ISO8601Cache(localZone: LocalTimeZone(identifier: "Europe/Madrid"))
        let texts = [
            "2026-11-20T12:00:01", "2026-11-20T12:00:02.5", "2026-11-20T12:00:03Z", "2026-11-20T12:01:00",
            "2026-11-20T12:01:05",  // the last minute, whole seconds: `sameMinute`
        ]
        let read = texts.map { text in
            text.utf8CString.withUnsafeBufferPointer { chars in
                chars.withMemoryRebound(to: UInt8.self) { cache.time(UnsafeBufferPointer(rebasing: $0.dropLast()))?.iso8601 }
            }
        }
        #expect(
            read == [
                "2026-11-20T11:00:01.000Z", "2026-11-20T11:00:02.500Z", "2026-11-20T12:00:03.000Z",
                "2026-11-20T11:01:00.000Z", "2026-11-20T11:01:05.000Z",
            ])
        #expect(cache.zonelessCount == 4)
    }

    @Test("The cache reads a gap's minute second by second as the gap's end, and says which times changed")
    func cacheInAClockChange() throws {
        // Los Angeles: 2016-03-13 02:00 PST (10:00 UTC) became 03:00 PDT; 2016-11-06 02:00 PDT (09:00 UTC) became 01:00 PST.
        var cache = ISO8601Cache(localZone: LocalTimeZone(identifier: "America/Los_Angeles"))
        let texts = [
            "2016-03-13T01:59:30", "2016-03-13T02:30:00", "2016-03-13T02:30:15", "2016-03-13T03:10:00",
            "2016-11-06T01:30:00", "2016-11-06T01:30:15", "2016-11-06T02:30:00",
        ]
        let read = texts.map { text in
            text.utf8CString.withUnsafeBufferPointer { chars in
                chars.withMemoryRebound(to: UInt8.self) { bytes in
                    let time = cache.time(UnsafeBufferPointer(rebasing: bytes.dropLast()))?.iso8601
                    return "\(time ?? "nil") \(cache.lastChange.map { "\($0)" } ?? "-")"
                }
            }
        }
        let hour = "repeated(laterBy: 3600000000)"
        #expect(
            read == [
                "2016-03-13T09:59:30.000Z -", "2016-03-13T10:00:00.000Z skipped", "2016-03-13T10:00:00.000Z skipped",
                "2016-03-13T10:10:00.000Z -", "2016-11-06T08:30:00.000Z \(hour)", "2016-11-06T08:30:15.000Z \(hour)",
                "2016-11-06T10:30:00.000Z -",
            ])
        #expect(cache.zonelessCount == 7)
    }
}
