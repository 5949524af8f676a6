/// The built-in profiles (SEMANTICS §8 table), each a table of fields: a value beside its provenance.
/// Each built-in models one app state (`appState`). A provenance names its source as `[ID]`
/// (docs/sources/ID.md) and quotes it verbatim, or starts `fitted:` (chosen so that rows of
/// docs/FIDELITY.md agree) or `assumption:` (a choice no source states); `ProvenanceTests` checks it.
/// The `-documented` profiles keep the documented thresholds (revision 2's profiles).
extension Profile {
    /// Every built-in, in the order lists and help show them.
    public static let builtIns: [Profile] = tables.map(\.profile)

    /// The built-in called `name` (`ios`, `android-documented`, …), or nil.
    public static func builtIn(named name: String) -> Profile? { builtIns.first { $0.name == name } }

    /// The built-in called `name`, one of the names below.
    private static func known(_ name: String) -> Profile {
        // Invariant: every name below is a row of `tables` (`BuiltInProfileTests` reads each).
        // swift-format-ignore: NeverForceUnwrap
        builtIn(named: name)!
    }

    /// The built-ins' names, in order.
    public static var builtInNames: [String] { builtIns.map(\.name) }

    public static var ios: Profile { known("ios") }
    public static var iosGPS: Profile { known("ios-gps") }
    public static var iosTerminated: Profile { known("ios-terminated") }
    public static var android: Profile { known("android") }
    public static var androidBackground: Profile { known("android-background") }
    public static var androidIdle: Profile { known("android-idle") }
    public static var ideal: Profile { known("ideal") }
    public static var iosDocumented: Profile { known("ios-documented") }
    public static var androidDocumented: Profile { known("android-documented") }
    public static var androidBackgroundDocumented: Profile { known("android-background-documented") }

    /// Every built-in's provenance strings (each field's source and each `otherwise`), by profile name:
    /// what `ProvenanceTests` checks against docs/sources/.
    public static var builtInProvenance: [(profile: String, source: String)] {
        tables.flatMap { table in
            [(table.name, table.otherwise)] + table.rows.map { (table.name, $0.source) }
        }
    }

    private static let tables: [BuiltInTable] = [
        iosSuspended, iosGPSTable, iosTerminatedTable, androidFitted, androidBackgroundFitted,
        androidIdleTable, idealTable,
        iosTable.documented, androidTable.documented, androidBackgroundTable.documented,
    ]

    private static let idealTable = BuiltInTable(
        name: "ideal", appState: "ground truth (no phone)",
        summary: "ground truth: every crossing of every boundary at the tick it happens",
        otherwise: "assumption: ground truth (SEMANTICS §8): no delay, no margin, no limit",
        rows: [
            .init(MonitorOverrides(\.capacity, nil), source: "assumption: ground truth: every region monitored")
        ])
}

/// One built-in profile as a table: each field it sets, beside its source; every other field keeps the
/// engine's neutral value (`MonitorSettings.neutral`), with the `otherwise` sentence as its source.
struct BuiltInTable {
    /// One field's value (a `MonitorOverrides` that sets it alone) and the source it reproduces.
    struct Row {
        var value: MonitorOverrides
        var source: String

        init(_ value: MonitorOverrides, source: String) {
            self.value = value
            self.source = source
        }
    }

    var name: String
    /// The app state the profile models, as `profile show` prints it.
    var appState: String
    var summary: String
    var otherwise: String
    var rows: [Row]

    /// The same table under another name.
    func named(_ newName: String) -> BuiltInTable {
        var copy = self
        copy.name = newName
        return copy
    }

    /// The same table as `NAME-documented`: the documented thresholds, kept when fitted values replace them.
    var documented: BuiltInTable {
        var copy = named(name + "-documented")
        copy.summary += " (the documented thresholds)"
        return copy
    }

    /// This table with `row` added, under another name, app state and summary.
    func adding(name: String, appState: String, summary: String, _ row: Row) -> BuiltInTable {
        BuiltInTable(name: name, appState: appState, summary: summary, otherwise: otherwise, rows: rows + [row])
    }

    /// This table's rows without those setting any of the fields at `paths`, then `added` (a fitted table
    /// on a base).
    func rowsReplacing(_ paths: [PartialKeyPath<MonitorSettings>], with added: [Row]) -> [Row] {
        let fields = Set(paths.compactMap { MonitorField.row(at: $0) })
        return rows.filter { fields.isDisjoint(with: $0.value.fields) } + added
    }

    /// The profile: the neutral settings with each row applied, each field's origin its row (or `otherwise`).
    var profile: Profile {
        var settings = MonitorSettings.neutral
        var origins: [String: ProfileOrigin] = [:]
        for field in MonitorField.all { origins[field.key] = .builtIn(name: name, source: otherwise) }
        for row in rows {
            settings = row.value.applied(to: settings)
            for field in row.value.fieldsSet { origins[field] = .builtIn(name: name, source: row.source) }
        }
        return Profile(name: name, settings: settings, origins: origins, source: summary, appState: appState)
    }
}
