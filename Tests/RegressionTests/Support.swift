import Foundation
import Geofencing
import ScenarioFormat
import Time
import WireFormat

/// `2016-01-10T` + `hh:mm:ss`, UTC.
func t(_ clock: String) -> Timestamp { Timestamp(iso8601: "2016-01-10T\(clock)Z")! }

let clockStart = t("12:00:00")

/// A wire event with made-up positions: tests care about kinds, ids and times.
func event(
    _ kind: GeofenceEvent.Kind, _ region: String, _ device: String = "phone", at clock: String,
    rule: String? = nil, distance: Double = -100, lat: Double = 37.7, lon: Double = -121.76,
    crossedAt: String? = nil, duration: TimeSpan? = nil
) -> WireEvent {
    WireEvent(
        time: t(clock), device: device, region: region, kind: kind, lat: lat, lon: lon, distance: distance,
        crossedAt: crossedAt.map(t) ?? ((kind == .enter || kind == .exit) ? t(clock) : nil),
        arrival: kind == .visit ? t("12:01:57") : nil, departure: kind == .visit ? t(clock) : nil,
        duration: duration ?? (kind == .dwell ? .seconds(10) : kind == .visit ? t(clock) - t("12:01:57") : nil),
        rule: kind == .dwell ? (rule ?? "Thanks for visiting") : nil)
}

/// A file of this test target's Fixtures folder.
func fixture(_ name: String) -> String {
    Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent(name).path
}
