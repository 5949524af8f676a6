/// The documented thresholds (revision 2's profiles, kept as `NAME-documented`), each row beside the
/// document it comes from (docs/sources/).
extension Profile {
    static let notModelled = "assumption: no documented value, the engine's default (SEMANTICS §8)"

    static let iosTable = BuiltInTable(
        name: "ios", appState: "any (Apple's documented thresholds)",
        summary: "a labelled approximation of iOS region monitoring from Apple's Location and Maps Programming Guide",
        otherwise: notModelled,
        rows: [
            .init(
                MonitorOverrides(\.capacity, 20),
                source:
                    "[apple-location-guide] \"Core Location limits to 20 the number of regions that may be simultaneously monitored by a single app\""
            ),
            .init(
                MonitorOverrides(\.refreshDistance, 500),
                source:
                    "assumption: significant-change updates every 500 m or more (earlier revisions' reading of Apple's guide, not found again: docs/sources/apple-location-guide.md)"
            ),
            .init(
                MonitorOverrides(\.hysteresis, 200),
                source:
                    "assumption: Apple's minimum distance taken as 200 m (earlier revisions' reading of the guide for testing, not found again); [cordova-541] \"iOS geofences typically don't fire **exit** until the device has moved about 200 meters outside.\""
            ),
            .init(
                MonitorOverrides(\.confirmation, .seconds(20)),
                source:
                    "[apple-location-guide] \"remain at that minimum distance for at least 20 seconds before the notifications are reported.\""
            ),
            .init(
                MonitorOverrides(\.initialTrigger, InitialTrigger.none),
                source: "assumption: no event when already inside at registration"),
        ])

    static let androidTable = BuiltInTable(
        name: "android", appState: "any (Android's documented thresholds)",
        summary: "a labelled approximation of Android's geofencing in the foreground, from Android's Geofencing API",
        otherwise: notModelled,
        rows: [
            .init(
                MonitorOverrides(\.capacity, 100),
                source:
                    "[android-geofencing] \"You can have multiple active geofences, with a limit of 100 per app, per device user.\""
            ),
            .init(
                MonitorOverrides(\.refreshDistance, 500),
                source: "assumption: the same refresh as iOS (Android documents none)"),
            .init(
                MonitorOverrides(\.initialTrigger, .enter),
                source: "assumption: INITIAL_TRIGGER_ENTER, the initial trigger Android's guide uses in its example"),
            .init(
                MonitorOverrides(\.accuracy, 20),
                source:
                    "assumption: Wi-Fi fixes of 20 m; [android-geofencing] \"set a minimum radius of 100 meters. This helps account for the location accuracy of typical WiFi networks\""
            ),
            .init(
                MonitorOverrides(\.enterConfidence, 0.85),
                source:
                    "[android-geofence-ratio] \"only generates the entrance alert when the ratio is at least 85% for a bigger geofence or 75% for a smaller geofence.\" (the bigger fences' value)"
            ),
            .init(
                MonitorOverrides(\.exitConfidence, 0.15),
                source:
                    "[android-geofence-ratio] \"For an exit alert, the ratio threshold used is 15% or 25%.\" (the bigger fences' value)"
            ),
        ])

    static let androidBackgroundTable = androidTable.adding(
        name: "android-background", appState: "any, under Android 8's background limits (documented)",
        summary: "Android's geofencing under Android 8's background location limits",
        BuiltInTable.Row(
            MonitorOverrides(\.interval, .seconds(120)),
            source:
                "[android-geofencing] \"if an app is running in the background while monitoring a geofence, then the device responds to geofencing events every couple of minutes.\""
        ))
}
