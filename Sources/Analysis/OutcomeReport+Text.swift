import ReadableText
import TextEscaping
import Time

extension OutcomeReport {
    /// The report as one JSON object (`perimeter outcomes --json`), on one line:
    ///
    /// ```json
    /// {"runs":100,"seed":1,"outcomes":[{"rule":"coupon","truth":14,"profiles":{"ios":{"devices":{"p5":14,
    /// "median":16,"p95":17,"mean":15.93},"falsePositives":{"median":2,"mean":1.95},"falseNegatives":
    /// {"median":0,"mean":0.02},"perDevice":{"c01":1.0,"c02":0.97}}}},{"region":"store-1","kind":"enter",…}]}
    /// ```
    ///
    /// Outcomes in the scenario's order (rules, then each region's enter and visit), profiles in the order
    /// given, `perDevice` each device that got the outcome in the truth or in some run (in the scenario's
    /// order) with its share of runs (0 to 1; a device left out has 0): the output grows with what
    /// happened, not with outcomes × devices. Numbers as the event log writes them (`JSONText`).
    public var json: String {
        JSONText.object([
            ("runs", String(runs)), ("seed", String(seed)),
            ("outcomes", JSONText.array(outcomes.map(Self.rowJSON))),
        ])
    }

    /// One outcome's object (also `compare --json`'s `outcomes`).
    static func rowJSON(_ row: OutcomeRow) -> String {
        var members: [(String, String)]
        switch row.key {
        case let .rule(name): members = [("rule", JSONText.string(name))]
        case let .region(id, kind): members = [("region", JSONText.string(id)), ("kind", JSONText.string(kind.description))]
        }
        members.append(("truth", String(row.truth)))
        members.append(
            (
                "profiles",
                JSONText.object(
                    row.profiles.map { outcome in
                        (
                            outcome.profile,
                            JSONText.object([
                                (
                                    "devices",
                                    JSONText.object([
                                        ("p5", String(outcome.devices.p5)), ("median", String(outcome.devices.median)),
                                        ("p95", String(outcome.devices.p95)),
                                        ("mean", JSONText.number(outcome.devices.mean)),
                                    ])
                                ),
                                ("falsePositives", medianAndMean(outcome.falsePositives)),
                                ("falseNegatives", medianAndMean(outcome.falseNegatives)),
                                (
                                    "perDevice",
                                    JSONText.object(outcome.perDevice.map { ($0.device, JSONText.number($0.share)) })
                                ),
                            ])
                        )
                    })
            ))
        return JSONText.object(members)
    }

    private static func medianAndMean(_ spread: CountSpread) -> String {
        JSONText.object([("median", String(spread.median)), ("mean", JSONText.number(spread.mean))])
    }

    /// The report for people: a heading, then one line per outcome and profile: the devices that got it in
    /// the truth, and under the profile their p5, median, p95 and mean over the runs, and the median and
    /// mean of the false positives and false negatives:
    ///
    /// ```
    /// outcome                  truth  profile               p5  median   p95    mean  false+ med  mean  false- med  mean
    /// rule "coupon"               14  ios                   14      16    17   15.93           2  1.95           0  0.02
    /// ```
    public var readable: String {
        table + "\nCounts are of distinct devices per run; --json adds each device's share of runs.\n"
    }

    /// `readable` without its last line (which names `--json`): the report page's text of its table.
    public var table: String {
        var lines = [
            "\(scenario): devices that got each outcome, \(runs) run\(runs == 1 ? "" : "s") of each profile with noise seeds from \(seed) "
                + "(the truth: ideal on the exact tracks; clock from \(Readable.time(day, day: Timestamp(microsecondsSince1970: 0), zone: zone)))",
            "",
            Self.header,
        ]
        for row in outcomes {
            for (i, outcome) in row.profiles.enumerated() {
                lines.append(Self.line(i == 0 ? row : nil, outcome))
            }
        }
        return TerminalText.lines(lines) + "\n"
    }

    /// The table's header (`readable`, and the same columns in `compare`'s lines).
    static let header =
        pad("outcome", 24) + left("truth", 6) + "  " + pad("profile", 18)
        + ["p5", "median", "p95", "mean", "false+ med", "mean", "false- med", "mean"].enumerated().map {
            left($1, [5, 8, 6, 8, 12, 6, 12, 6][$0])
        }.joined()

    /// One line: the outcome and its truth (blank when `row` is nil: another profile of the same outcome).
    static func line(_ row: OutcomeRow?, _ outcome: ProfileOutcome) -> String {
        let d = outcome.devices, fp = outcome.falsePositives, fn = outcome.falseNegatives
        let values = [
            String(d.p5), String(d.median), String(d.p95), Readable.number(d.mean, decimals: 2),
            String(fp.median), Readable.number(fp.mean, decimals: 2), String(fn.median),
            Readable.number(fn.mean, decimals: 2),
        ]
        return pad(row.map { $0.key.description } ?? "", 24) + left(row.map { String($0.truth) } ?? "", 6) + "  "
            + pad(outcome.profile, 18)
            + values.enumerated().map { left($1, [5, 8, 6, 8, 12, 6, 12, 6][$0]) }.joined()
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(1, width - text.count))
    }

    private static func left(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(1, width - text.count)) + text
    }
}
