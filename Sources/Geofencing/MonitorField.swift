import Geodesy
import Time

/// One monitor setting as a row of the settings table (`MonitorField.all`, in `MonitorSettings.swift`):
/// its key, the kind of value with its unit and range, its neutral default, the levels that may set it,
/// its SEMANTICS section, and what `calibrate` can fit of it. Everything that reads, merges, writes or
/// shows settings goes through the table: scenario `monitor:` blocks and profile files, region entries and
/// GeoJSON properties (`ScenarioFormat`), overrides (`MonitorOverrides`), `profile show`, the run
/// description, the profile file `calibrate -o` writes and calibrate's parameters. The engine reads the
/// resolved `MonitorSettings` only, never the table. Adding a setting is a row here and its rule.
public struct MonitorField: Hashable, Sendable, CustomStringConvertible {
    /// The key in a `monitor:` block, a profile file, a region entry or a GeoJSON feature's properties.
    public let key: String
    /// What its value is, with its unit and range (what the readers check).
    public let kind: Kind
    /// Where it may be set.
    public let levels: Levels
    /// The SEMANTICS section of its rule (`§5`).
    public let section: String
    /// Whether the run description leaves it out at its default (revision 3's settings: a revision-2
    /// run's description stays as it was).
    public let describedOnlyWhenSet: Bool
    /// What `calibrate` can fit of it: the field itself, or parts of it (`delivery.median`).
    public let fits: [Fit]
    /// The stored property of `MonitorSettings` it is.
    let path: PartialKeyPath<MonitorSettings> & Sendable
    let read: @Sendable (MonitorSettings) -> MonitorValue
    let write: @Sendable (inout MonitorSettings, MonitorValue) -> Void

    /// Where a setting may be given.
    public struct Levels: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// A profile file's top level (and a built-in's table).
        public static let profile = Levels(rawValue: 1)
        /// A scenario's `monitor:` block.
        public static let monitor = Levels(rawValue: 2)
        /// A scenario's region entry (and its defaults for a GeoJSON file's features).
        public static let region = Levels(rawValue: 4)
        /// A GeoJSON feature's `properties`.
        public static let geoJSON = Levels(rawValue: 8)
        /// What every setting allows: a profile and a scenario's `monitor:` block.
        public static let device: Levels = [.profile, .monitor]
        /// What a region's thresholds allow (SEMANTICS §5): every level.
        public static let everywhere: Levels = [.profile, .monitor, .region, .geoJSON]
    }

    /// The kind of a setting's value: how it is read and written, its unit and its range.
    public enum Kind: Hashable, Sendable {
        /// A number of regions, 1 or more, or `unlimited`.
        case count
        /// One of these words.
        case choice([String])
        /// Metres: 0 or more, or any sign with `signed`.
        case distance(signed: Bool)
        /// Seconds, 0 or more; with `onTicks` a multiple of the scenario's tick.
        case duration(onTicks: Bool)
        /// A plain number in `range` (a share or a probability); `expected` says what it is, for messages.
        case share(ClosedRange<Double>, expected: String)
        /// `random`, or a duration on the ticks below the interval.
        case phase
        /// `{after, within, interval}`, or `none`.
        case stationary
        /// `{every, duration, median, p90, accuracy}`, or `none`.
        case outliers
        /// `{median, p90}`, or `none`.
        case delivery

        /// The values a number of this kind may take: a distance of at most `Earth.farthest` either way
        /// (0 or more unless signed), a share in its range; nil for the other kinds. What every reader
        /// checks (`PlacedNode.distance` bounds a distance the same way).
        public var range: ClosedRange<Double>? {
            switch self {
            case let .distance(signed): return (signed ? -Earth.farthest : 0)...Earth.farthest
            case let .share(range, _): return range
            default: return nil
            }
        }

        /// The unit people read beside a value: `m`, `s`, or nothing.
        public var unit: String {
            switch self {
            case .distance: return "m"
            case .duration: return "s"
            default: return ""
            }
        }
    }

    /// The value every profile starts from (the engine's neutral one, ground truth's).
    public var defaultValue: MonitorValue { read(.neutral) }

    /// Its value in `settings`. O(1).
    public func value(in settings: MonitorSettings) -> MonitorValue { read(settings) }

    /// Sets it in `settings`; a value of another kind than this field's is ignored. O(1).
    public func set(_ value: MonitorValue, in settings: inout MonitorSettings) { write(&settings, value) }

    public var description: String { key }

    public static func == (a: MonitorField, b: MonitorField) -> Bool { a.key == b.key }
    public func hash(into hasher: inout Hasher) { hasher.combine(key) }

    /// The row called `key`, or nil.
    public static func named(_ key: String) -> MonitorField? { all.first { $0.key == key } }

    /// The keys of the rows that `level` allows, in table order.
    public static func keys(at level: Levels) -> [String] { all.filter { $0.levels.contains(level) }.map(\.key) }
}

