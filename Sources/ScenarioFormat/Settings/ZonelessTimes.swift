import Documents
import ReadableText
import Time

/// Times a scenario writes without a zone (`start:`, an expectation's `at:` and window): read on the clocks
/// of its `timezone:`, else as UTC, and said so (docs/SCENARIO-REFERENCE.md "Keys"), each warning at its file, line and
/// key path.
enum ZonelessTimes {
    /// Warns at `c` when `text`, read on `zone`'s clocks as `reading`, names a wall-clock time those
    /// clocks skip (a gap, turned forward: read as the first time after it, so 02:30 on a night that skips
    /// from 02:00 to 03:00 is 03:00) or show twice (an overlap, turned back: read as the first); the
    /// sentence is `ClockChangeTimes`'s, as for a track's or a fix table's times. O(1).
    static func warnIfUnclear(_ text: String, reading: LocalReading, on zone: LocalTimeZone, at c: PlacedNode) {
        guard let change = reading.change else { return }
        c.warn(
            ClockChangeTimes.sentence(text, reading: reading, zone: zone) + "; "
                + ClockChangeTimes.advice(for: change, many: false))
    }

    /// The expectation times of one `expect:` list written without a zone and read as UTC (the scenario
    /// has no `timezone:`): counted, so that the list gets one warning, at the first.
    final class Tally {
        private var first: (node: PlacedNode, text: String, time: Timestamp)?
        private var count = 0

        /// Counts `text`, read as UTC `time`, at `c`.
        func add(_ text: String, readAs time: Timestamp, at c: PlacedNode) {
            if first == nil { first = (c, text, time) }
            count += 1
        }

        /// The one warning, at the first time counted: how it was read, how many more were, what to write.
        func warn() {
            guard let first else { return }
            let more = count - 1
            first.node.warn(
                "\(first.text) has no zone, so it is read as UTC (\(first.time.iso8601))"
                    + (more > 0
                        ? ", and so \(more == 1 ? "is 1 more expectation time" : "are \(more) more expectation times")" : "")
                    + "; write \(count == 1 ? "it" : "them") with Z or an offset, or give the scenario timezone: NAME "
                    + "(such as Europe/Madrid) if \(count == 1 ? "it is a local time" : "they are local times")")
        }
    }
}
