import Geodesy

/// The built-in profiles (SEMANTICS §8 table), each a table of fields: a value beside the source it
/// reproduces (a published measurement or document). The `-documented` profiles keep the documented
/// thresholds (revision 2's profiles); `ios`, `android` and `android-background` are fitted to field
/// measurements (revision 3), each value beside the figure it reproduces.
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
    public static var iosDocumented: Profile { builtIn(named: "ios-documented")! }
    public static var androidDocumented: Profile { builtIn(named: "android-documented")! }
    public static var androidBackgroundDocumented: Profile { builtIn(named: "android-background-documented")! }

    private static let tables: [BuiltInTable] = [
        iosFitted, androidFitted, androidBackgroundFitted, idealTable,
        iosTable.documented, androidTable.documented, androidBackgroundTable.documented,
    ]

    // MARK: Sources (SEMANTICS §8)

    private static let appleGuide = "Apple's Location and Maps Programming Guide"
    private static let androidAPI = "Android's Geofencing API"
    private static let androidDocs = "developer.android.com/training/location/geofencing (Troubleshooting)"
    private static let notModelled = "no documented value: the engine's default (SEMANTICS §8)"
    private static let radius2015 =
        "Radius Networks 2015 (developer.radiusnetworks.com/2015/08/28/geofence-performance-testing.html)"
    private static let samply2024 = "Shevchenko & Reips 2024 (Behavior Research Methods 56:6411–6439)"

    // MARK: Documented thresholds (revision 2's profiles, kept as NAME-documented)

    private static let iosTable = BuiltInTable(
        name: "ios", summary: "a labelled approximation of iOS region monitoring from \(appleGuide)",
        otherwise: notModelled,
        rows: [
            .init(MonitorOverrides(capacity: 20), source: "\(appleGuide): 20 regions per app"),
            .init(
                MonitorOverrides(refreshDistance: 500),
                source: "\(appleGuide): significant-change updates at \"500 meters or more\""),
            .init(
                MonitorOverrides(hysteresis: 200),
                source: "\(appleGuide): \"you can assume that the minimum distance is approximately 200 meters\""),
            .init(
                MonitorOverrides(confirmation: .seconds(20)),
                source: "\(appleGuide): \"remain at that minimum distance for at least 20 seconds\""),
            .init(
                MonitorOverrides(initialTrigger: InitialTrigger.none),
                source: "\(appleGuide): no event when already inside at registration"),
        ])

    private static let androidTable = BuiltInTable(
        name: "android", summary: "a labelled approximation of Android's geofencing in the foreground, from \(androidAPI)",
        otherwise: notModelled,
        rows: [
            .init(MonitorOverrides(capacity: 100), source: "\(androidAPI): 100 geofences per app"),
            .init(MonitorOverrides(refreshDistance: 500), source: "the same refresh as iOS (Android documents none)"),
            .init(MonitorOverrides(initialTrigger: .enter), source: "\(androidAPI): INITIAL_TRIGGER_ENTER"),
            .init(MonitorOverrides(accuracy: 20), source: "\(androidAPI): Wi-Fi location accuracy \"typically 20–50 m\""),
            .init(
                MonitorOverrides(enterConfidence: 0.85),
                source: "\(androidAPI): the location's circle overlaps the fence by 85 % to enter"),
            .init(
                MonitorOverrides(exitConfidence: 0.15),
                source: "\(androidAPI): 15 % or less to exit, no alert in between"),
        ])

    private static let androidBackgroundTable = androidTable.adding(
        name: "android-background", summary: "Android's geofencing under Android 8's background location limits",
        BuiltInTable.Row(
            MonitorOverrides(interval: .seconds(120)),
            source: "\(androidAPI): under Android 8's background limits a geofence is checked \"about every two minutes\""))

    // MARK: Fitted to field measurements (docs/FIDELITY.md shows each against its source)

    private static let iosFitted = BuiltInTable(
        name: "ios",
        summary: "iOS region monitoring as measured in the field (iOS 18–26, app in the background, not terminated)",
        otherwise: notModelled,
        rows: iosTable.rows.filter { $0.value.hysteresis == nil && $0.value.confirmation == nil } + [
            .init(
                MonitorOverrides(hysteresis: 55),
                source:
                    "exits fire 60–70 m past the boundary, \"consistently\" (react-native-background-geolocation#2597, iOS 26.3.1; #2353, iOS 18.5: 50–100 m): 55 m beyond the 10 m an enter reaches outside, 65 m in all"
            ),
            .init(
                MonitorOverrides(enterBuffer: -10),
                source:
                    "ENTER fires \"almost exactly at the edge\", before it when the fix is uncertain (flutter_background_geolocation#953): an enter may start up to 10 m outside"
            ),
            .init(
                MonitorOverrides(enterConfidence: 0.4),
                source:
                    "flutter_background_geolocation#953: an enter where 40 % of the fix's circle is inside (a fix at most 0.16 accuracies outside)"
            ),
            .init(
                MonitorOverrides(accuracy: 10),
                source: "smartphone GPS: 4.9 m at 95 % under open sky (gps.gov), about twice that in streets"),
            .init(
                MonitorOverrides(confirmation: .zero),
                source:
                    "exits at a distance whatever the speed (#2597), and 9-second drive-throughs of a 60 m fence detected (\(radius2015)): no time on the far side"
            ),
            .init(
                MonitorOverrides(delivery: Delivery(median: .seconds(5), p90: .seconds(20))),
                source: "\(radius2015): \"nearly every time within 30 seconds\""),
            .init(
                MonitorOverrides(missEnter: 0.06),
                source: "\(radius2015): 94 and 93 of about 100 triggers reported by each app"),
            .init(
                MonitorOverrides(missExit: 0.06),
                source: "as enters (no exit count published; \(samply2024) found exits as reliable as enters)"),
            .init(
                MonitorOverrides(
                    outliers: Outliers(
                        every: .seconds(6 * 3600), duration: .seconds(60), median: 500, p90: 2000, accuracyScale: 1)),
                source:
                    "enters kilometres away on very bad network fixes (owntracks/ios#76); trigger pins \"nearly 1000 meters away\" (\(radius2015))"
            ),
        ])

    /// The foreground (or a foreground service): no background limits.
    private static let androidFitted = BuiltInTable(
        name: "android", summary: "Android's geofencing as measured in the field, without background location limits",
        otherwise: notModelled,
        rows: androidTable.rows.filter { $0.value.accuracy == nil } + [
            .init(
                MonitorOverrides(accuracy: 10),
                source: "10 m fences entered at a rate of 0.65 (\(samply2024)): fixes of GPS accuracy, not Wi-Fi's 20–50 m"),
            .init(
                MonitorOverrides(delivery: Delivery(median: .seconds(20), p90: .seconds(90))),
                source:
                    "\(androidDocs): \"the latency is typically less than 2 minutes, even less when the device has been moving\""
            ),
            .init(
                MonitorOverrides(stationary: Stationary(after: .seconds(600), within: 25, interval: .seconds(360))),
                source:
                    "\(androidDocs): \"if the device has been stationary for a significant period of time, the latency may increase (up to 6 minutes)\""
            ),
            .init(MonitorOverrides(missEnter: 0.06), source: "no count without background limits: as iOS (\(radius2015))"),
            .init(MonitorOverrides(missExit: 0.06), source: "no count without background limits: as iOS (\(radius2015))"),
            .init(
                MonitorOverrides(
                    outliers: Outliers(
                        every: .seconds(6 * 3600), duration: .seconds(120), median: 300, p90: 1500, accuracyScale: 1.5)),
                source:
                    "network fixes of 200 m and 1,414 m accuracy in geofence logs (react-native-background-geolocation#2653, flutter_background_geolocation#1712); Android's accuracy is a 68 % radius, so a fix reports more than its usual error"
            ),
        ])

    private static let androidBackgroundFitted = BuiltInTable(
        name: "android-background",
        summary: "Android's geofencing as measured in the field, under Android 8's background location limits",
        otherwise: notModelled,
        rows: androidFitted.rows.filter { $0.value.delivery == nil && $0.value.missEnter == nil && $0.value.missExit == nil }
            + [
                .init(
                    MonitorOverrides(interval: .seconds(120)),
                    source:
                        "\(androidAPI): under background limits the device responds to geofencing events \"every couple of minutes\""
                ),
                .init(
                    MonitorOverrides(phase: .random),
                    source: "the check is the phone's, not the scenario clock's: its phase is drawn per device and run"),
                .init(
                    MonitorOverrides(delivery: Delivery(median: .seconds(60), p90: .seconds(150))),
                    source:
                        "\(androidDocs): \"the latency is about 2-3 minutes on average\" (a minute's wait for the check, and the broadcast's delay: android/location-samples#168)"
                ),
                .init(
                    MonitorOverrides(missEnter: 0.15),
                    source: "\(samply2024): overall sensitivity 82.5 % over 360 crossings"),
                .init(
                    MonitorOverrides(missExit: 0.15),
                    source: "\(samply2024): overall sensitivity 82.5 % over 360 crossings"),
            ])

    private static let idealTable = BuiltInTable(
        name: "ideal", summary: "ground truth: every crossing of every boundary at the tick it happens",
        otherwise: "ground truth (SEMANTICS §8): no delay, no margin, no limit",
        rows: [
            .init(MonitorOverrides(capacity: .some(nil)), source: "ground truth (SEMANTICS §8): every region monitored")
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
    static let neutral = MonitorSettings(
        capacity: nil, selection: .nearest, refreshDistance: 500, hysteresis: 0,
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
