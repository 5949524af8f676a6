import Geodesy
import Geofencing
import ReadableText
import TextEscaping
import Time

extension ComparisonReport {
    /// The comparison for people: a heading, per profile a table by kind (paired, missed, spurious, the
    /// delay's median, p90 and max, and the median and p90 of the true distance from the boundary, in
    /// metres, at which the profile's paired and spurious events fired, negative inside), then the
    /// notable events, one line each:
    ///
    /// ```
    /// phone: enter at lorrenzillos (12:01:37 under ideal) came 20 s late under ios; missed under android-background
    /// ```
    ///
    /// A Monte Carlo comparison pools its runs in the tables and, instead of single events, says per
    /// key how often each profile missed it and its median delay. At most `notableLimit` notable lines
    /// are listed (a fleet has thousands), then how many more the JSON has.
    public var readable: String { readable(notableLimit: 100) }

    public func readable(notableLimit: Int) -> String {
        var lines: [String] = []
        let names = profiles.map(\.profile.name)
        let list =
            names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
        var heading =
            "\(scenario): \(list) against \(reference.name)\(onTruePaths ? " on the true paths of the recorded tracks" : exactReference ? " without noise" : "") (events paired within \(window.readable))"
        if let runs { heading += ", \(runs.count) run\(runs.count == 1 ? "" : "s") with noise seeds from \(runs.seed)" }
        lines.append(heading)
        for comparison in profiles {
            lines.append("")
            lines.append(
                Self.row(
                    comparison.profile.name, "paired", "missed", "spurious", "median", "p90", "max",
                    "at median", "at p90"))
            for kind in EventMatching.kinds {
                let t = comparison.tally(kind)
                lines.append(
                    Self.row(
                        "  " + kind.description, String(t.paired), String(t.missed), String(t.spurious),
                        Self.delay(t.median), Self.delay(t.p90), Self.delay(t.max),
                        Self.metresText(t.distanceMedian), Self.metresText(t.distanceP90)))
            }
        }
        let notable = runs == nil ? notableEvents : notableKeys
        lines.append("")
        if notable.isEmpty {
            lines.append(
                "Every \(EventMatching.kinds.map(\.description).joined(separator: ", ")) event came within 1 s under every profile, and none was spurious."
            )
        } else {
            lines += notable.prefix(notableLimit)
            if notable.count > notableLimit {
                lines.append("… and \(notable.count - notableLimit) more notable events (--json lists every pair)")
            }
        }
        if !outcomes.isEmpty { lines.append("") }
        lines += outcomes.map(outcomeLine)
        return TerminalText.lines(lines) + "\n"
    }

    /// One dwell rule's devices (`outcomes`): in the truth, and under each profile (with Monte Carlo runs,
    /// the median, p5, p95 and mean):
    /// `rule "welcome": 1 device in the truth; 1 under ios; 0 under android (1 missed)`, or
    /// `rule "welcome": 1 device in the truth; under ios median 1 (p5 1, p95 1, mean 0.99; false+ 0.01, false- 0.02 a run)`.
    private func outcomeLine(_ row: OutcomeRow) -> String {
        let parts = row.profiles.map { outcome -> String in
            let d = outcome.devices, fp = outcome.falsePositives, fn = outcome.falseNegatives
            guard runs != nil else {
                var wrong: [String] = []
                if fp.median > 0 { wrong.append("\(fp.median) not in the truth") }
                if fn.median > 0 { wrong.append("\(fn.median) missed") }
                return "\(d.median) under \(outcome.profile)" + (wrong.isEmpty ? "" : " (\(wrong.joined(separator: ", ")))")
            }
            return "under \(outcome.profile) median \(d.median) (p5 \(d.p5), p95 \(d.p95), mean "
                + "\(Readable.number(d.mean, decimals: 2)); false+ \(Readable.number(fp.mean, decimals: 2)), false- "
                + "\(Readable.number(fn.mean, decimals: 2)) a run)"
        }
        return "\(row.key): \(row.truth) device\(row.truth == 1 ? "" : "s") in the truth; " + parts.joined(separator: "; ")
    }

    /// Each reference event that some profile missed or moved by 1 s or more, then the spurious events.
    private var notableEvents: [String] {
        var lines: [String] = []
        guard let first = profiles.first?.matchings.first else { return [] }
        for (i, pair) in first.pairs.enumerated() {
            let outcomes = profiles.map { ($0.profile.name, $0.matchings[0].pairs[i].delay) }
            guard outcomes.contains(where: { $0.1.map { Swift.abs($0.microseconds) >= 1_000_000 } ?? true }) else {
                continue
            }
            let said = outcomes.map { name, delay in "\(Self.outcome(delay)) under \(name)" }.joined(separator: "; ")
            lines.append(
                "\(subject(pair.key)) (\(Readable.time(pair.reference, day: day, zone: zone)) under \(reference.name)) \(said)"
            )
        }
        for comparison in profiles {
            for event in comparison.matchings[0].spurious {
                lines.append(
                    "\(subject(event.key)) at \(Readable.time(event.time, day: day, zone: zone)) under \(comparison.profile.name): spurious, no such event under \(reference.name) within \(window.readable)"
                )
            }
        }
        return lines
    }

