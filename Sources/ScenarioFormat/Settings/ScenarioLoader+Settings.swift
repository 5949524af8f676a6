import Documents
import Geodesy
import Geofencing
import Time

/// The readers of a scenario's settings, rows of `ScenarioKey.all`: `timezone:`, `start:`, `monitor:`,
/// `noise:`, `sinks:` and `runs:`. Each records its problems at its key and leaves the draft's default
/// (docs/SCENARIO-REFERENCE.md "Keys") when the key is absent or unreadable. O(1) each but `sinks:`, O(sinks).
extension ScenarioLoader {
    /// `timezone: Europe/Madrid`: an IANA name the system's tz database has.
    func readTimeZone(_ d: inout ScenarioDraft, _ key: String) {
        guard let c = d.top[key], let name = c.text("an IANA time zone name such as Europe/Madrid") else { return }
        if let zone = LocalTimeZone(identifier: name) {
            d.zone = zone
        } else {
            c.expected("an IANA time zone name from the tz database, such as Europe/Madrid, America/New_York or UTC")
        }
    }

    /// `start:`, an ISO 8601 time; one without a zone is read on `timezone:`'s clock (which is read first),
    /// else as UTC with a warning.
    func readStart(_ d: inout ScenarioDraft, _ key: String) {
        guard let c = d.top[key] else { return }
        let zone = d.zone
        guard let text = c.scalarText, let (reading, hadZone) = Timestamp.read(iso8601: text, localZone: zone) else {
            c.expected("a time in ISO 8601 such as 2016-01-10T12:00:00Z")
            return
        }
        let time = reading.instant
        guard Timestamp.writable.contains(time) else {
            c.fail("\(text) is outside \(Timestamp.writableRangeText), the times an event log can show")
            return
        }
        if let zone { ZonelessTimes.warnIfUnclear(text, reading: reading, on: zone, at: c) }
        if !hadZone && zone == nil {
            c.warn(
                "\(text) has no zone, so it is read as UTC (\(time.iso8601)); write it with Z or an offset, "
                    + "or give the scenario timezone: NAME (such as Europe/Madrid) if it is a local time")
        }
        d.start = time
    }

    /// `monitor:`, the scenario's overrides of its profile's settings (`MonitorBlock`), on `tick:`'s grid.
    func readMonitor(_ d: inout ScenarioDraft, _ key: String) {
        guard let c = d.top[key] else { return }
        d.overrides = MonitorBlock.overrides(c, tick: d.tick)
    }

    /// `noise:`, over the devices read before it (`noise(_:recorded:)`).
    func readNoise(_ d: inout ScenarioDraft, _ key: String) {
        guard let c = d.top[key] else { return }
        d.noise = noise(c, recorded: d.devices.filter(\.recorded).map(\.id))
    }

    /// `sinks:`, each spec as written with its place (the kinds of sink are checked after the load, by
    /// `Runs.ScenarioSinkPolicy`).
    func readSinks(_ d: inout ScenarioDraft, _ key: String) {
        for node in d.top[key]?.list("a list of sink specs such as console or jsonl:events.jsonl") ?? [] {
            guard let text = node.text("a sink spec such as console or jsonl:events.jsonl") else { continue }
            d.sinks.append(text)
            d.sinkPlaces.append(node.keyedPlace)
        }
    }

    /// `runs:`, against the simulation: it needs noise or another random draw to vary.
    func readRuns(_ d: inout ScenarioDraft, _ key: String, _ simulation: Simulation) {
        guard let c = d.top[key] else { return }
        d.runs = runs(c, noise: d.noise, hasNoiseKey: d.top["noise"] != nil, drawsRandomly: simulation.drawsRandomly)
    }

    /// The most runs `runs:` may ask for: `perimeter check` runs them all. `--runs` and `--threads` are
    /// capped by it too (`MonteCarloOptions.check`).
    public static let maxRuns: Int64 = 100_000

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
