import ReadableText
import TextEscaping

/// An empirical cumulative distribution chart in inline SVG: one step curve per side (observed, fitted,
/// base) drawn from its quantiles, with axes, tick labels, a `<title>` and a `<desc>` that say what it
/// shows (the table beside it is the text alternative). Coordinates to 0.1 of a unit (`Readable.number`).
/// O(levels × sides).
struct CalibrationChart {
    /// One curve: its name (`observed`), its CSS class, its quantiles at (i + ½) / count, ascending.
    struct Curve {
        var name: String
        var style: String
        var quantiles: [Double]
    }

    var title: String
    /// The measure's unit, `s` or `m`.
    var unit: String
    var curves: [Curve]

    static let width = 440.0, height = 230.0
    static let left = 46.0, right = 24.0, top = 12.0, bottom = 36.0

    private static func n(_ value: Double) -> String { Readable.number(value, decimals: 1) }

    /// The horizontal range: every curve's values, widened to 1 unit when they are all one value.
    var range: (low: Double, high: Double) {
        let all = curves.flatMap(\.quantiles)
        guard var low = all.min(), var high = all.max() else { return (0, 1) }
        if high - low < 1 { low -= 0.5; high += 0.5 }
        return (low, high)
    }

    func x(_ value: Double) -> Double {
        let (low, high) = range
        return Self.left + (value - low) / (high - low) * (Self.width - Self.left - Self.right)
    }

    static func y(_ share: Double) -> Double { height - bottom - share * (height - top - bottom) }

    /// The step path of a curve: from share 0 at its first value, up 1/count at each value.
    func path(_ curve: Curve) -> String {
        guard let first = curve.quantiles.first else { return "" }
        var d = "M\(Self.n(x(first))) \(Self.n(Self.y(0)))"
        let count = Double(curve.quantiles.count)
        for (i, value) in curve.quantiles.enumerated() {
            d += "H\(Self.n(x(value)))V\(Self.n(Self.y(Double(i + 1) / count)))"
        }
        return d
    }

    /// The `<svg>` element.
    var svg: String {
        let (low, high) = range
        let names = curves.map(\.name).joined(separator: ", ")
        var out =
            "<svg class=\"chart\" viewBox=\"0 0 \(Self.n(Self.width)) \(Self.n(Self.height))\" role=\"img\" xmlns=\"http://www.w3.org/2000/svg\">"
        out += "<title>\(XMLEscaping.text(title))</title>"
        out +=
            "<desc>\(XMLEscaping.text("Cumulative share of reported crossings (0 to 1, upwards) against the \(title.lowercased()) in \(unit) (\(Self.n(low)) to \(Self.n(high)) \(unit), rightwards), one step curve each for \(names)."))</desc>"
        let baseline = Self.n(Self.y(0)), ceiling = Self.n(Self.y(1))
        out +=
            "<g class=\"axes\"><path class=\"axis\" d=\"M\(Self.n(Self.left)) \(ceiling)V\(baseline)H\(Self.n(Self.width - Self.right))\"/>"
        for share in [0.0, 0.5, 1.0] {
            out +=
                "<text class=\"tick\" x=\"\(Self.n(Self.left - 4))\" y=\"\(Self.n(Self.y(share) + 4))\" text-anchor=\"end\">\(Self.n(share))</text>"
        }
        for i in 0...4 {
            let value = low + Double(i) / 4 * (high - low)
            out +=
                "<text class=\"tick\" x=\"\(Self.n(x(value)))\" y=\"\(Self.n(Self.height - Self.bottom + 14))\" text-anchor=\"middle\">\(Self.n(value))</text>"
        }
        out +=
            "<text class=\"tick\" x=\"\(Self.n((Self.left + Self.width - Self.right) / 2))\" y=\"\(Self.n(Self.height - 4))\" text-anchor=\"middle\">"
            + XMLEscaping.text("\(title.lowercased()) (\(unit))") + "</text></g>"
        for curve in curves where !curve.quantiles.isEmpty {
            out +=
                "<path class=\"curve \(XMLEscaping.attribute(curve.style))\" d=\"\(path(curve))\"><title>\(XMLEscaping.text(curve.name))</title></path>"
        }
        return out + "</svg>"
    }
}
