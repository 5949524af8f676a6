import Geodesy
import Geofencing
import Testing
import Time

@testable import WireFormat

/// SEMANTICS §7 "Delivery" (revision 3) on the wire: `detectedAt` is written only when set and different
/// from `time`, as JSON Lines' last key and CSV's last column, and read back.
@Suite struct DetectedAtTests {
    static let decided = Timestamp(iso8601: "2016-01-10T12:03:10.250Z")!
    static func event(_ detail: GeofenceEvent.Detail, detectedAt: Timestamp?) -> GeofenceEvent {
        GeofenceEvent(
            time: decided + .seconds(30), device: "phone", region: "cafe", regionIndex: 0,
            coordinate: Coordinate(latitude: 37.7, longitude: -121.7), distance: -12.5, detail: detail,
            detectedAt: detectedAt)
    }

    @Test("JSON Lines: detectedAt last, and read back")
    func jsonLines() throws {
        let event = Self.event(.enter(crossedAt: Self.decided - .seconds(5)), detectedAt: Self.decided)
        let line = JSONLines.encode(event)
        #expect(line.hasSuffix(#","crossedAt":"2016-01-10T12:03:05.250Z","detectedAt":"2016-01-10T12:03:10.250Z"}"#))
        let read = try JSONLines.decode(line: line)
        #expect(read == WireEvent(event) && read.detectedAt == Self.decided)
    }

    @Test("not written when unset or equal to the time")
    func absent() throws {
        for detectedAt in [nil, Self.decided + .seconds(30)] {
            let event = Self.event(.dwell(rule: "stay", ruleIndex: 0, duration: .seconds(9)), detectedAt: detectedAt)
            #expect(!JSONLines.encode(event).contains("detectedAt"))
            #expect(CSVRecords.encode(event).hasSuffix(",stay,"))
            #expect(try JSONLines.decode(line: JSONLines.encode(event)).detectedAt == nil)
        }
    }

    @Test("CSV: the last column")
    func csv() {
        #expect(CSVRecords.columns.last == "detectedAt")
        let event = Self.event(.exit(crossedAt: Self.decided), detectedAt: Self.decided)
        #expect(CSVRecords.encode(event).hasSuffix(",,,,,2016-01-10T12:03:10.250Z"))
    }

    @Test("refused on monitor events")
    func monitorEvents() {
        let line =
            #"{"time":"2016-01-10T12:03:10.000Z","device":"p","region":"c","kind":"monitor-start","lat":0,"lon":0,"distance":1,"detectedAt":"2016-01-10T12:03:10.000Z"}"#
        #expect(throws: WireFormatError.self) { try JSONLines.decode(line: line) }
    }
}