    /// Per event of the reference (its key and n, its occurrence within a run: against the exact track, the
    /// n-th crossing), in the order of their first appearance: how often each profile missed it and its
    /// median delay; then the spurious events.
    private var notableKeys: [String] {
        guard let runs else { return [] }
        struct Occurrence: Hashable {
            var key: EventKey
            var n: Int
        }
        /// Each run's pairs by occurrence.
        func occurrences(_ matching: EventMatching) -> [(Occurrence, EventPair)] {
            var seen: [EventKey: Int] = [:]
            return matching.pairs.map { pair in
                let n = seen[pair.key, default: 0] + 1
                seen[pair.key] = n
                return (Occurrence(key: pair.key, n: n), pair)
            }
        }
        var order: [Occurrence] = []
        var known = Set<Occurrence>()
        for matching in profiles.first?.matchings ?? [] {
            for (occurrence, _) in occurrences(matching) where known.insert(occurrence).inserted { order.append(occurrence) }
        }
        let byProfile = profiles.map { comparison in
            Dictionary(grouping: comparison.matchings.flatMap(occurrences), by: \.0).mapValues { $0.map(\.1) }
        }
        var lines: [String] = []
        for occurrence in order {
            var parts: [String] = []
            var notable = false
            for (comparison, pairsByOccurrence) in zip(profiles, byProfile) {
                let pairs = pairsByOccurrence[occurrence] ?? []
                let missed = pairs.filter { $0.profile == nil }.count
                let delays = pairs.compactMap(\.delay).sorted()
                var part = ""
                if let median = NearestRank.percentile(50, of: delays) {
                    part = "median \(Self.phrase(median))"
                    if Swift.abs(median.microseconds) >= 1_000_000 { notable = true }
                }
                if missed > 0 {
                    notable = true
                    part += (part.isEmpty ? "" : ", ") + "missed in \(missed) of \(pairs.count) runs"
                }
                parts.append("\(part) under \(comparison.profile.name)")
            }
            // Against the exact track every run has the same reference events: the n-th is the n-th crossing.
            let ordinal = EventSpread.ordinal(occurrence.n)
            let subject =
                subject(occurrence.key)
                + (exactReference ? " (\(ordinal) crossing)" : occurrence.n > 1 ? " (\(ordinal))" : "")
            if notable { lines.append("\(subject): " + parts.joined(separator: "; ")) }
        }
        for comparison in profiles {
            let spurious = comparison.matchings.reduce(0) { $0 + $1.spurious.count }
            if spurious > 0 {
                lines.append(
                    "\(spurious) spurious event\(spurious == 1 ? "" : "s") under \(comparison.profile.name) in \(runs.count) runs"
                )
            }
        }
        return lines
    }

    /// `phone: dwell "welcome" at cafe`.
    private func subject(_ key: EventKey) -> String {
        "\(key.device): \(key.kind)" + (key.rule.map { " \"\($0)\"" } ?? "") + " at \(key.region)"
    }

    /// `came 31 s late`, `came 5 s early`, `came on time`, `missed`.
    private static func outcome(_ delay: TimeSpan?) -> String { delay.map { "came " + phrase($0) } ?? "missed" }

    /// `31 s late`, `5 s early`, `on time`.
    private static func phrase(_ delay: TimeSpan) -> String {
        if delay.microseconds == 0 { return "on time" }
        return delay.microseconds > 0
            ? "\(delay.readable) late" : "\(TimeSpan(microseconds: -delay.microseconds).readable) early"
    }

    private static func delay(_ span: TimeSpan?) -> String { span.map(\.readable) ?? "-" }

    /// `-12.5 m`, `63.0 m`: a signed distance to the tenth of a metre; `-` for none.
    private static func metresText(_ value: Meters?) -> String {
        guard let value else { return "-" }
        let tenths = Int64((value * 10).rounded())
        return (tenths < 0 ? "-" : "") + "\(Swift.abs(tenths) / 10).\(Swift.abs(tenths) % 10) m"
    }

    private static func row(_ label: String, _ columns: String...) -> String {
        label + String(repeating: " ", count: max(0, 22 - label.count))
            + columns.enumerated().map { i, text in
                let width = i < 3 ? 9 : 12
                return String(repeating: " ", count: max(1, width - text.count)) + text
            }.joined()
    }
}
