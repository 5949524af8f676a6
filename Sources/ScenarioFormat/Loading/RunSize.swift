import Documents
import Foundation
import Geofencing
import ReadableText
import Time

extension Timestamp {
    /// `writable` as a person reads it, for messages.
    static let writableRangeText = "0000-01-01T00:00:00Z … 9999-12-31T23:59:59.999999Z"
}

extension ScenarioLoader {
    /// Refuses a scenario whose run could not end or could not be written: a paced track whose times
    /// pass 9999-12-31, or more samples in all than `maxSamples` (a track of two fixes a thousand years
    /// apart makes 3 × 10¹⁰ of them). Each error names the device that makes it so. `facts`: the tracks'
    /// (`Simulation.trackFacts`). O(devices).
    func checkRunSize(
        _ simulation: Simulation, facts: [TrackFacts], devices: [(id: PlacedNode, pace: PlacedNode?)],
        list: PlacedNode?
    ) {
        let clockStart = simulation.clockStart
        var playable = true
        for (device, cursors) in zip(simulation.devices, devices) {
            guard case let .paced(segments, pace, offset) = device.track else { continue }
            let lastOrdinal = Int64(segments.lazy.compactMap(\.last?.ordinal).max() ?? 0)
            let first = clockStart.adding(offset)
            if first.flatMap({ first in pace.multiplied(by: lastOrdinal).flatMap { first.adding($0) } }) == nil {
                let from =
                    offset == .zero
                    ? "the clock's start \(clockStart)" : "the clock's start \(clockStart) plus the offset of \(offset) s"
                (cursors.pace ?? cursors.id).fail(
                    """
                    with a pace of \(pace) s from \(from), the track's point \(lastOrdinal) \
                    would play outside 0000-01-01 to 9999-12-31T23:59:59.999999Z, the times an event log can show
                    """)
                playable = false
            }
        }
        guard playable else { return }

        let counts = facts.map(\.samples)
        var total: Int64 = 0
        for count in counts { total = total.addingReportingOverflow(count).overflow ? .max : total + count }
        guard total > maxSamples, let largest = counts.indices.max(by: { counts[$0] < counts[$1] }) else { return }
        let limit =
            "a scenario may make at most \(Readable.grouped(maxSamples)) samples (perimeter run --max-samples N raises the limit)"
        let tick = "\(simulation.tick) s"
        if counts[largest] > maxSamples {
            let device = simulation.devices[largest]
            let span = facts[largest].first.flatMap { first in facts[largest].last.map { (first, $0) } }
            let spanText = span.map { " spans \(describe($0.1 - $0.0)) (\($0.0) … \($0.1)) and" } ?? ""
            devices[largest].id.fail(
                """
                the track of device "\(device.id)"\(spanText) would make \(Readable.grouped(counts[largest])) samples at a \
                tick of \(tick); \(limit)
                """)
        } else {
            (list ?? devices[largest].id).fail(
                """
                the \(counts.count) devices would make \(Readable.grouped(total)) samples in all at a tick of \(tick) (the \
                most, \(Readable.grouped(counts[largest])), device "\(simulation.devices[largest].id)"); \(limit)
                """)
        }
    }
}

/// A span in the largest unit that reads well: `10,000 years`, `12.5 days`, `3.0 h`, `119 s`.
private func describe(_ span: TimeSpan) -> String {
    let seconds = span.seconds
    if seconds >= 365.25 * 86_400 { return Readable.grouped(Int64((seconds / (365.25 * 86_400)).rounded())) + " years" }
    if seconds >= 86_400 { return String(format: "%.1f days", seconds / 86_400) }
    if seconds >= 3_600 { return String(format: "%.1f h", seconds / 3_600) }
    return String(format: "%.0f s", seconds)
}
