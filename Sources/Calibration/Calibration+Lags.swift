import Draws
import Geofencing
import Time

/// The delivery delay read from a field log's own lags (`time − detectedAt`) rather than searched (issue
/// 42, item 2): its median and 90th percentile are the lags' (the first lag whose share reaches 0.5 and
/// 0.9), each with a 90 % interval from resampling the lags. Seconds, rounded to 0.1 s.
public struct MeasuredDelivery: Hashable, Sendable {
    public var median: Double
    public var p90: Double
    public var medianInterval: ClosedRange<Double>
    public var p90Interval: ClosedRange<Double>
    /// The lags they are read from: the fit's reported crossings with `detectedAt` before `time`.
    public var lags: Int
    /// The base's (with the scenario's overrides) median and p90, in seconds (5 and 20 without a delivery).
    public var baseMedian: Double
    public var baseP90: Double

    /// The first value of `sorted` whose share of the values reaches `level` (docs/CALIBRATE.md's quantile
    /// rule, each value weighing alike). O(1).
    public static func quantile(_ sorted: [Double], _ level: Double) -> Double {
        let k = Int((level * Double(sorted.count) - 1e-9).rounded(.up)) - 1
        return sorted[min(sorted.count - 1, max(0, k))]
    }

    static func tenth(_ seconds: Double) -> Double { (seconds * 10).rounded() / 10 }

    /// The median and p90 of `lags` (not empty), with intervals from `replicates` resamples with
    /// replacement (SplitMix64 from `seed`): their 5th and 95th percentiles. O(replicates × lags log lags).
    init(lags: [Double], replicates: Int, seed: UInt64, base: MonitorSettings) {
        let sorted = lags.sorted()
        median = Self.tenth(Self.quantile(sorted, 0.5))
        p90 = Self.tenth(max(Self.quantile(sorted, 0.9), Self.quantile(sorted, 0.5)))
        var random = SplitMix64(seed: SplitMix64.mix(seed ^ 0x1A65_DE11_7E57))
        var medians: [Double] = [], p90s: [Double] = []
        var sample = [Double](repeating: 0, count: sorted.count)
        for _ in 0..<max(1, replicates) {
            for i in sample.indices { sample[i] = sorted[Int(random.next() % UInt64(sorted.count))] }
            sample.sort()
            medians.append(Self.quantile(sample, 0.5))
            p90s.append(Self.quantile(sample, 0.9))
        }
        medians.sort()
        p90s.sort()
        func interval(_ values: [Double], _ value: Double) -> ClosedRange<Double> {
            let low = values[Int((Double(values.count - 1) * 0.05).rounded(.down))]
            let high = values[Int((Double(values.count - 1) * 0.95).rounded(.up))]
            return Self.tenth(min(low, value))...Self.tenth(max(high, value))
        }
        medianInterval = interval(medians, median)
        p90Interval = interval(p90s, p90)
        self.lags = lags.count
        baseMedian = base.delivery?.median.seconds ?? 5
        baseP90 = base.delivery?.p90.seconds ?? 20
    }

    /// As the profile's delivery.
    public var delivery: Delivery {
        func span(_ seconds: Double) -> TimeSpan { TimeSpan(microseconds: Int64((seconds * 1_000_000).rounded())) }
        return Delivery(median: span(max(median, 0.1)), p90: span(max(p90, median, 0.1)))
    }

    /// The two as fitted values of the result (`delivery.median`, `delivery.p90`).
    var fitted: [CalibrationResult.Fitted] {
        [("delivery.median", median, medianInterval, baseMedian), ("delivery.p90", p90, p90Interval, baseP90)]
            .compactMap { name, value, interval, base in
                CalibrationParameter.named(name).map {
                    CalibrationResult.Fitted(
                        parameter: $0, value: value, low: interval.lowerBound, high: interval.upperBound, base: base)
                }
            }
    }
}

extension Calibration {
    /// Whether `parameter` is measured from the log's lags instead of searched: a delivery parameter, when
    /// the log has `detectedAt`.
    static func isMeasured(_ parameter: CalibrationParameter, logHasDecisionTimes: Bool) -> Bool {
        logHasDecisionTimes && parameter.name.hasPrefix("delivery.")
    }

    /// The fit's lags in seconds: each reported crossing not held out whose event has `detectedAt` before
    /// its `time` (a lag of 0 is an event without one). O(crossings).
    static func fitLags(_ observed: CrossingOutcomes, heldOut: [Bool]) -> [Double] {
        heldOut.indices.compactMap { c in
            !heldOut[c] && observed.detected[c] && observed.lag[c] > 0 ? observed.lag[c] : nil
        }
    }
}
