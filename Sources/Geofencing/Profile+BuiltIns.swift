import Geodesy

/// The built-in profiles (SEMANTICS §8 table), each a table of fields: a value beside the source it
/// reproduces (a published measurement or document). The `-documented` profiles keep the documented
/// thresholds; `ios`, `android` and `android-background` are where fitted values go.
extension Profile {
    /// Every built-in, in the order lists and help show them.
    public static let builtIns: [Profile] = tables.map(\.profile)

    /// The built-in called `name` (`ios`, `android-documented`, …), or nil.
    public static func builtIn(named name: String) -> Profile? { builtIns.first { $0.name == name } }

    /// The built-ins' names, in order.
    public static var builtInNames: [String] { builtIns.map(\.name) }

    public static var ios: Profile { builtIn(named: "ios")! }
    public static var android: Profile { builtIn(named: "android")! }
    public static var androidBackground: Profile { builtIn(named: "android-background")! }
    public static var ideal: Profile { builtIn(named: "ideal")! }

    private static let tables: [BuiltInTable] = [
        iosTable.named("ios"), androidTable.named("android"), androidBackgroundTable.named("android-background"),
        idealTable,
        iosTable.documented, androidTable.documented, androidBackgroundTable.documented,
    ]

    // MARK: Sources (SEMANTICS §8)

    private static let appleGuide = "Apple's Location and Maps Programming Guide"
    private static let androidAPI = "Android's Geofencing API"
    private static let notModelled = "no documented value: the engine's default (SEMANTICS §8)"

    // MARK: Tables

    private static let iosTable = BuiltInTable(
        name: "ios", summary: "a labelled approximation of iOS region monitoring from \(appleGuide)",
        otherwise: notModelled, rows: [
            .init(MonitorOverrides(capacity: 20), source: "\(appleGuide): 20 regions per app"),
            .init(MonitorOverrides(refreshDistance: 500),
                  source: "\(appleGuide): significant-change updates at \"500 meters or more\""),
            .init(MonitorOverrides(hysteresis: 200),
                  source: "\(appleGuide): \"you can assume that the minimum distance is approximately 200 meters\""),
            .init(MonitorOverrides(confirmation: .seconds(20)),
                  source: "\(appleGuide): \"remain at that minimum distance for at least 20 seconds\""),
            .init(MonitorOverrides(initialTrigger: InitialTrigger.none),
                  source: "\(appleGuide): no event when already inside at registration"),
        ])

    private static let androidTable = BuiltInTable(
        name: "android", summary: "a labelled approximation of Android's geofencing in the foreground, from \(androidAPI)",
        otherwise: notModelled, rows: [
            .init(MonitorOverrides(capacity: 100), source: "\(androidAPI): 100 geofences per app"),
            .init(MonitorOverrides(refreshDistance: 500), source: "the same refresh as iOS (Android documents none)"),
            .init(MonitorOverrides(initialTrigger: .enter), source: "\(androidAPI): INITIAL_TRIGGER_ENTER"),
            .init(MonitorOverrides(accuracy: 20), source: "\(androidAPI): Wi-Fi location accuracy \"typically 20–50 m\""),
            .init(MonitorOverrides(enterConfidence: 0.85),
                  source: "\(androidAPI): the location's circle overlaps the fence by 85 % to enter"),
            .init(MonitorOverrides(exitConfidence: 0.15),
                  source: "\(androidAPI): 15 % or less to exit, no alert in between"),
        ])

    private static let androidBackgroundTable = androidTable.adding(
        name: "android-background", summary: "Android's geofencing under Android 8's background location limits",
        BuiltInTable.Row(MonitorOverrides(interval: .seconds(120)),
              source: "\(androidAPI): under Android 8's background limits a geofence is checked \"about every two minutes\""))

    private static let idealTable = BuiltInTable(
        name: "ideal", summary: "ground truth: every crossing of every boundary at the tick it happens",
        otherwise: "ground truth (SEMANTICS §8): no delay, no margin, no limit", rows: [
            .init(MonitorOverrides(capacity: .some(nil)), source: "ground truth (SEMANTICS §8): every region monitored"),
        ])
}

/// One built-in profile as a table: each field it sets, beside its source; every other field keeps the
/// engine's neutral value (`neutral`), with the `otherwise` sentence as its source.
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
    var summary: String
    var otherwise: String
    var rows: [Row]

    /// The settings no profile has changed: ground truth's.
    static let neutral = MonitorSettings(capacity: nil, selection: .nearest, refreshDistance: 500, hysteresis: 0,
                                         enterBuffer: 0, confirmation: .zero, initialTrigger: .none)

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

    /// This table with `row` added, under another name and summary.
    func adding(name: String, summary: String, _ row: Row) -> BuiltInTable {
        BuiltInTable(name: name, summary: summary, otherwise: otherwise, rows: rows + [row])
    }

    /// The profile: the neutral settings with each row applied, each field's origin its row (or `otherwise`).
    var profile: Profile {
        var settings = Self.neutral
        var origins: [String: ProfileOrigin] = [:]
        for field in Mirror(reflecting: settings).children.compactMap(\.label) {
            origins[field] = .builtIn(name: name, source: otherwise)
        }
        for row in rows {
            settings = row.value.applied(to: settings)
            for field in row.value.fieldsSet { origins[field] = .builtIn(name: name, source: row.source) }
        }
        return Profile(name: name, settings: settings, origins: origins, source: summary)
    }
}
