import Documents
import Geofencing
import ReadableText
import Time

/// The readers of revision 3's composite device settings (SEMANTICS §2, §7): `phase`, `stationary`,
/// `outliers` and `delivery`, each part with its unit and range, errors at the key path
/// (`monitor.delivery.p90`). `none` switches off the profile's slow-down, false fixes or delay; `null`, like
/// an absent key, keeps the profile's value.
extension MonitorBlock {
    static let stationaryKeys = ["after", "within", "interval"]
    static let outlierKeys = ["every", "duration", "median", "p90", "accuracy"]
    static let deliveryKeys = ["median", "p90"]

    /// `random`, or a duration: a multiple of the tick of 0 or more, below `interval` when the block sets it
    /// (the resolved interval is checked by `Simulation.phaseProblem`).
    static func phase(_ node: PlacedNode, tick: TimeSpan, interval: TimeSpan?) -> Phase? {
        if node.scalarText == "random" { return .random }
        guard let span = node.duration(.nonNegative) else { return nil }
        if span.microseconds % tick.microseconds != 0 {
            node.fail("the phase \(span.readable) is not a multiple of the tick (\(tick.readable))")
            return nil
        }
        if let interval, span.microseconds > 0, span >= interval {
            node.fail("the phase \(span.readable) is not below the interval (\(interval.readable))")
            return nil
        }
        return .fixed(span)
    }

    static func stationary(_ node: PlacedNode, tick: TimeSpan) -> Stationary? {
        guard let f = node.mapping("a mapping {after, within, interval}", allowed: stationaryKeys) else { return nil }
        let after = f.required("after", "a duration of 0 or more")?.duration(.nonNegative)
        let within = f.required("within", "a distance of 0 or more")?.distance(.nonNegative)
        var interval: TimeSpan?
        if let place = f.required("interval", "a duration greater than 0"), let span = place.duration(.positive) {
            if span.microseconds % tick.microseconds == 0 {
                interval = span
            } else {
                place.fail(
                    "the interval \(span.readable) is not a multiple of the tick (\(tick.readable)); a device can only observe its position at ticks"
                )
            }
        }
        guard let after, let within, let interval else { return nil }
        return Stationary(after: after, within: within, interval: interval)
    }

    static func outliers(_ node: PlacedNode) -> Outliers? {
        guard let f = node.mapping("a mapping {every, duration, median, p90, accuracy}", allowed: outlierKeys) else {
            return nil
        }
        let every = f.required("every", "a duration greater than 0")?.duration(.positive)
        let duration = f.required("duration", "a duration greater than 0")?.duration(.positive)
        let median = f.required("median", "a distance greater than 0")?.distance(.positive)
        let p90Node = f.required("p90", "a distance at least the median")
        var p90 = p90Node?.distance(.positive)
        if let median, let value = p90, value < median {
            p90Node?.fail(
                "the 90th percentile \(Readable.distance(value)) is below the median (\(Readable.distance(median)))")
            p90 = nil
        }
        // 1 when not given: an honest fix, whose circle reaches the truth (SEMANTICS §2).
        let accuracy =
            f["accuracy"].map {
                $0.number(
                    "a share of the displacement, a number of 0 or more (1: the fix's circle reaches the truth)",
                    in: 0...Double.greatestFiniteMagnitude)
            } ?? 1
        guard let every, let duration, let median, let p90, let accuracy else { return nil }
        return Outliers(every: every, duration: duration, median: median, p90: p90, accuracyScale: accuracy)
    }

    static func delivery(_ node: PlacedNode) -> Delivery? {
        guard let f = node.mapping("a mapping {median, p90}", allowed: deliveryKeys) else { return nil }
        let median = f.required("median", "a duration greater than 0")?.duration(.positive)
        let p90Node = f.required("p90", "a duration at least the median")
        var p90 = p90Node?.duration(.positive)
        if let median, let value = p90, value < median {
            p90Node?.fail("the 90th percentile \(value.readable) is below the median (\(median.readable))")
            p90 = nil
        }
        guard let median, let p90 else { return nil }
        return Delivery(median: median, p90: p90)
    }
}
