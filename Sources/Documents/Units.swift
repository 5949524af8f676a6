import Geodesy
import NumberText
import Time

/// The scenario format's units (README "A first run" and docs/SCENARIO-REFERENCE.md): durations and distances, as numbers or as text.
public enum ScenarioUnits {
    /// A duration: a number of seconds (`20`, `0.5`, `-30`) or a number with a unit, `ms`, `s`, `m` or
    /// `min`, `h` (`"250ms"`, `"20s"`, `"5m"`, `"1.5h"`), a space between them allowed. The decimal text
    /// is read exactly, never through `Double`: nil when it is finer than a microsecond, out of range,
    /// or not of that form.
    public static func duration(_ text: String) -> TimeSpan? {
        guard let (number, unit) = split(text) else { return nil }
        let microsPerUnit: Int64
        switch unit {
        case "", "s": microsPerUnit = 1_000_000
        case "ms": microsPerUnit = 1000
        case "m", "min": microsPerUnit = 60_000_000
        case "h": microsPerUnit = 3_600_000_000
        default: return nil
        }
        guard let decimal = ExactDecimal(number) else { return nil }
        return decimal.scaled(by: microsPerUnit).map { TimeSpan(microseconds: $0) }
    }

    /// A distance in metres: a number of metres (`200`, `0.5`) or a number with the unit `m` or `km`
    /// (`"200m"`, `"1.5km"`). Nil when not of that form or not finite. The sign is kept: callers check
    /// ranges, so that the message can say what range was expected.
    public static func distance(_ text: String) -> Meters? {
        guard let (number, unit) = split(text), ExactDecimal(number) != nil, let value = Double(number) else {
            return nil
        }
        switch unit {
        case "", "m": return value.isFinite ? value : nil
        case "km": return (value * 1000).isFinite ? value * 1000 : nil
        default: return nil
        }
    }

    /// The number and the unit of `"1.5 km"`: trimmed, the unit being the trailing letters.
    private static func split(_ text: String) -> (Substring, Substring)? {
        let trimmed = text.trimmingSpaces
        var unitStart = trimmed.endIndex
        while unitStart > trimmed.startIndex {
            let before = trimmed.index(before: unitStart)
            guard trimmed[before].isLetter else { break }
            unitStart = before
        }
        let number = trimmed[..<unitStart].trimmingSpaces
        let unit = trimmed[unitStart...]
        guard !number.isEmpty else { return nil }
        return (number, unit)
    }
}

extension StringProtocol {
    package var trimmingSpaces: SubSequence {
        var s = self[...]
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return s
    }
}
