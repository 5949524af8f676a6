import Foundation
import Geodesy

extension CalibrationResult {
    /// The fitted profile as a profile file (ScenarioFormat/ProfileFile.swift) that `run --profile FILE`
    /// and `profile: FILE` read: `name`, `base` (a built-in's name, or the base file's path as given),
    /// `source`, then each fitted field with its unit and, in a comment, its interval. `noise.sigma` is the
    /// scenario's, not the phone's: it is written as a comment only.
    public func profileFile(name: String, base baseReference: String) -> String {
        var lines = [
            "# Fitted by perimeter calibrate; each value's 90 % bootstrap interval is in its comment.",
            "name: \(Self.quoted(name))", "base: \(Self.quoted(baseReference))",
            "source: \(Self.quoted("perimeter calibrate \(scenario) on \(files.joined(separator: ", "))"))",
        ]
        let settings = profile.settings
        func interval(_ f: Fitted) -> String {
            "# \(Self.number(f.low))–\(Self.number(f.high)) \(f.parameter.unit.rawValue)"
        }
        func seconds(_ span: TimeSpan) -> String { Self.number(span.seconds) + "s" }
        var written: Set<String> = []
        for f in parameters {
            let name = f.parameter.name
            switch name {
            case "hysteresis", "enterBuffer": lines.append("\(name): \(Self.number(f.value))m  \(interval(f))")
            case "enterConfidence", "missEnter", "missExit": lines.append("\(name): \(Self.number(f.value))  \(interval(f))")
            case "confirmation": lines.append("confirmation: \(seconds(settings.confirmation))  \(interval(f))")
            case "interval": lines.append("interval: \(seconds(settings.interval))  \(interval(f))")
            case "stationary.interval":
                guard let s = settings.stationary else { continue }
                lines.append(
                    "stationary: {after: \(seconds(s.after)), within: \(Self.number(s.within))m, interval: \(seconds(s.interval))}  \(interval(f))"
                )
            case "delivery.median", "delivery.p90":
                guard let d = settings.delivery, !written.contains("delivery") else { continue }
                written.insert("delivery")
                let notes = parameters.filter { $0.parameter.name.hasPrefix("delivery.") }.map {
                    "\($0.parameter.name) \(Self.number($0.low))–\(Self.number($0.high)) s"
                }
                lines.append(
                    "delivery: {median: \(seconds(d.median)), p90: \(seconds(d.p90))}  # \(notes.joined(separator: ", "))")
            case "outliers.every":
                guard let o = settings.outliers else { continue }
                lines.append(
                    "outliers: {every: \(seconds(o.every)), duration: \(seconds(o.duration)), median: \(Self.number(o.median))m, "
                        + "p90: \(Self.number(o.p90))m, accuracy: \(Self.number(o.accuracyScale))}  \(interval(f))")
            case "noise.sigma":
                lines.append(
                    "# noise.sigma: \(Self.number(f.value)) m \(interval(f).dropFirst(2)) (the scenario's GPS noise, not the phone's: "
                        + "set noise: {sigma: \(Self.number(f.value))m} in a scenario)")
            default: continue
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A YAML double-quoted scalar.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
