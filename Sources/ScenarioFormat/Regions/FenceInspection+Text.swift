import Geodesy
import Geofencing
import ReadableText
import TextEscaping

extension FenceInspection {
    /// For people: a line a fence (its shape, area, depth and enclosing radius), its near neighbours, and a
    /// line a profile (enters or never; how far outside an exit needs a fix, and whether that is farther
    /// than the fence is wide or than a neighbour lies). O(fences × profiles).
    public var text: String {
        var lines = [
            "\(TerminalText.visible(file)): \(fences.count) fence\(fences.count == 1 ? "" : "s"), "
                + "under \(profiles.map(\.name).joined(separator: ", "))"
        ]
        let width = max(10, profiles.map(\.name.count).max() ?? 0) + 2
        func padded(_ text: String) -> String { text + String(repeating: " ", count: max(1, width - text.count)) }
        for fence in fences {
            let region = fence.region
            let name = region.name.map { " (\(TerminalText.visible($0)))" } ?? ""
            let kind: String
            switch region.shape {
            case .circle: kind = "circle"
            case .polygon: kind = "polygon"
            }
            lines.append(
                "\(TerminalText.visible(region.id))\(name): \(kind), area \(Self.area(fence.area)), "
                    + "\(metres(fence.depth)) deep at most, enclosing radius \(metres(fence.enclosingRadius))")
            if !fence.neighbours.isEmpty {
                let listed = fence.neighbours.prefix(5).map { "\"\(TerminalText.visible($0.id))\" \(metres($0.gap)) away" }
                let more = fence.neighbours.count > 5 ? ", and \(fence.neighbours.count - 5) more" : ""
                lines.append("  " + padded("neighbours") + listed.joined(separator: ", ") + more)
            }
            for verdict in fence.verdicts {
                lines.append("  " + padded(verdict.profile) + Self.verdictText(verdict, fence))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `enters (a fix 11.7 m inside); exits 200 m outside, past its 32 m radius, and LX-102 lies within that`,
    /// or `never enters: …`.
    static func verdictText(_ verdict: Verdict, _ fence: Fence) -> String {
        guard verdict.canEnter else {
            let unenterable = UnenterableRegion(index: 0, accuracy: verdict.accuracy, enter: verdict.enter)
            return "NEVER ENTERS: " + unenterable.reason(shape: fence.region.shape)
        }
        var text =
            verdict.enter.neededDepth > 0
            ? "enters at a fix \(metres(verdict.enter.neededDepth)) inside" : "enters at the boundary"
        text += "; exits at a fix \(metres(verdict.exit.needed)) outside"
        var cautions: [String] = []
        if verdict.exitsLate(fence) {
            cautions.append("farther than its \(metres(fence.enclosingRadius)) radius: LATE EXITS")
        }
        if let first = verdict.neighboursWithin.first {
            let more = verdict.neighboursWithin.count > 1 ? " and \(verdict.neighboursWithin.count - 1) more" : ""
            cautions.append("\"\(TerminalText.visible(first))\"\(more) nearer than that: a visit there is still inside")
        }
        if !cautions.isEmpty { text += " (" + cautions.joined(separator: "; ") + ")" }
        return text
    }

    /// One JSON object: `file`, `profiles`, and `fences`, each with `id`, `name`, `shape`, `area` (m²),
    /// `depth`, `enclosingRadius` and `neighbours` (`{id, gap}`, metres) and per profile `enters`,
    /// `enterDepth`, `exitDistance`, `exitsLate` and `neighboursWithin`. Keys in a fixed order.
    public var json: String {
        func number(_ value: Double) -> String { Readable.number(value, decimals: 3) }
        let fenceObjects = fences.map { fence -> String in
            let region = fence.region
            let shape: String
            switch region.shape {
            case .circle: shape = "circle"
            case .polygon: shape = "polygon"
            }
            let neighbours = fence.neighbours.map {
                JSONText.object([("id", JSONText.string($0.id)), ("gap", number($0.gap))])
            }
            let verdicts = fence.verdicts.map { verdict in
                JSONText.object([
                    ("profile", JSONText.string(verdict.profile)), ("enters", JSONText.bool(verdict.canEnter)),
                    ("enterDepth", number(verdict.enter.neededDepth)), ("exitDistance", number(verdict.exit.needed)),
                    ("exitsLate", JSONText.bool(verdict.exitsLate(fence))),
                    ("neighboursWithin", JSONText.array(verdict.neighboursWithin.map(JSONText.string))),
                ])
            }
            return JSONText.object([
                ("id", JSONText.string(region.id)), ("name", JSONText.string(region.name)),
                ("shape", JSONText.string(shape)), ("area", number(fence.area)), ("depth", number(fence.depth)),
                ("enclosingRadius", number(fence.enclosingRadius)), ("neighbours", JSONText.array(neighbours)),
                ("profiles", JSONText.array(verdicts)),
            ])
        }
        return JSONText.object([
            ("file", JSONText.string(file)), ("profiles", JSONText.array(profiles.map { JSONText.string($0.name) })),
            ("fences", JSONText.array(fenceObjects)),
        ])
    }

    /// An area for people: `1,963 m²`, `2.5 km²` from a square kilometre up.
    static func area(_ squareMetres: Double) -> String {
        squareMetres < 1e6
            ? Readable.grouped(Int64(squareMetres.rounded())) + " m²"
            : Readable.number(squareMetres / 1e6, decimals: 2) + " km²"
    }
}

/// A distance for people, to a tenth of a metre: `11.7 m`, `200 m`.
private func metres(_ value: Meters) -> String { Readable.metres(value) }
