import Documents
import FileSystem
import Foundation
import GPX
import Geodesy
import Geofencing

/// A scenario file, decoded and checked: the engine's `Simulation` and what the tools need besides.
public struct Scenario: Sendable {
    /// `name:`, or else the file's name without its extension.
    public var name: String
    /// The scenario file, as given to the loader.
    public var file: String
    public var simulation: Simulation
    /// `sinks:` as written (sink specs such as `console` or `jsonl:out.jsonl`); empty when not set.
    public var sinks: [String]
    /// Where each of `sinks` is in the file (`sinks[1]`), for the problems a run or `validate` finds
    /// in them (`Runs.ScenarioSinkPolicy`).
    var sinkPlaces: [KeyedPlace] = []
    /// `expect:`, decoded (see `EventExpectation`); each keeps its place in the file.
    public var expectations: [EventExpectation]
    /// The `outcome:` entries of `expect:`, decoded (see `OutcomeExpectation`), in their order.
    public var outcomeExpectations: [OutcomeExpectation] = []
    /// `runs:`: the Monte Carlo runs over which `perimeter check` measures `probability:` expectations
    /// (run r with the noise seed `noise.seed + r`); nil when absent.
    public var runs: Int? = nil
    /// `timezone:`: the zone of the times the scenario, its tracks and tables write without one (and of
    /// the times `check` shows); nil reads them as UTC.
    public var timeZone: LocalTimeZone? = nil
    /// Things that loaded but deserve a look, each starting with its file and line: GPX points dropped,
    /// an offset given to an untimed track, a pace given to a timed one.
    public var warnings: [String]
    /// The files it reads besides itself (tracks, fix tables, region files), each once, in the order read.
    public var inputs: [ScenarioInput] = []
    /// The kind of each of `warnings` that may repeat (a GPX point dropped), nil for the others.
    public var warningKinds: [RepeatedWarning?] = []
}

extension Scenario {
    /// Where `sinks[index]` is in the file (line and column 0 for a scenario not read from one).
    public func sinkPlace(_ index: Int) -> KeyedPlace {
        index < sinkPlaces.count ? sinkPlaces[index] : KeyedPlace(place: SourcePlace(file: file), keyPath: "sinks[\(index)]")
    }
}

/// Reads scenario files (README "A first run" and "Commands") into `Scenario`s, reporting every problem at once.
///
/// Defaults where the file is silent: `profile: ideal` (ground truth, as `Simulation`'s own default),
/// `tick: 1`, no `start` (taken from the tracks, SEMANTICS §1), no monitor overrides, no noise;
/// a device's `offset: 0` and `pace: 1`; `noise.seed: 0`. `regions` and `devices` must be present
/// (either may be an empty list).
public struct ScenarioLoader: Sendable {
    /// Reads one GPX file, given its resolved path. Tests pass tracks built in code.
    public typealias TrackLoader = @Sendable (String) throws -> GPXTrack

    public var trackLoader: TrackLoader
    /// The most samples a scenario may make in all (devices × ticks within their tracks): a run over
    /// it would take hours (the engine makes about a million samples a second), so the loader refuses
    /// it and says what makes it so big. A billion by default.
    public var maxSamples: Int64

    public static let defaultMaxSamples: Int64 = 1_000_000_000

    /// False for `perimeter stream`, whose devices come from standard input: `devices:` is then not
    /// read (its files need not exist where the stream runs) and may be absent.
    public var readsDevices = true

    /// Where the scenario's inputs may come from (`anywhere` unless confined: every command confines them).
    public var inputs = InputConfinement.anywhere

    /// The threads that read the scenario's tracks and check them (default: one a core): `--threads`, so
    /// that a run on one thread is one thread from its first file to its last event.
    public var threads = ProcessInfo.processInfo.activeProcessorCount

    /// The pieces a fix table is read in: as many as `threads` when fewer than the cores (one: on one
    /// thread), else the reader's choice (one a core for a large file).
    var fixTablePieces: Int? { threads < ProcessInfo.processInfo.activeProcessorCount ? max(1, threads) : nil }

    public init(
        trackLoader: @escaping TrackLoader = { path in try GPXTrack.load(path: path) },
        maxSamples: Int64 = ScenarioLoader.defaultMaxSamples
    ) {
        self.trackLoader = trackLoader
        self.maxSamples = maxSamples
    }

    /// Loads the scenario at `path` with the real GPX reader.
    public static func load(
        path: String, maxSamples: Int64 = defaultMaxSamples, inputs: InputConfinement = .anywhere
    ) throws(ScenarioErrors) -> Scenario {
        var loader = ScenarioLoader(maxSamples: maxSamples)
        loader.inputs = inputs
        return try loader.load(path: path)
    }

    static let topKeys = [
        "name", "start", "timezone", "tick", "profile", "monitor", "regions", "rules", "devices",
        "noise", "sinks", "expect", "runs", "recorded",
    ]

