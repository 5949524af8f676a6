import ReadableText

/// A device profile (SEMANTICS §8): a name, the monitor's settings, and where each setting's value came
/// from. The built-ins (`Profile+BuiltIns.swift`) are labelled approximations of iOS and Android, and
/// ground truth; a profile file (`ScenarioFormat.ProfileFile`) starts from one of them and replaces fields.
///
/// ```swift
/// let android = Profile.builtIn(named: "android")!
/// android.origins["hysteresis"]   // .builtIn(name: "android", source: "Android's Geofencing API …")
/// ```
public struct Profile: Hashable, Sendable {
    /// What output prints: a built-in's name, or a profile file's `name:` (else its file name).
    public var name: String
    public var settings: MonitorSettings
    /// Where each field's value came from, by field name (`hysteresis`, the `monitor:` key).
    public var origins: [String: ProfileOrigin]
    /// The profile file this profile was read from; nil for a built-in.
    public var file: String?
    /// The bases below this profile, nearest first: profile files, then the built-in the chain ends in.
    public var bases: [String]
    /// What the profile reproduces, in words: a built-in's summary, or a profile file's `source:`.
    public var source: String?
    /// The 90 % bootstrap interval of each value `calibrate` fitted, by parameter name (`hysteresis`,
    /// `delivery.median`), in its unit: a fitted profile file's `intervals:`. A file that sets a field
    /// again drops its base's intervals of that field.
    public var intervals: [String: ClosedRange<Double>] = [:]
    /// The app state a built-in models (`suspended, region monitoring only`, …); a profile file keeps its
    /// base's. `profile show` prints it on its first line.
    public var appState: String?

    public init(
        name: String, settings: MonitorSettings, origins: [String: ProfileOrigin], file: String? = nil,
        bases: [String] = [], source: String? = nil, appState: String? = nil
    ) {
        self.name = name
        self.settings = settings
        self.origins = origins
        self.file = file
        self.bases = bases
        self.source = source
        self.appState = appState
    }

    /// This profile under another name, read from `file`, with `overrides` applied: each field it sets
    /// comes from `lines[field]` of that file (line 0 when unknown), and has the file's `intervals` only.
    /// The base chain gains this profile.
    public func derived(
        name: String, file: String, source: String?, overrides: MonitorOverrides,
        lines: [String: Int], intervals: [String: ClosedRange<Double>] = [:]
    ) -> Profile {
        var origins = origins
        for field in overrides.fieldsSet { origins[field] = .file(path: file, line: lines[field] ?? 0) }
        var derived = Profile(
            name: name, settings: overrides.applied(to: settings), origins: origins, file: file,
            bases: [self.file ?? self.name] + bases, source: source, appState: appState)
        let set = Set(overrides.fieldsSet)
        derived.intervals = self.intervals.filter { !set.contains(MonitorField.fitted(named: $0.key)?.field.key ?? "") }
            .merging(intervals) { $1 }
        return derived
    }

    /// Each setting in table order (`MonitorField.all`), with its value as people read it (with its unit),
    /// its origin, and the 90 % intervals of its fitted values (`76.25 – 98.75 m`; `median 3.5 – 5.5 s` for a
    /// part), nil when none was fitted.
    public var fields: [(name: String, value: String, origin: ProfileOrigin?, interval: String?)] {
        MonitorField.all.map { field in
            let fitted = field.fits.compactMap { fit -> String? in
                guard let range = intervals[field.name(of: fit)] else { return nil }
                return (fit.part.map { $0 + " " } ?? "") + fit.unit.interval(range)
            }
            return (
                field.key, field.value(in: settings).readable, origins[field.key],
                fitted.isEmpty ? nil : fitted.joined(separator: ", ")
            )
        }
    }
}

extension MonitorValue {
    /// The value with its unit, as `profile show` prints it: `200 m`, `20 s`, `0.85`, `unlimited`, `nearest`.
    public var readable: String {
        switch self {
        case let .count(count): return count.map(String.init) ?? "unlimited"
        case let .choice(word): return word
        case let .meters(metres): return Self.plain(metres) + " m"
        case let .span(span): return span.readable
        case let .share(share): return Self.plain(share)
        case let .phase(.fixed(span)): return span.readable
        case .phase(.random): return "random"
        case let .stationary(s):
            guard let s else { return "none" }
            return "after \(s.after.readable) within \(Readable.distance(s.within)): every \(s.interval.readable)"
        case let .outliers(o):
            guard let o else { return "none" }
            return "every \(o.every.readable) for \(o.duration.readable), median \(Readable.distance(o.median)), "
                + "p90 \(Readable.distance(o.p90)), accuracy × \(Self.plain(o.accuracyScale))"
        case let .delivery(d):
            guard let d else { return "none" }
            return "median \(d.median.readable), p90 \(d.p90.readable)"
        }
    }

    /// A number as `profile show` prints it: whole numbers without a point (`200`), others as Swift writes
    /// them (`0.85`).
    static func plain(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }
}

/// Where a profile's field got its value.
public enum ProfileOrigin: Hashable, Sendable {
    /// A built-in profile's table: its name and the published measurement or document the value reproduces.
    case builtIn(name: String, source: String)
    /// A line of a profile file (0 when unknown).
    case file(path: String, line: Int)

    /// `android: Android's Geofencing API …` or `phones/pixel-8.profile.yaml:7`.
    public var description: String {
        switch self {
        case let .builtIn(name, source): return "\(name): \(source)"
        case let .file(path, line): return line > 0 ? "\(path):\(line)" : path
        }
    }
}
