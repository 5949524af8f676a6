import Analysis
import TextEscaping

extension CalibrationResult {
    /// A number as the JSON writes it: the shortest decimal, rounded to 1e-9 so that a sum of steps
    /// (0.1 + 0.2) prints as people wrote it.
    static func number(_ value: Double) -> String { JSONText.number((value * 1e9).rounded() / 1e9) }

    /// `--json`: one object (docs/CALIBRATE.md "Output"). Metres and seconds, probabilities in [0, 1].
    public var json: String {
        let parameters = self.parameters.map { f in
            (
                f.parameter.name,
                JSONText.object([
                    ("value", Self.number(f.value)), ("low", Self.number(f.low)), ("high", Self.number(f.high)),
                    ("unit", JSONText.string(f.parameter.unit.rawValue)), ("base", Self.number(f.base)),
                ])
            )
        }
        func side(_ s: HoldoutComparison.Side) -> String {
            JSONText.object([
                ("detection", s.detection.map(Self.number) ?? "null"),
                (
                    "delay",
                    s.delay.map { d in
                        JSONText.object([
                            ("p10", Self.number(d[0])), ("median", Self.number(d[1])), ("p90", Self.number(d[2])),
                        ])
                    } ?? "null"
                ),
            ])
        }
        let holdout = self.holdout.kinds.map { k in
            (
                k.kind.description,
                JSONText.object([
                    ("crossings", String(k.crossings)), ("observed", side(k.observed)), ("predicted", side(k.predicted)),
                ])
            )
        }
        let discrepancy =
            zip(TrueCrossings.kinds, self.discrepancy.kinds).map { kind, t in
                (
                    kind.description,
                    JSONText.object([
                        ("detection", Self.number(t.detection)), ("delay", Self.number(t.shapes[0])),
                        ("distance", Self.number(t.shapes[1])), ("lag", Self.number(t.shapes[2])),
                        ("spurious", Self.number(t.spurious)),
                    ])
                )
            } + [("total", Self.number(self.discrepancy.total))]
        return JSONText.object([
            ("base", JSONText.string(base.name)),
            ("parameters", JSONText.object(parameters)),
            (
                "crossings",
                JSONText.object([("fit", JSONText.integer(crossings.fit)), ("holdout", JSONText.integer(crossings.holdout))])
            ),
            ("holdout", JSONText.object(holdout)),
            ("discrepancy", JSONText.object(discrepancy)),
            ("runs", String(runs)), ("seed", String(seed)), ("replicates", String(replicates)),
            ("evaluations", String(evaluations)),
            ("health", JSONText.string(health)),
        ])
    }

    /// A value with its unit, for people: `70 m`, `30 s`, `0.2`.
    static func readable(_ value: Double, _ unit: CalibrationParameter.Unit) -> String {
        let text = number(value)
        switch unit {
        case .meters: return text + " m"
        case .seconds: return text + " s"
        case .share: return text
        }
    }

    private static func row(_ cells: [String], widths: [Int]) -> String {
        zip(cells, widths).map { cell, width in
            cell.count >= width ? cell : cell + String(repeating: " ", count: width - cell.count)
        }.joined(separator: "  ").trimmingTrailingSpaces
    }

    /// The table for people: parameter, value, interval, unit, change from the base; the crossings; the
    /// holdout comparison.
    public var readable: String {
        var lines = [
            "\(scenario): \(base.name) fitted to \(files.joined(separator: ", ")) "
                + "(\(runs) runs a candidate from seed \(seed), \(evaluations) candidates, \(replicates) bootstrap replicates)",
            "",
        ]
        let widths = [20, 10, 22, 5, 14]
        lines.append(Self.row(["parameter", "value", "90% interval", "unit", "from the base"], widths: widths))
        for f in parameters {
            let change = f.value - f.base
            let moved =
                change == 0 ? "unchanged" : (change > 0 ? "+" : "") + Self.number(change) + " (\(Self.number(f.base)))"
            lines.append(
                Self.row(
                    [
                        f.parameter.name, Self.number(f.value), "\(Self.number(f.low)) – \(Self.number(f.high))",
                        f.parameter.unit.rawValue, moved,
                    ], widths: widths))
        }
        if let measured = measuredDelivery {
            lines.append(
                "delivery.median and delivery.p90 are the median and 90th percentile of the log's \(measured.lags) lags "
                    + "(time − detectedAt) in the fit, not searched; their intervals come from resampling those lags.")
        }
        lines.append("")
        lines.append(
            "Crossings: \(crossings.fit) fitted, \(crossings.holdout) held out; spurious events in the log: "
                + zip(TrueCrossings.kinds, spurious).map { "\($1) \($0)" }.joined(separator: ", ") + ".")
        if crossings.holdout > 0 {
            lines.append("")
            lines.append(
                Self.row(
                    ["held out", "crossings", "reported", "predicted", "delay p10/median/p90", "predicted"],
                    widths: [9, 9, 9, 9, 22, 22]))
            for k in holdout.kinds {
                func rate(_ s: HoldoutComparison.Side) -> String {
                    s.detection.map { Self.number(($0 * 1000).rounded() / 1000) } ?? "–"
                }
                func delays(_ s: HoldoutComparison.Side) -> String {
                    s.delay.map { $0.map { Self.number(($0 * 10).rounded() / 10) }.joined(separator: " / ") + " s" } ?? "–"
                }
                lines.append(
                    Self.row(
                        [
                            "  " + k.kind.description, String(k.crossings), rate(k.observed), rate(k.predicted),
                            delays(k.observed), delays(k.predicted),
                        ], widths: [9, 9, 9, 9, 22, 22]))
            }
        }
        if !health.isEmpty {
            lines.append("")
            lines.append(health)
        }
        return TerminalText.lines(lines) + "\n"
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
