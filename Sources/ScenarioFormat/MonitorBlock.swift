import Documents
import Geodesy
import Geofencing
import NumberText
import ReadableText

/// A `monitor:` block (SEMANTICS §5, §8): the fields that replace a profile's values, each with its unit
/// and range, errors at the field's key path. Profile files read their fields with it too.
enum MonitorBlock {
    /// The fields a `monitor:` block may set.
    static let keys =
        [
            "capacity", "selection", "refreshDistance", "hysteresis", "enterBuffer", "confirmation",
            "initialTrigger", "accuracy", "enterConfidence", "exitConfidence", "interval",
        ] + phoneKeys

    static func overrides(_ c: PlacedNode, tick: TimeSpan) -> MonitorOverrides {
        guard let f = c.mapping("a mapping of monitor settings", allowed: keys) else { return MonitorOverrides() }
        var o = MonitorOverrides()
        if let capacity = f["capacity"] {
            if capacity.scalarText == "unlimited" {
                o.capacity = .some(nil)
            } else if let text = capacity.scalarText, !text.contains("."), let n = ExactDecimal(text)?.integer,
                n >= 1, n <= Int.max
            {
                o.capacity = .some(Int(n))
            } else {
                capacity.expected("a number of regions, an integer of 1 or more, or \"unlimited\"")
            }
        }
        o.selection = f["selection"]?.choice(Selection.self)
        o.refreshDistance = f["refreshDistance"]?.distance(.nonNegative)
        o.hysteresis = f["hysteresis"]?.distance(.nonNegative)
        o.enterBuffer = f["enterBuffer"]?.distance(.any)  // signed (revision 3)
        o.confirmation = f["confirmation"]?.duration(.nonNegative)
        o.initialTrigger = f["initialTrigger"]?.choice(InitialTrigger.self)
        o.accuracy = f["accuracy"]?.distance(.nonNegative)
        o.enterConfidence = f["enterConfidence"]?.number(RegionOverrides.enterConfidence, in: 0...1)
        o.exitConfidence = f["exitConfidence"]?.number(RegionOverrides.exitConfidence, in: 0...0.5)
        if let node = f["interval"], let interval = node.duration(.nonNegative) {
            if interval.microseconds % tick.microseconds == 0 {
                o.interval = interval
            } else {
                node.fail(
                    "the interval \(interval.readable) is not a multiple of the tick (\(tick.readable)); a device can only observe its position at ticks"
                )
            }
        }
        readPhone(f, tick: tick, into: &o)
        return o
    }
}
