import Geofencing
import Testing
import WireFormat

@testable import Regression

/// The log diff's fields are the wire schema's (`WireField`): a matched pair that differs in every field but
/// its key (kind, device, region, rule) and time lists them in table order, each shown as its type reads.
@Suite struct EventLogDiffSchemaTests {
    static let key: Set<WireField> = [.time, .device, .region, .kind, .rule]

    @Test func everyFieldButTheKeyInTableOrder() {
        let old = WireEvent(
            time: t("12:05:00"), device: "phone", region: "cafe", kind: .visit, lat: 37.7, lon: -121.7,
            distance: -10, crossedAt: t("12:04:00"), arrival: t("12:01:00"), departure: t("12:05:00"),
            duration: .seconds(240), rule: "r", detectedAt: t("12:04:30"))
        var new = old
        new.lat += 0.001
        new.lon += 0.001
        new.distance = -12
        new.crossedAt = t("12:04:01")
        new.arrival = t("12:01:01")
        new.departure = t("12:05:01")
        new.duration = .seconds(241)
        new.detectedAt = nil
        let fields = EventLogDiff.differingFields(old, new)
        #expect(fields == WireField.allCases.filter { !Self.key.contains($0) }.map(\.name))
        #expect(EventLogDiff.values("detectedAt", old, new, day: clockStart) == ("12:04:30", "none"))
        #expect(EventLogDiff.values("duration", old, new, day: clockStart) == ("4 min", "4 min 1 s"))
        #expect(EventLogDiff.values("lat", old, new, day: clockStart) == ("37.7", "37.701"))
    }

    @Test func nullEqualsNull() {
        var old = event(.enter, "cafe", at: "12:00:00")
        old.lat = .nan
        #expect(EventLogDiff.differingFields(old, old).isEmpty)
    }
}
