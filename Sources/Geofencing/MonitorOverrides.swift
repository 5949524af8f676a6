/// Settings given at one level (a `monitor:` block, a profile file, a built-in's row, a region entry, a
/// GeoJSON feature): each field set here replaces the value below. Sparse, in the table's order
/// (`MonitorField.all`): O(fields set) to apply.
///
/// In Swift, a field reads and sets as the optional of its setting's type (nil: not set):
///
/// ```swift
/// var o = MonitorOverrides(\.hysteresis, 30)
/// o.capacity = .some(nil)                                    // unlimited
/// o.delivery = .some(nil)                                    // none: the profile's delay switched off
/// let settings = o.applied(to: Profile.ios.settings)
/// let android = MonitorOverrides { $0.enterConfidence = 0.85; $0.exitConfidence = 0.15 }
/// ```
@dynamicMemberLookup
public struct MonitorOverrides: Hashable, Sendable {
    /// The values set, by row index, in table order.
    private var entries: [Entry] = []

    private struct Entry: Hashable, Sendable {
        var row: Int
        var value: MonitorValue
    }

    public init() {}

    /// One field set, by its key path: `MonitorOverrides(\.missEnter, 0.1)`; `(\.capacity, nil)` sets
    /// capacity to unlimited, `(\.delivery, nil)` switches delivery off.
    public init<Value>(_ path: WritableKeyPath<MonitorSettings, Value>, _ value: Value) {
        self[path] = .some(value)
    }

    /// The overrides `build` sets: `MonitorOverrides { $0.hysteresis = 50; $0.confirmation = .seconds(5) }`.
    public init(_ build: (inout MonitorOverrides) -> Void) {
        build(&self)
    }

    /// The field at `path` (`overrides.hysteresis`), as `self[path]`.
    public subscript<Value>(dynamicMember path: WritableKeyPath<MonitorSettings, Value>) -> Value? {
        get { self[path] }
        set { self[path] = newValue }
    }

    /// Whether no field is set.
    public var isEmpty: Bool { entries.isEmpty }

    /// The fields set here, in table order.
    public var fields: [MonitorField] { entries.map { MonitorField.all[$0.row] } }

    /// The keys of the fields set here (`hysteresis`, …), in table order.
    public var fieldsSet: [String] { fields.map(\.key) }

    /// The value set for `field`; nil when not set. Setting nil removes it. O(fields set).
    public subscript(field: MonitorField) -> MonitorValue? {
        get { MonitorField.all.firstIndex(of: field).flatMap { row in entries.first { $0.row == row }?.value } }
        set {
            guard let row = MonitorField.all.firstIndex(of: field) else { return }
            let at = entries.firstIndex { $0.row >= row } ?? entries.endIndex
            let present = at < entries.endIndex && entries[at].row == row
            switch (newValue, present) {
            case let (value?, true): entries[at].value = value
            case let (value?, false): entries.insert(Entry(row: row, value: value), at: at)
            case (nil, true): entries.remove(at: at)
            case (nil, false): break
            }
        }
    }

    /// The value set for the field at `path`, typed; nil when not set (`.some(nil)`: set to nil, as an
    /// unlimited capacity). Setting nil removes it. O(fields set + rows).
    public subscript<Value>(path: WritableKeyPath<MonitorSettings, Value>) -> Value? {
        get {
            guard let field = MonitorField.row(at: path), let value = self[field] else { return nil }
            var scratch = MonitorSettings.neutral
            field.set(value, in: &scratch)
            return scratch[keyPath: path]
        }
        set {
            guard let field = MonitorField.row(at: path) else { return }  // every stored field has a row
            guard let newValue else {
                self[field] = nil
                return
            }
            var scratch = MonitorSettings.neutral
            scratch[keyPath: path] = newValue
            self[field] = field.value(in: scratch)
        }
    }

    /// `base` with every field that is set here replaced. O(fields set).
    public func applied(to base: MonitorSettings) -> MonitorSettings {
        var s = base
        for entry in entries { MonitorField.all[entry.row].set(entry.value, in: &s) }
        return s
    }

    /// These overrides with `below`'s filling the fields not set here (a feature's properties over its
    /// file's defaults). O(fields set in both).
    public func over(_ below: MonitorOverrides) -> MonitorOverrides {
        var merged = below
        for entry in entries { merged[MonitorField.all[entry.row]] = entry.value }
        return merged
    }

    /// Those of these overrides whose fields `keep` admits.
    public func filter(_ keep: (MonitorField) -> Bool) -> MonitorOverrides {
        var kept = self
        kept.entries.removeAll { !keep(MonitorField.all[$0.row]) }
        return kept
    }
}

extension MonitorField {
    /// The row of the stored property at `path` of `MonitorSettings` (`\.hysteresis`); every stored
    /// property has one. O(rows).
    public static func row(at path: AnyKeyPath) -> MonitorField? { all.first { ($0.path as AnyKeyPath) == path } }
}