    /// Loads the scenario at `path`; paths inside it are relative to its folder.
    public func load(path: String) throws(ScenarioErrors) -> Scenario {
        let d = ProblemLog()
        d.inputRoot = inputs.root(of: path)
        guard let root = YAMLDocument.compose(path, what: "a scenario (a YAML or JSON mapping)", diagnostics: d),
            let top = PlacedNode(node: root, path: "", file: path, diagnostics: d)
                .mapping("a scenario: a mapping of name, regions, devices and the like", allowed: Self.topKeys)
        else { throw ScenarioErrors(d.errors) }

        let fileName = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        let name = top["name"]?.text("the scenario's name") ?? fileName
        let zone = top["timezone"].flatMap(timeZone)
        let start = top["start"].flatMap { c -> Timestamp? in
            if let text = c.scalarText, let (time, hadZone) = Timestamp.parse(iso8601: text, localZone: zone) {
                guard Timestamp.writable.contains(time) else {
                    c.fail("\(text) is outside \(Timestamp.writableRangeText), the times an event log can show")
                    return nil
                }
                if !hadZone, let zone { ZonelessTimes.warnIfSkipped(text, readAs: time, on: zone, at: c) }
                if !hadZone && zone == nil {
                    c.warn(
                        "\(text) has no zone, so it is read as UTC (\(time.iso8601)); write it with Z or an offset, "
                            + "or give the scenario timezone: NAME (such as Europe/Madrid) if it is a local time")
                }
                return time
            }
            c.expected("a time in ISO 8601 such as 2016-01-10T12:00:00Z")
            return nil
        }
        let tick = top["tick"].map { $0.duration(.positive) } ?? .seconds(1)
        let profile = top["profile"].map { ProfileFile.reference($0) } ?? .ideal
        let overrides = top["monitor"].map { MonitorBlock.overrides($0, tick: tick ?? .seconds(1)) } ?? MonitorOverrides()

        // The GPX tracks of `devices:` are read ahead on the other threads while the regions are read.
        var tracks = PreloadedTracks()
        if readsDevices, let list = top["devices"], case .sequence = list.node {
            tracks = PreloadedTracks(
                entries: list.list("") ?? [], loader: trackLoader, threads: threads, diagnostics: d)
        }

        let before = d.errors.count
        var placed: [PlacedRegion] = []
        if let list = top.required("regions", "a list of regions")?.list("a list of regions") {
            for entry in list { placed += regions(entry, diagnostics: d) }
        }
        let regionsComplete = d.errors.count == before
        RegionFile.checkUniqueIDs(placed)
        let regionIDs = placed.map(\.region.id)

        let beforeRules = d.errors.count
        let rules =
            top["rules"]?.list("a list of dwell rules").map {
                self.rules($0, regionIDs: regionsComplete ? regionIDs : nil)
            } ?? []
        let rulesComplete = d.errors.count == beforeRules

        var devices: [Device] = []
        var deviceCursors: [(id: PlacedNode, pace: PlacedNode?)] = []
        var deviceIDs: [String: PlacedNode] = [:]
        let beforeDevices = d.errors.count
        let deviceList = readsDevices ? top.required("devices", "a list of devices")?.list("a list of devices") : nil
        let recordedByDefault = top["recorded"].map { $0.boolean(Self.recordedWhat) ?? false } ?? false
        var fixTables: [ReadFixTable] = []
        for entry in deviceList ?? [] {
            // A fix table gives many devices, a track entry one (its GPX file read ahead).
            let found: [(Device, id: PlacedNode, pace: PlacedNode?)]
            if entry.mappingHasKey("fixes") {
                found = fixTableDevices(
                    entry, diagnostics: d, localZone: zone, tables: &fixTables, recordedByDefault: recordedByDefault)
            } else if entry.mappingHasKey("tracks") {
                found = trackFolderDevices(entry, diagnostics: d, zone: zone, recordedByDefault: recordedByDefault)
            } else {
                found =
                    device(entry, diagnostics: d, preloaded: tracks, zone: zone, recordedByDefault: recordedByDefault)
                    .map { [$0] } ?? []
            }
            for (device, idCursor, paceCursor) in found {
                if let first = deviceIDs[device.id] {
                    idCursor.fail(
                        "device id \"\(device.id)\" is already used by \(first.path) at \(first.place); a device's fixes come from one source"
                    )
                } else {
                    deviceIDs[device.id] = idCursor
                    devices.append(device)
                    deviceCursors.append((idCursor, paceCursor))
                }
            }
        }

        let devicesComplete = readsDevices && d.errors.count == beforeDevices

        let noise = top["noise"].flatMap { self.noise($0, recorded: devices.filter(\.recorded).map(\.id)) }
        var sinks: [String] = [], sinkPlaces: [KeyedPlace] = []
        for node in top["sinks"]?.list("a list of sink specs such as console or jsonl:events.jsonl") ?? [] {
            guard let text = node.text("a sink spec such as console or jsonl:events.jsonl") else { continue }
            sinks.append(text)
            sinkPlaces.append(node.keyedPlace)
        }
        let simulation = Simulation(
            regions: placed.map(\.region), rules: rules, profile: profile ?? .ideal,
            overrides: overrides, devices: devices, start: start,
            tick: tick ?? .seconds(1), noise: noise)
        if let problem = simulation.intervalProblem {
            let phase = simulation.phaseProblem == problem ? top["monitor"]?.entry("phase") : nil
            if let place = phase ?? top["tick"] ?? top["profile"] ?? top["monitor"] { place.fail(problem) }
        }
        if !d.hasErrors {
            checkRunSize(simulation, devices: deviceCursors, list: top["devices"])
        }
        if !d.hasErrors {
            warnAboutLikelyMistakes(
                simulation, regions: placed, fixTables: fixTables, diagnostics: d, list: top["regions"],
                rules: top["rules"]?.list("a list of dwell rules") ?? [],
                startCursor: top["start"], devicesCursor: top["devices"])
        }
        // Times of day in expect: are on the clock's start date, which may come from the tracks.
        let known = KnownIDs(
            regions: regionsComplete ? regionIDs : nil,
            devices: devicesComplete ? devices.map(\.id) : nil,
            rules: rulesComplete ? rules.map(\.name) : nil)
        let runs = top["runs"].flatMap {
            self.runs($0, noise: noise, hasNoiseKey: top["noise"] != nil, drawsRandomly: simulation.drawsRandomly)
        }
        let expectList = top["expect"]?.list("a list of expectations")
        let expectations =
            expectList.map {
                self.expectations($0, clockStart: simulation.clockStart, known: known, runs: runs, zone: zone)
            } ?? []
        let outcomeExpectations = expectList.map { self.outcomeExpectations($0, known: known, runs: runs) } ?? []

        if d.hasErrors { throw ScenarioErrors(d.errors) }
        return Scenario(
            name: name, file: path, simulation: simulation, sinks: sinks, sinkPlaces: sinkPlaces,
            expectations: expectations, outcomeExpectations: outcomeExpectations, runs: runs, timeZone: zone,
            warnings: d.warnings, inputs: d.inputs, warningKinds: d.warningKinds)
    }

