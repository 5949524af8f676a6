import Geodesy
import Parallel
import Time

/// What the loader's checks need of one device's fixes as a run plays them (`Track.fixes(start:)`), read
/// in one pass: their box, their first and last times, the smallest accuracy they play with, and the
/// samples they make. A fleet's checks (its size, the regions that cannot fire, the unreachable regions,
/// the tracks before the clock) then read each fix once, not once a check.
public struct TrackFacts: Hashable, Sendable {
    /// The box of the fixes; nil without fixes.
    public var box: BoundingBox?
    /// The time of the first fix and of the last; nil without fixes.
    public var first: Timestamp?
    public var last: Timestamp?
    /// The smallest accuracy a fix plays with (its own, else its device's, else the monitor's, SEMANTICS
    /// §2), in metres; nil without fixes.
    public var smallestAccuracy: Meters?
    /// The samples the device makes in a run; `Int64.max` for a paced track whose times would overflow
    /// (its fixes are then not read: the other facts are nil).
    public var samples: Int64

    /// The time from the first fix to the last; nil without fixes.
    public var span: TimeSpan? { first.flatMap { first in last.map { $0 - first } } }
}

extension Simulation {
    /// Each device's `TrackFacts`, in device order. O(fixes), the devices on `threads` threads.
    public func trackFacts(threads: Int = RunOptions.defaultThreads) -> [TrackFacts] {
        let (start, devices, tick, fallback) = (clockStart, devices, tick, settings.accuracy)
        return concurrentMap(devices.count, threads: threads) { i in
            let device = devices[i]
            var facts = TrackFacts(box: nil, first: nil, last: nil, smallestAccuracy: nil, samples: .max)
            if case let .paced(segments, pace, offset) = device.track {
                let lastOrdinal = Int64(segments.lazy.compactMap(\.last?.ordinal).max() ?? 0)
                guard let span = pace.multiplied(by: lastOrdinal),
                    case let (first, o1) = start.microsecondsSince1970.addingReportingOverflow(offset.microseconds), !o1,
                    first.addingReportingOverflow(span.microseconds).overflow == false
                else { return facts }
            }
            let segments = device.track.fixes(start: start)
            var box = BoundingBox.empty
            // The smallest accuracy: the first fix's, then any smaller one (read in place, one pass).
            let otherwise = device.accuracy ?? fallback
            var smallest = Meters.infinity, counted = false
            for segment in segments {
                segment.withUnsafeBufferPointer { fixes in
                    for fix in fixes {
                        box.extend(to: fix.coordinate)
                        let accuracy = fix.accuracy ?? otherwise
                        if !counted || accuracy < smallest { smallest = accuracy }
                        counted = true
                    }
                }
            }
            facts.box = box.minLatitude <= box.maxLatitude ? box : nil
            facts.first = segments.first?.first?.time
            facts.last = segments.last?.last?.time
            facts.smallestAccuracy = counted ? smallest : nil
            facts.samples = SampleStream.sampleCount(of: segments, start: start, tick: tick)
            return facts
        }
    }
}
