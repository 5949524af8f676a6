import Documents
import Geofencing
import NumberText
import ReadableText
import Time

/// Monitor settings as a scenario or a profile file gives them (SEMANTICS §5, §8): a `monitor:` block, a
/// profile file's fields, a region entry's or a GeoJSON feature's own settings. Each key of the settings
/// table (`MonitorField.all`) that the level allows is read by its kind, with its unit and range, errors
/// at the field's key path.
enum MonitorBlock {
    /// The fields a `monitor:` block may set.
    static var keys: [String] { MonitorField.keys(at: .monitor) }

    /// A `monitor:` block; `tick` is the clock's step.
    static func overrides(_ c: PlacedNode, tick: TimeSpan) -> MonitorOverrides {
        guard let f = c.mapping("a mapping of monitor settings", allowed: keys) else { return MonitorOverrides() }
        return read(f, level: .monitor, tick: tick)
    }

    /// The fields of `level` that `f` gives, in table order (a phase is checked against the interval read
    /// before it). A region's fields are not on the ticks, so `tick` plays no part there.
    static func read(
        _ f: Fields?, level: MonitorField.Levels, tick: TimeSpan = TimeSpan(microseconds: 1)
    )
        -> MonitorOverrides
    {
        var o = MonitorOverrides()
        guard let f else { return o }
        for field in MonitorField.all where field.levels.contains(level) {
            guard let node = f[field.key] else { continue }
            o[field] = value(of: field, node, tick: tick, interval: o[\.interval])
        }
        return o
    }

    /// One field's value, read by its kind; nil with an error recorded. `interval` is the block's own.
    static func value(of field: MonitorField, _ node: PlacedNode, tick: TimeSpan, interval: TimeSpan?) -> MonitorValue? {
        switch field.kind {
        case .count:
            if node.scalarText == "unlimited" { return .count(nil) }
            if let text = node.scalarText, !text.contains("."), let n = ExactDecimal(text)?.integer, n >= 1, n <= Int.max {
                return .count(Int(n))
            }
            node.expected("a number of regions, an integer of 1 or more, or \"unlimited\"")
            return nil
        case let .choice(words):
            if let text = node.scalarText, words.contains(text) { return .choice(text) }
            node.expected("one of \(words.joined(separator: ", "))")
            return nil
        case let .distance(signed):
            return node.distance(signed ? .any : .nonNegative).map(MonitorValue.meters)
        case let .duration(onTicks):
            guard let span = node.duration(.nonNegative) else { return nil }
            if onTicks && span.microseconds % tick.microseconds != 0 {
                node.fail(
                    "the \(field.key) \(span.readable) is not a multiple of the tick (\(tick.readable)); a device can only observe its position at ticks"
                )
                return nil
            }
            return .span(span)
        case let .share(range, expected):
            return node.number(expected, in: range).map(MonitorValue.share)
        case .phase:
            return phase(node, tick: tick, interval: interval).map(MonitorValue.phase)
        case .stationary:
            return node.scalarText == "none" ? .stationary(nil) : stationary(node, tick: tick).map { .stationary($0) }
        case .outliers:
            return node.scalarText == "none" ? .outliers(nil) : outliers(node).map { .outliers($0) }
        case .delivery:
            return node.scalarText == "none" ? .delivery(nil) : delivery(node).map { .delivery($0) }
        }
    }
}