/// A setting's value, of one of the kinds of `MonitorField.Kind`: what readers produce, overrides hold and
/// writers print, one case per kind.
public enum MonitorValue: Hashable, Sendable {
    /// nil: unlimited.
    case count(Int?)
    case choice(String)
    case meters(Meters)
    case span(TimeSpan)
    case share(Double)
    case phase(Phase)
    case stationary(Stationary?)
    case outliers(Outliers?)
    case delivery(Delivery?)
}

extension MonitorField {
    /// A row whose value is a key path of `MonitorSettings`, converted by `wrap` and `unwrap`.
    init<Value>(
        _ key: String, _ kind: Kind, _ path: WritableKeyPath<MonitorSettings, Value> & Sendable, levels: Levels,
        section: String, describedOnlyWhenSet: Bool = false, fits: [Fit] = [],
        wrap: @escaping @Sendable (Value) -> MonitorValue, unwrap: @escaping @Sendable (MonitorValue) -> Value?
    ) {
        self.key = key
        self.kind = kind
        self.levels = levels
        self.section = section
        self.describedOnlyWhenSet = describedOnlyWhenSet
        self.fits = fits
        self.path = path
        read = { wrap($0[keyPath: path]) }
        write = { settings, value in if let v = unwrap(value) { settings[keyPath: path] = v } }
    }

    static func distance(
        _ key: String, _ path: WritableKeyPath<MonitorSettings, Meters> & Sendable, signed: Bool = false,
        levels: Levels, section: String, fit: Fit? = nil
    ) -> MonitorField {
        MonitorField(
            key, .distance(signed: signed), path, levels: levels, section: section, fits: fit.map { [$0] } ?? [],
            wrap: { .meters($0) }, unwrap: { if case let .meters(v) = $0 { v } else { nil } })
    }

    static func duration(
        _ key: String, _ path: WritableKeyPath<MonitorSettings, TimeSpan> & Sendable, onTicks: Bool = false,
        levels: Levels, section: String, fit: Fit? = nil
    ) -> MonitorField {
        MonitorField(
            key, .duration(onTicks: onTicks), path, levels: levels, section: section, fits: fit.map { [$0] } ?? [],
            wrap: { .span($0) }, unwrap: { if case let .span(v) = $0 { v } else { nil } })
    }

    static func share(
        _ key: String, _ path: WritableKeyPath<MonitorSettings, Double> & Sendable, in range: ClosedRange<Double>,
        expected: String, levels: Levels, section: String, describedOnlyWhenSet: Bool = false, fit: Fit? = nil
    ) -> MonitorField {
        MonitorField(
            key, .share(range, expected: expected), path, levels: levels, section: section,
            describedOnlyWhenSet: describedOnlyWhenSet, fits: fit.map { [$0] } ?? [],
            wrap: { .share($0) }, unwrap: { if case let .share(v) = $0 { v } else { nil } })
    }

    static func choice<E: RawRepresentable & CaseIterable & Sendable>(
        _ key: String, _ path: WritableKeyPath<MonitorSettings, E> & Sendable, levels: Levels, section: String
    ) -> MonitorField where E.RawValue == String {
        MonitorField(
            key, .choice(E.allCases.map(\.rawValue)), path, levels: levels, section: section,
            wrap: { .choice($0.rawValue) }, unwrap: { if case let .choice(v) = $0 { E(rawValue: v) } else { nil } })
    }
}
