import Calibration
import Geofencing
import Mustache
import ReadableText
import TextEscaping

/// `perimeter calibrate --report FILE`: a calibration's observed and fitted distributions side by side as
/// one self-contained HTML page (docs/CALIBRATE.md "Output"): per kind the detection rates (fit and
/// holdout) and the delay, true distance and delivery lag as cumulative distribution charts (observed,
/// fitted, base), the parameter table, the discrepancy terms, the field log's free columns. Made from
/// `CalibrationResult` alone (the fit is not run again); every text is escaped by `XMLEscaping` when the
/// model is made, so the template's tags are all `{{{…}}}`. Deterministic bytes for a result.
///
/// ```swift
/// let html = CalibrationPage(calibration.fit(), commandLine: ["perimeter", "calibrate", "store.yaml", …]).html()
/// ```
public struct CalibrationPage: Sendable {
    public let result: CalibrationResult
    public let commandLine: [String]

    public init(_ result: CalibrationResult, commandLine: [String]) {
        self.result = result
        self.commandLine = commandLine
    }

    /// The whole page.
    public func html() -> String {
        let template: MustacheTemplate
        do {
            template = try MustacheTemplate(string: CalibrationTemplate.page)
        } catch {
            preconditionFailure("the calibration template does not parse: \(error)")
        }
        return template.render(model)
    }

    private static func e(_ text: String) -> String { XMLEscaping.text(text) }
    private static func rate(_ share: Double?) -> String { share.map { Readable.number($0, decimals: 3) } ?? "–" }
    private static func value(_ v: Double) -> String { Readable.number(v, decimals: 3) }

    /// The template's values, every text already escaped.
    var model: [String: Any] {
        let r = result
        let parameters: [[String: Any]] = r.parameters.map { f in
            let unit = f.parameter.unit.rawValue == "1" ? "" : f.parameter.unit.rawValue
            let change = f.value - f.base
            return [
                "name": Self.e(f.parameter.name), "value": Self.value(f.value), "low": Self.value(f.low),
                "high": Self.value(f.high),
                "unit": Self.e(unit), "base": Self.value(f.base),
                "change": change == 0 ? "unchanged" : (change > 0 ? "+" : "") + Self.value(change),
            ]
        }
        let kinds: [[String: Any]] = r.distributions.kinds.enumerated().map { k, d in kindModel(k, d) }
        let discrepancy: [[String: Any]] = zip(r.distributions.kinds, r.discrepancy.kinds).map { d, t in
            [
                "kind": Self.e(d.kind.description), "detection": Self.value(t.detection), "delay": Self.value(t.shapes[0]),
                "distance": Self.value(t.shapes[1]), "lag": Self.value(t.shapes[2]), "spurious": Self.value(t.spurious),
                "total": Self.value(t.total),
            ]
        }
        let columns: [[String: Any]] = r.freeColumns.map { c in
            [
                "column": Self.e(c.column),
                "counts": c.counts.map { ["value": Self.e($0.value), "events": String($0.events)] },
            ]
        }
        return [
            "title": Self.e(r.scenario),
            "subtitle": Self.e(
                "\(r.base.name) fitted to \(r.files.joined(separator: ", ")): \(r.runs) runs a candidate from seed \(r.seed), "
                    + "\(r.evaluations) candidates, \(r.replicates) bootstrap replicates"),
            "commandLine": Self.e(ShellText.line(commandLine)),
            "seed": String(r.seed), "runs": String(r.runs),
            "parameters": parameters,
            "fitCrossings": String(r.crossings.fit), "holdoutCrossings": String(r.crossings.holdout),
            "kinds": kinds,
            "discrepancy": discrepancy, "discrepancyTotal": Self.value(r.discrepancy.total),
            "hasColumns": !columns.isEmpty, "columns": columns,
        ]
    }

    /// One kind's section: its detection table and its charts.
    private func kindModel(_ k: Int, _ d: CalibrationDistributions.Kind) -> [String: Any] {
        let kind = d.kind.description
        let perCrossing = { (spurious: Double) in Self.value(spurious) }
        var rows: [[String: Any]] = [
            [
                "side": "observed (fit)", "crossings": String(d.crossings), "detection": Self.rate(d.observed.detection),
                "spurious": perCrossing(d.spurious[0]),
            ],
            [
                "side": "fitted profile", "crossings": String(d.crossings), "detection": Self.rate(d.fitted.detection),
                "spurious": perCrossing(d.spurious[1]),
            ],
            [
                "side": Self.e("base profile (\(result.base.name))"), "crossings": String(d.crossings),
                "detection": Self.rate(d.base.detection),
                "spurious": perCrossing(d.spurious[2]),
            ],
        ]
        if let held = result.holdout.kinds.first(where: { $0.kind == d.kind }), held.crossings > 0 {
            rows.append([
                "side": "observed (held out)", "crossings": String(held.crossings),
                "detection": Self.rate(held.observed.detection), "spurious": "–",
            ])
            rows.append([
                "side": "predicted (held out)", "crossings": String(held.crossings),
                "detection": Self.rate(held.predicted.detection), "spurious": "–",
            ])
        }
        let measures: [(name: String, title: String, unit: String)] = [
            ("delay", "Delay after the true crossing", "s"),
            ("distance", "True distance from the boundary when the phone decided", "m"),
            ("lag", "Delivery lag after the decision", "s"),
        ]
        var charts: [[String: Any]] = []
        for (m, measure) in measures.enumerated() where m < 2 || result.distributions.hasLag {
            let sides: [(String, String, CalibrationDistributions.Side)] = [
                ("observed", "observed", d.observed), ("fitted", "fitted", d.fitted),
                ("base (\(result.base.name))", "base", d.base),
            ]
            let chart = CalibrationChart(
                title:
                    "\(kind.prefix(1).uppercased() + kind.dropFirst()): \(measure.title.prefix(1).lowercased() + measure.title.dropFirst())",
                unit: measure.unit,
                curves: sides.map { CalibrationChart.Curve(name: $0.0, style: $0.1, quantiles: $0.2.quantiles[m] ?? []) })
            // The text alternative: the 10th, 50th and 90th percentiles (levels 4, 24 and 44 of 50) of each side.
            let quantiles: [[String: Any]] = sides.map { name, _, side in
                let q = side.quantiles[m]
                return [
                    "side": Self.e(name), "values": Readable.number(side.values[m], decimals: 2),
                    "p10": q.map { Readable.number($0[4], decimals: 1) } ?? "–",
                    "median": q.map { Readable.number($0[24], decimals: 1) } ?? "–",
                    "p90": q.map { Readable.number($0[44], decimals: 1) } ?? "–",
                ]
            }
            charts.append([
                "svg": chart.svg, "caption": Self.e(chart.title + " (\(measure.unit))"), "unit": measure.unit,
                "quantiles": quantiles,
            ])
        }
        return ["kind": Self.e(kind), "index": String(k), "rows": rows, "charts": charts]
    }
}
