import Geodesy
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
    /// comes from `lines[field]` of that file (line 0 when unknown). The base chain gains this profile.
    public func derived(
        name: String, file: String, source: String?, overrides: MonitorOverrides,
        lines: [String: Int]
    ) -> Profile {
        var origins = origins
        for field in overrides.fieldsSet { origins[field] = .file(path: file, line: lines[field] ?? 0) }
        return Profile(
            name: name, settings: overrides.applied(to: settings), origins: origins, file: file,
            bases: [self.file ?? self.name] + bases, source: source, appState: appState)
    }

    /// Each field of `settings` in declaration order, with its value as people read it (with its unit) and
    /// its origin. New fields of `MonitorSettings` appear here without a change.
    public var fields: [(name: String, value: String, origin: ProfileOrigin?)] {
        Mirror(reflecting: settings).children.compactMap { child in
            guard let label = child.label else { return nil }
            return (label, Self.readable(child.value, field: label), origins[label])
        }
    }

    /// The fields measured in metres (a `Meters` is a `Double`, as a probability is).
    static let distanceFields: Set<String> = ["refreshDistance", "hysteresis", "enterBuffer", "accuracy"]

    /// A setting's value with its unit: `200 m`, `20 s`, `0.85`, `unlimited`, `nearest`.
    static func readable(_ value: Any, field: String) -> String {
        switch value {
        case let span as TimeSpan: return span.readable
        case let number as Double:
            let text = number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
            return distanceFields.contains(field) ? text + " m" : text
        case let phase as Phase:
            if case let .fixed(span) = phase { return span.readable }
            return "random"
        case let stationary as Stationary?:
            guard let s = stationary else { return "none" }
            return "after \(s.after.readable) within \(Readable.distance(s.within)): every \(s.interval.readable)"
        case let outliers as Outliers?:
            guard let o = outliers else { return "none" }
            return "every \(o.every.readable) for \(o.duration.readable), median \(Readable.distance(o.median)), "
                + "p90 \(Readable.distance(o.p90)), accuracy × \(readable(o.accuracyScale, field: ""))"
        case let delivery as Delivery?:
            guard let d = delivery else { return "none" }
            return "median \(d.median.readable), p90 \(d.p90.readable)"
        // after the optionals above: a nil casts to any
        case let count as Int?: return count.map(String.init) ?? "unlimited"
        case let choice as any RawRepresentable: return "\(choice.rawValue)"
        default: return String(describing: value)
        }
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

extension MonitorOverrides {
    /// The names of the fields set here (`hysteresis`, …), in declaration order; read by reflection, so a
    /// field added to `MonitorOverrides` is found without a change here.
    public var fieldsSet: [String] {
        Mirror(reflecting: self).children.compactMap { child in
            guard let label = child.label else { return nil }
            let value = Mirror(reflecting: child.value)
            return value.displayStyle == .optional && value.children.isEmpty ? nil : label
        }
    }
}
