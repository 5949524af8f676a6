import Geodesy

extension EventSpread {
    /// The spread as one JSON object (`perimeter run --runs N --json`), on one line:
    ///
    /// ```json
    /// {"runs":100,"seed":7,"events":[{"device":"phone","region":"cafe","kind":"enter","rule":null,"n":1,
    /// "share":0.97,"p5":"2016-01-10T12:01:41.000Z","p50":"2016-01-10T12:01:57.000Z","p95":"2016-01-10T12:02:12.000Z"}]}
    /// ```
    ///
    /// `seed` is run 0's noise seed; times as in SEMANTICS §7; `rule` null unless `dwell`.
    public func json(seed: UInt64) -> String {
        let events = entries.map { entry in
            JSONText.object([
                ("device", JSONText.string(entry.key.device)), ("region", JSONText.string(entry.key.region)),
                ("kind", JSONText.string(entry.key.kind.description)), ("rule", JSONText.string(entry.key.rule)),
                ("n", String(entry.n)), ("share", JSONText.number(entry.share)),
                ("p5", JSONText.time(entry.p5)), ("p50", JSONText.time(entry.p50)), ("p95", JSONText.time(entry.p95)),
            ])
        }
        return JSONText.object([("runs", String(runs)), ("seed", String(seed)), ("events", JSONText.array(events))])
    }

    /// The spread for people: a heading, then one line per event key and occurrence, with its share of
    /// runs and its time's p5, p50 and p95 (times of day on `day`'s UTC date, or on `zone`'s clocks, else in full):
    ///
    /// ```
    /// Lunch at Lorrenzillo's: 100 runs, noise seeds 7 to 106
    /// share   p5        p50       p95       event
    ///  100 %  12:00:00  12:00:00  12:00:00  phone: monitor-start at lorrenzillos
    ///   97 %  12:01:41  12:01:57  12:02:12  phone: enter at lorrenzillos
    /// ```
    public func readable(scenario: String, seed: UInt64, day: Timestamp, zone: LocalTimeZone? = nil) -> String {
        let last = seed &+ UInt64(Swift.max(0, runs - 1))
        var lines = ["\(scenario): \(runs) run\(runs == 1 ? "" : "s"), noise seed\(runs == 1 ? " \(seed)" : "s \(seed) to \(last)")"]
        let rows = entries.map { entry -> [String] in
            var subject = "\(entry.key.device): \(entry.key.kind)" + (entry.key.rule.map { " \"\($0)\"" } ?? "")
                + " at \(entry.key.region)"
            if entry.n > 1 { subject += " (\(Self.ordinal(entry.n)))" }
            return [Self.percent(entry.share), Readable.time(entry.p5, day: day, zone: zone),
                    Readable.time(entry.p50, day: day, zone: zone), Readable.time(entry.p95, day: day, zone: zone), subject]
        }
        let widths = (0..<4).map { column in ([["share", "p5", "p50", "p95"]] + rows).map { $0[column].count }.max()! }
        for row in [["share", "p5", "p50", "p95", "event"]] + rows {
            var line = String(repeating: " ", count: widths[0] - row[0].count) + row[0]
            for column in 1..<4 { line += "  " + row[column] + String(repeating: " ", count: widths[column] - row[column].count) }
            lines.append(line + "  " + row[4])
        }
        if rows.isEmpty { lines.append("No run had any event.") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `100 %`, `97 %`, `99.5 %`: the share in percent, to one decimal when not whole.
    public static func percent(_ share: Double) -> String {
        let tenths = (share * 1000).rounded()
        let whole = Int(tenths) / 10, fraction = Int(tenths) % 10
        return fraction == 0 ? "\(whole) %" : "\(whole).\(fraction) %"
    }

    /// `2nd`, `3rd`, `11th`.
    public static func ordinal(_ n: Int) -> String {
        let suffix = (11...13).contains(n % 100) ? "th" : (n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th")
        return "\(n)\(suffix)"
    }
}
