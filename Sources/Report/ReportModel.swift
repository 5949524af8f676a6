/// What the page template shows, already formatted: strings and numbers, no engine types. Built by
/// `ReportBuilder`; rendered by `ReportPage` (swift-mustache, which escapes every `{{value}}` for HTML).
struct ReportModel {
    var title: String
    var subtitle: String
    /// `x y width height` of the map.
    var viewBox: String
    var regionCount: Int
    var trackCount: Int
    var eventCount: Int
    var regions: [RegionShape]
    var tracks: [TrackLine]
    var layers: [EventLayer]
    var devices: [DeviceOption]
    /// More than one device: the picker offers "every device".
    var manyDevices: Bool
    var timelines: [DeviceTimeline]
    var compare: [CompareRow]
    var hasCompare: Bool
    var reference: String
    var monteCarlo: String?
    var notes: [String]
    /// The page's settings for its script, as JSON (`<` escaped).
    var settingsJSON: String
}

struct RegionShape {
    var id: String
    var path: String
    var label: String
}

struct TrackLine {
    var device: String
    var path: String
}

/// One profile's markers.
struct EventLayer {
    var profile: String
    var colourIndex: Int
    var checked: Bool
    var count: Int
    var markers: [EventMarker]
}

struct EventMarker {
    var cx: String
    var cy: String
    var kind: String
    var device: String
    var region: String
    var time: String
    var distance: String
    var crossedAt: String?
    var rule: String?
    var profile: String
}

struct DeviceOption {
    var id: String
    var selected: Bool
}

/// One device's timeline: a row per region and profile, on one time axis.
struct DeviceTimeline {
    var device: String
    var hidden: Bool
    var height: Int
    var width: Int
    var rows: [TimelineRow]
    var axis: [AxisTick]
}

struct TimelineRow {
    var label: String
    var y: Int
    var labelY: Int
    var bars: [TimelineSpan]
    var bands: [TimelineSpan]
    var ticks: [TimelineTick]
}

struct TimelineSpan {
    var x: String
    var width: String
    var title: String
}

struct TimelineTick {
    var x: String
    var kind: String
    var title: String
}

struct AxisTick {
    var x: String
    var label: String
}

struct CompareRow {
    var profile: String
    var kind: String
    var paired: Int
    var missed: Int
    var spurious: Int
    var median: String
    var p90: String
    var max: String
    var first: Bool
}
