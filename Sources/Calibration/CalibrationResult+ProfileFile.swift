import Foundation
import Geofencing
import TextEscaping
import Time

extension CalibrationResult {
    /// The fitted profile as a profile file (ScenarioFormat/ProfileFile.swift) that `run --profile FILE`
    /// and `profile: FILE` read: `name`, `base` (a built-in's name, or the base file's path as given),
    /// `source`, then each fitted field with its unit and, in a comment, its 90 % interval
    /// (`hysteresis: 90.0m  # 76.25 – 98.75 m`; a share's without a unit), and `intervals:`, the same
    /// intervals as data, which `profile show` prints. `noise.sigma` is the scenario's, not the phone's: it
    /// is written as a comment only.
    public func profileFile(name: String, base baseReference: String) -> String {
        var lines = [
            "# Fitted by perimeter calibrate; each value's 90 % bootstrap interval is in its comment and under intervals:.",
            "name: \(Self.quoted(name))", "base: \(Self.quoted(baseReference))",
            "source: \(Self.quoted("perimeter calibrate \(scenario) on \(files.joined(separator: ", "))"))",
        ]
        let settings = profile.settings
        func interval(_ f: Fitted) -> String {
            "\(Self.number(f.low)) – \(Self.number(f.high))"
                + (f.parameter.unit == .share ? "" : " " + f.parameter.unit.rawValue)
        }
        var written: Set<MonitorField> = []
        var intervals: [String] = []
        for f in parameters {
            guard let field = f.parameter.field else {  // the noise: the scenario's, a comment only
                lines.append(
                    "# \(f.parameter.name): \(Self.number(f.value)) m, 90 % interval \(interval(f)): the scenario's GPS noise, "
                        + "not the phone's; set noise: {sigma: \(Self.number(f.value))m} in a scenario")
                continue
            }
            intervals.append("  \(f.parameter.name): [\(Self.number(f.low)), \(Self.number(f.high))]")
            guard !written.contains(field), let text = Self.profileText(field.value(in: settings)) else { continue }
            written.insert(field)
            // A setting with several fitted parts names each part's interval; one fitted alone gives its own.
            let comment =
                field.fits.count > 1
                ? parameters.filter { $0.parameter.field == field }.map { "\($0.parameter.name) \(interval($0))" }
                    .joined(separator: ", ")
                : interval(f)
            lines.append("\(field.key): \(text)  # \(comment)")
        }
        if !intervals.isEmpty {
            lines.append("intervals:  # each fitted value's 90 % bootstrap interval [low, high], in its unit")
            lines += intervals
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A setting's value as a profile file writes it, with its unit (`12.5m`, `20s`, `0.85`,
    /// `{median: 5s, p90: 20s}`); nil for none (a fitted part's setting the base lacks).
    static func profileText(_ value: MonitorValue) -> String? {
        func seconds(_ span: TimeSpan) -> String { number(span.seconds) + "s" }
        switch value {
        case let .count(count): return count.map(String.init) ?? "unlimited"
        case let .choice(word): return word
        case let .meters(metres): return number(metres) + "m"
        case let .share(share): return number(share)
        case let .span(span): return seconds(span)
        case .phase(.random): return "random"
        case let .phase(.fixed(span)): return seconds(span)
        case let .stationary(s?):
            return "{after: \(seconds(s.after)), within: \(number(s.within))m, interval: \(seconds(s.interval))}"
        case let .outliers(o?):
            return "{every: \(seconds(o.every)), duration: \(seconds(o.duration)), median: \(number(o.median))m, "
                + "p90: \(number(o.p90))m, accuracy: \(number(o.accuracyScale))}"
        case let .delivery(d?): return "{median: \(seconds(d.median)), p90: \(seconds(d.p90))}"
        case .stationary(nil), .outliers(nil), .delivery(nil): return nil
        }
    }

    /// A YAML double-quoted scalar: a JSON string (`JSONText.string`), whose escapes YAML 1.2's double-quoted
    /// scalars share.
    static func quoted(_ text: String) -> String { JSONText.string(text) }
}
