import ReadableText
import TextEscaping
import Time

extension EventSpread {
    /// The spread as one JSON object (`perimeter run --runs N --json`), on one line:
    ///
    /// ```json
    /// {"runs":100,"seed":7,"events":[{"device":"phone","region":"cafe","kind":"enter","rule":null,
    /// "group":"crossing","n":1,"crossing":"2016-01-10T12:01:37.000Z","count":97,"share":0.97,
    /// "p5":"2016-01-10T12:01:41.000Z","p50":"2016-01-10T12:01:57.000Z","p95":"2016-01-10T12:02:12.000Z",
    /// "delay":{"median":20.0,"p90":31.0}}]}
    /// ```
    ///
    /// `seed` is run 0's noise seed; `group` is `crossing` (the n-th crossing of the key in the exact
    /// reference run, at `crossing`), `occurrence` (kinds not paired: the n-th event of the key within a
    /// run; `crossing` null) or `spurious` (the key's unpaired events; `n` 0, `count` the events, `share`
    /// the runs with any); times as in SEMANTICS §7, delays in seconds, `null` where there is none.
    public func json(seed: UInt64) -> String {
        let events = entries.map { entry in
            var crossing: Timestamp?
            var group = "occurrence"
            switch entry.group {
            case let .crossing(_, at): (group, crossing) = ("crossing", at)
            case .occurrence: break
            case .spurious: group = "spurious"
            }
            return JSONText.object([
                ("device", JSONText.string(entry.key.device)), ("region", JSONText.string(entry.key.region)),
                ("kind", JSONText.string(entry.key.kind.description)), ("rule", JSONText.string(entry.key.rule)),
                ("group", JSONText.string(group)), ("n", JSONText.integer(entry.n)), ("crossing", JSONText.time(crossing)),
                ("count", JSONText.integer(entry.count)), ("share", JSONText.number(entry.share)),
                ("p5", JSONText.time(entry.p5)), ("p50", JSONText.time(entry.p50)), ("p95", JSONText.time(entry.p95)),
                (
                    "delay",
                    JSONText.object([
                        ("median", JSONText.seconds(entry.delayMedian)),
                        ("p90", JSONText.seconds(entry.delayP90)),
                    ])
                ),
            ])
        }
        return JSONText.object([
            ("runs", JSONText.integer(runs)), ("seed", JSONText.integer(seed)), ("events", JSONText.array(events)),
        ])
    }

    /// The spread for people: a heading, then one line per row, with its share of runs, its time's p5,
    /// p50 and p95 (times of day on `day`'s UTC date, or on `zone`'s clocks, else in full) and, for a
    /// crossing, the median and p90 of the delay:
    ///
    /// ```
    /// Lunch at Lorrenzillo's: 100 runs, noise seeds 7 to 106
    /// share   p5        p50       p95       delay  p90   event
    ///  100 %  12:00:00  12:00:00  12:00:00               phone: monitor-start at lorrenzillos
    ///   97 %  12:01:41  12:01:57  12:02:12  12 s   31 s  phone: enter at lorrenzillos (1st crossing, 12:01:37)
    ///   40 %  12:20:02  12:31:10  12:44:51               phone: enter at lorrenzillos: 57 spurious
    /// ```
    public func readable(scenario: String, seed: UInt64, day: Timestamp, zone: LocalTimeZone? = nil) -> String {
        let last = seed &+ UInt64(Swift.max(0, runs - 1))
        var lines = [
            "\(scenario): \(runs) run\(runs == 1 ? "" : "s"), noise seed\(runs == 1 ? " \(seed)" : "s \(seed) to \(last)")"
        ]
        let rows = entries.map { entry -> [String] in
            var subject =
                "\(entry.key.device): \(entry.key.kind)" + (entry.key.rule.map { " \"\($0)\"" } ?? "")
                + " at \(entry.key.region)"
            switch entry.group {
            case let .crossing(n, at):
                subject += " (\(Self.ordinal(n)) crossing, \(Readable.time(at, day: day, zone: zone)))"
            case let .occurrence(n): if n > 1 { subject += " (\(Self.ordinal(n)))" }
            case .spurious: subject += ": \(entry.count) spurious"
            }
            let time = { (t: Timestamp?) in t.map { Readable.time($0, day: day, zone: zone) } ?? "-" }
            return [
                Self.percent(entry.share), time(entry.p5), time(entry.p50), time(entry.p95),
                entry.delayMedian.map(\.readable) ?? "", entry.delayP90.map(\.readable) ?? "", subject,
            ]
        }
        let header = ["share", "p5", "p50", "p95", "delay", "p90", "event"]
        let widths = (0..<6).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        for row in [header] + rows {
            var line = String(repeating: " ", count: widths[0] - row[0].count) + row[0]
            for column in 1..<6 {
                line += "  " + row[column] + String(repeating: " ", count: widths[column] - row[column].count)
            }
            lines.append(line + "  " + row[6])
        }
        if rows.isEmpty { lines.append("No run had any event.") }
        return TerminalText.lines(lines) + "\n"
    }

    /// `100 %`, `97 %`, `99.5 %`: the share in percent, to one decimal when not whole.
    public static func percent(_ share: Double) -> String {
        let tenths = (share * 1000).rounded()
        let whole = Int(tenths) / 10, fraction = Int(tenths) % 10
        return fraction == 0 ? "\(whole) %" : "\(whole).\(fraction) %"
    }

    /// `2nd`, `3rd`, `11th`.
    public static func ordinal(_ n: Int) -> String {
        let suffix =
            (11...13).contains(n % 100) ? "th" : (n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th")
        return "\(n)\(suffix)"
    }
}
