import ReadableText

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
    var compare: [CompareRow]
    var hasCompare: Bool
    var reference: String
    var monteCarlo: String?
    /// The devices that got each outcome (`perimeter outcomes`'s table), one row per outcome and profile.
    var outcomes: [OutcomeTableRow] = []
    /// The summary card: the first outcomes, one line each (`ReportBuilder.summaryLines`).
    var summary: [SummaryLine] = []
    /// Outcomes the card leaves to the table.
    var summaryMore: String?
    var hasOutcomes = false
    /// `Over 20 Monte Carlo runs of each profile (noise seeds from 1).`
    var outcomesCaption = ""
    /// The same table as text (`OutcomeReport.table`).
    var outcomesText = ""
    var notes: [String]
    /// The page's settings for its script, as JSON (`<` escaped).
    var settingsJSON: String
    /// The events, spans and bands (`ReportData`), as JSON (`<` escaped).
    var dataJSON: String
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
    var count: Int
}

struct DeviceOption {
    var id: String
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
    /// The median and p90 of the true distance from the boundary at the profile's events (`Readable.distance`, signed).
    var distanceMedian: String
    var distanceP90: String
    var first: Bool
}

/// One line of the outcomes' summary card (SEMANTICS §10): an outcome, the devices that got it in the
/// truth, and under each profile the median count (with p5–p95 over several runs).
struct SummaryLine {
    var outcome: String
    var truth: String
    var profiles: String
}

/// One outcome under one profile: the numbers already written.
struct OutcomeTableRow {
    /// The outcome and its truth, on the first row of the outcome only (blank below).
    var outcome: String
    var truth: String
    var profile: String
    var p5: Int
    var median: Int
    var p95: Int
    var mean: String
    var fpMedian: Int
    var fpMean: String
    var fnMedian: Int
    var fnMean: String
    var first: Bool
}
