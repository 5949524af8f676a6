import Geodesy
import TextEscaping
import Time

extension TrackSummary {
    /// A few aligned lines for a person: counts, span, length, speeds, gaps, drops and bounds.
    public var text: String {
        var lines: [String] = [file]
        func add(_ label: String, _ value: String) {
            lines.append("  " + label + String(repeating: " ", count: max(1, 10 - label.count)) + value)
        }
        add("points", "\(points) <\(kind.rawValue)> in \(segments) segment\(segments == 1 ? "" : "s")")
        add("timing", timing == .timed ? "timed" : "paced (no times: one point per second)")
        if let start, let end, let duration {
            add("span", "\(start.iso8601) – \(end.iso8601) (\(formatDuration(duration)))")
        }
        var lengthText = formatMeters(length)
        if noiseInflatesLength {
            lengthText +=
                " (smoothed \(formatMeters(smoothedLength)): GPS noise makes the raw length \(format(length / max(1, smoothedLength), 1)) times the path)"
        }
        add("length", lengthText)
        if let averageSpeed, let maximumSpeed {
            var speed = "average \(format(averageSpeed, 2)) m/s, maximum \(format(maximumSpeed, 2)) m/s"
            if noiseInflatesSpeed {
                speed += " (smoothed maximum \(format(smoothedMaximumSpeed ?? 0, 2)) m/s: the raw maximum is GPS noise)"
            }
            add("speed", speed)
        }
        if gaps.isEmpty {
            add("gaps", "none over 60 s")
        } else {
            add("gaps", "\(gaps.count) over 60 s")
            for gap in gaps.prefix(20) {
                lines.append(
                    "    line \(gap.line): \(formatDuration(gap.duration)) from \(gap.from.iso8601)\(gap.betweenSegments ? " (between segments)" : "")"
                )
            }
            if gaps.count > 20 { lines.append("    … and \(gaps.count - 20) more") }
        }
        let drops = dropped.sorted { $0.key.rawValue < $1.key.rawValue }
        add("dropped", drops.isEmpty ? "none" : drops.map { "\($0.value) \($0.key.rawValue)" }.joined(separator: ", "))
        if let bounds {
            add(
                "bounds",
                "lat \(format(bounds.minLatitude, 6))…\(format(bounds.maxLatitude, 6)), lon \(format(bounds.minLongitude, 6))…\(format(bounds.maxLongitude, 6))"
            )
        }
        return lines.joined(separator: "\n")
    }

    /// One JSON object, keys in a fixed (alphabetical) order, times in ISO 8601 UTC, numbers in SI units.
    public var json: String {
        var fields: [(String, String)] = []
        fields.append(("averageSpeed", averageSpeed.map { format($0, 3) } ?? JSONText.null))
        if let b = bounds {
            fields.append(
                (
                    "bounds",
                    JSONText.object([
                        "maxLatitude": JSONText.number(b.maxLatitude), "maxLongitude": JSONText.number(b.maxLongitude),
                        "minLatitude": JSONText.number(b.minLatitude), "minLongitude": JSONText.number(b.minLongitude),
                    ])
                ))
        } else {
            fields.append(("bounds", JSONText.null))
        }
        let drops = dropped.sorted { $0.key.rawValue < $1.key.rawValue }.map {
            ($0.key.rawValue, JSONText.integer($0.value))
        }
        fields.append(("dropped", JSONText.object(drops)))
        fields.append(("duration", JSONText.number(duration?.seconds)))
        fields.append(("end", JSONText.string(end?.iso8601)))
        fields.append(("file", JSONText.string(file)))
        let gapList = gaps.map {
            JSONText.object([
                "betweenSegments": JSONText.bool($0.betweenSegments), "duration": JSONText.number($0.duration.seconds),
                "from": JSONText.string($0.from.iso8601), "line": JSONText.integer($0.line),
                "to": JSONText.string($0.to.iso8601),
            ])
        }
        fields.append(("gaps", JSONText.array(gapList)))
        fields.append(("kind", JSONText.string(kind.rawValue)))
        fields.append(("length", format(length, 3)))
        fields.append(("maximumSpeed", maximumSpeed.map { format($0, 3) } ?? JSONText.null))
        fields.append(("noiseInflatesLength", JSONText.bool(noiseInflatesLength)))
        fields.append(("noiseInflatesSpeed", JSONText.bool(noiseInflatesSpeed)))
        fields.append(("points", JSONText.integer(points)))
        fields.append(("segments", JSONText.integer(segments)))
        fields.append(("smoothedLength", format(smoothedLength, 3)))
        fields.append(("smoothedMaximumSpeed", smoothedMaximumSpeed.map { format($0, 3) } ?? JSONText.null))
        fields.append(("start", JSONText.string(start?.iso8601)))
        fields.append(("timing", JSONText.string(timing.rawValue)))
        return JSONText.object(fields)
    }
}

/// `value` with `digits` decimals, rounded half away from zero, without Foundation.
func format(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite else { return "null" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    guard scaled < 9e15 else { return "\(value)" }
    let whole = Int64(scaled)
    let unit = Int64(scale)
    var out = (value < 0 && whole != 0 ? "-" : "") + String(whole / unit)
    if digits > 0 {
        let fraction = String(whole % unit)
        out += "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }
    return out
}

private func formatMeters(_ m: Meters) -> String {
    m >= 1000 ? "\(format(m / 1000, 3)) km" : "\(format(m, 1)) m"
}

private func formatDuration(_ span: TimeSpan) -> String {
    let total = span.microseconds / 1_000_000
    let h = total / 3600, m = total / 60 % 60, s = total % 60
    let two = { (v: Int64) in v < 10 ? "0\(v)" : "\(v)" }
    return "\(h):\(two(m)):\(two(s))"
}