    /// `timezone: Europe/Madrid`: an IANA name the system's tz database has.
    private func timeZone(_ c: PlacedNode) -> LocalTimeZone? {
        guard let name = c.text("an IANA time zone name such as Europe/Madrid") else { return nil }
        if let zone = LocalTimeZone(identifier: name) { return zone }
        c.expected("an IANA time zone name from the tz database, such as Europe/Madrid, America/New_York or UTC")
        return nil
    }

    /// The most runs `runs:` may ask for: `perimeter check` runs them all.
    static let maxRuns: Int64 = 100_000

    /// `runs: N`, which needs noise or another random draw (SEMANTICS §2) to vary.
    private func runs(_ c: PlacedNode, noise: Noise?, hasNoiseKey: Bool, drawsRandomly: Bool) -> Int? {
        guard let n = c.integer(.positive, "a number of Monte Carlo runs, an integer") else { return nil }
        guard n <= Self.maxRuns else {
            c.fail("expected at most \(Self.maxRuns) runs, got \(n)")
            return nil
        }
        if noise == nil && !hasNoiseKey && !drawsRandomly {
            c.fail("Monte Carlo runs vary the noise seed, and this scenario has no noise; add noise: {sigma: 5m, seed: 1}")
            return nil
        }
        return Int(n)
    }

    /// What `recorded:` takes, for its error.
    static let recordedWhat = "true or false (whether the track was recorded on a phone, SEMANTICS §9)"

    /// `noise: {sigma, seed, correlation, onRecorded}`, refused over `recorded` devices (SEMANTICS §9)
    /// unless `onRecorded: true`: their fixes already carry a phone's error.
    private func noise(_ c: PlacedNode, recorded: [String]) -> Noise? {
        guard
            let f = c.mapping(
                "noise settings {sigma, seed, correlation, onRecorded}",
                allowed: ["sigma", "seed", "correlation", "onRecorded"]),
            let sigma = f.required("sigma", "a distance in metres of 0 or more")?.distance(.nonNegative)
        else { return nil }
        let onRecorded = f["onRecorded"].map { $0.boolean("true or false (add the noise to recorded tracks too)") ?? false }
        if let first = recorded.first, onRecorded != true {
            let who =
                recorded.count > 1
                ? "devices \"\(first)\" and \(recorded.count - 1) more are" : "device \"\(first)\" is"
            c.fail(
                "\(who) recorded (recorded: true): their fixes already carry the phone's GPS error, "
                    + "and noise would add a second error on top of theirs; remove noise, or add onRecorded: true to the noise to add it anyway"
            )
            return nil
        }
        guard let seed = f["seed"].map({ $0.integer(.nonNegative, "a seed, an integer") }) ?? 0 else { return nil }
        let correlation = f["correlation"].map { $0.duration(.nonNegative) } ?? .zero
        guard let correlation else { return nil }
        return Noise(sigma: sigma, seed: UInt64(seed), correlation: correlation)
    }
}
