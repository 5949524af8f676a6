import GPX
import Testing
import Time

/// ISO 8601 times as they reach a point through GPX: fraction digits, offsets, no zone.
struct TimeCase: CustomTestStringConvertible, Sendable {
    var text: String
    /// Expected microseconds since 1970 (UTC).
    var micros: Int64
    var testDescription: String { text }
}

@Suite("Times through GPX")
struct TimeTests {
    static let cases: [TimeCase] = [
        TimeCase(text: "2024-01-01T00:00:00Z", micros: 1_704_067_200_000_000),
        TimeCase(text: "2024-01-01T00:00:00.5Z", micros: 1_704_067_200_500_000),
        TimeCase(text: "2024-01-01T00:00:00.123Z", micros: 1_704_067_200_123_000),
        TimeCase(text: "2024-01-01T00:00:00.123456Z", micros: 1_704_067_200_123_456),
        TimeCase(text: "2024-01-01T00:00:00.1234567Z", micros: 1_704_067_200_123_456),  // truncated, not rounded
        TimeCase(text: "2024-01-01T00:00:00.9999999Z", micros: 1_704_067_200_999_999),
        TimeCase(text: "2024-01-01T00:00:00", micros: 1_704_067_200_000_000),  // no zone: UTC
        TimeCase(text: "2024-01-01T01:15:00+01:15", micros: 1_704_067_200_000_000),
        TimeCase(text: "2023-12-31T19:00:00-05:00", micros: 1_704_067_200_000_000),
        TimeCase(text: "2024-01-01T02:00:00+0200", micros: 1_704_067_200_000_000),
        TimeCase(text: "  2024-01-01T00:00:00Z\n ", micros: 1_704_067_200_000_000),  // XML whitespace around
        TimeCase(text: "1901-12-13T20:45:52.2073437Z", micros: -2_147_483_647_792_657),
    ]

    @Test("a point's <time> is read exactly", arguments: cases)
    func time(_ c: TimeCase) throws {
        let path = temporaryFile(gpx("<wpt lat=\"1\" lon=\"2\"><time>\(c.text)</time></wpt>"))
        let track = try GPXTrack.load(path: path)
        #expect(track.timing == .timed)
        #expect(track.segments[0][0].time == Timestamp(microsecondsSince1970: c.micros))
    }

    @Test("a time in CDATA is read like text")
    func cdata() throws {
        let path = temporaryFile(gpx("<wpt lat=\"1\" lon=\"2\"><time><![CDATA[2024-01-01T00:00:00Z]]></time></wpt>"))
        #expect(try GPXTrack.load(path: path).segments[0][0].time == Timestamp(microsecondsSince1970: 1_704_067_200_000_000))
    }
}
