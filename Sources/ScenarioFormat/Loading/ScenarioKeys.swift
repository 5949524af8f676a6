import Documents
import Geodesy
import Geofencing
import Time

/// One top-level key of a scenario file and its reader: a row of the loader's table (`ScenarioKey.all`).
///
/// A reader reads the key's node (`draft.top[key]`, its key path the key itself, where its errors go) into
/// the draft. Errors come in the order the keys are read, which is the table's but for a key read `after`
/// another it needs.
struct ScenarioKey: Sendable {
    /// How the key is read.
    enum Reader: Sendable {
        /// Into the draft, before the simulation is made of it.
        case draft(@Sendable (ScenarioLoader, inout ScenarioDraft, _ key: String) -> Void)
        /// Against the simulation the draft made (its clock's start, whether it draws at random).
        case simulation(@Sendable (ScenarioLoader, inout ScenarioDraft, _ key: String, Simulation) -> Void)
        /// By another key's reader, the one named, in the middle of its own reading.
        case readBy(String)
    }

    /// The key as written (`regions`).
    let name: String
    /// A key read before this one (once), whose value this one needs: `start:` is read on `timezone:`'s clock.
    let after: String?
    let reader: Reader

    init(
        _ name: String, after: String? = nil,
        read: @escaping @Sendable (ScenarioLoader, inout ScenarioDraft, _ key: String) -> Void
    ) {
        self.init(name, after: after, reader: .draft(read))
    }

    init(_ name: String, after: String? = nil, reader: Reader) {
        self.name = name
        self.after = after
        self.reader = reader
    }
}

extension ScenarioKey {
    /// Every top-level key, in the order README lists them and an unknown key's error names them (which
    /// also guesses the key meant from these). O(1) a row.
    static let all: [ScenarioKey] = [
        ScenarioKey("name") { _, d, key in d.name = d.top[key]?.text("the scenario's name") },
        ScenarioKey("start", after: "timezone") { $0.readStart(&$1, $2) },
        ScenarioKey("timezone") { $0.readTimeZone(&$1, $2) },
        ScenarioKey("tick") { _, d, key in d.tick = d.top[key].flatMap { $0.duration(.positive) } ?? .seconds(1) },
        ScenarioKey("profile") { _, d, key in d.profile = d.top[key].flatMap { ProfileFile.reference($0) } ?? .ideal },
        ScenarioKey("monitor") { $0.readMonitor(&$1, $2) },
        ScenarioKey("regions") { $0.readRegions(&$1, $2) },
        ScenarioKey("rules") { $0.readRules(&$1, $2) },
        ScenarioKey("devices") { $0.readDevices(&$1, $2) },
        ScenarioKey("noise") { $0.readNoise(&$1, $2) },
        ScenarioKey("sinks") { $0.readSinks(&$1, $2) },
        ScenarioKey("expect", after: "runs", reader: .simulation { $0.readExpect(&$1, $2, $3) }),
        ScenarioKey("runs", reader: .simulation { $0.readRuns(&$1, $2, $3) }),
        ScenarioKey("recorded", reader: .readBy("devices")),
    ]

    /// The keys a scenario may have.
    static let names = all.map(\.name)

    /// The rows in the order they are read: the table's, each row's `after` moved before it.
    static let readingOrder: [ScenarioKey] = all.reduce(into: []) { order, key in
        let first = key.after.flatMap { after in all.first { $0.name == after } }
        for row in [first, key].compactMap({ $0 }) where !order.contains(where: { $0.name == row.name }) {
            order.append(row)
        }
    }
}

/// What the loader has read of a scenario so far, each key's reader filling its part; the defaults are
/// those of a key left out (docs/SCENARIO-REFERENCE.md "Keys").
struct ScenarioDraft {
    /// The scenario's top-level mapping and its problem log.
    let top: Fields
    var diagnostics: ProblemLog { top.cursor.diagnostics }

    /// `name:`; nil for the file's name.
    var name: String? = nil
    var zone: LocalTimeZone? = nil
    var start: Timestamp? = nil
    /// `tick:`, or 1 s when left out or unreadable.
    var tick: TimeSpan = .seconds(1)
    var profile: Profile = .ideal
    var overrides = MonitorOverrides()
    var regions: [PlacedRegion] = []
    /// Whether every region was read (else ids that may name a lost one are not reported as unknown).
    var regionsComplete = true
    var rules: [DwellRule] = []
    var rulesComplete = true
    var devices: [Device] = []
    /// Each device's id and pace, where the run-size check names them.
    var deviceCursors: [(id: PlacedNode, pace: PlacedNode?)] = []
    var fixTables: [ReadFixTable] = []
    /// The GPX files of `devices:`, read ahead from the start of the load (`PreloadedTracks`).
    var tracks = PreloadedTracks()
    var devicesComplete = false
    var noise: Noise? = nil
    var sinks: [String] = []
    var sinkPlaces: [KeyedPlace] = []
    var runs: Int? = nil
    var expectations: [EventExpectation] = []
    var outcomeExpectations: [OutcomeExpectation] = []

    init(top: Fields) { self.top = top }

    /// The ids `expect:` may name; a list not read in full is not checked against.
    var known: ScenarioLoader.KnownIDs {
        ScenarioLoader.KnownIDs(
            regions: regionsComplete ? regions.map(\.region.id) : nil,
            devices: devicesComplete ? devices.map(\.id) : nil,
            rules: rulesComplete ? rules.map(\.name) : nil)
    }
}
