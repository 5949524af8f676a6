import Documents
import Geofencing
import Runs
import ScenarioFormat
import Time

/// `perimeter compare`: a scenario run under several profiles and under a reference profile (default
/// `ideal`: the crossings themselves), each profile's events paired with the reference's
/// (`EventMatching`). The scenario's own `monitor:` overrides apply to every run, the reference's too.
///
/// The reference run is the exact track (no noise) when `exactReference` (the default, `compare` and
/// `report`), so that a monitor's flicker on noisy fixes is not counted as something that happened; with
/// `exactReference` false (`--noisy-reference`) it gets the scenario's noise too (`perimeter run --profile
/// ideal`). Every paired and spurious profile event carries its true distance (`TrueDistance`).
///
/// With a Monte Carlo batch, run r of every profile uses the noise seed S + r and is paired with the one
/// exact reference run (with a noisy reference: the reference's run r, seed S + r); the counts, delays and
/// distances pool all runs.
public struct ScenarioComparison: Sendable {
    public let base: ScenarioRun
    public let profiles: [Profile]
    public let reference: Profile
    /// How far apart a profile event and a reference event may be and still be paired.
    public let window: TimeSpan
    /// Whether the reference runs without the scenario's noise.
    public let exactReference: Bool

    /// One plain run of each profile.
    private let plain: ProfileBatch

    /// Refuses a profile whose observation interval the scenario's tick does not divide.
    public init(
        _ base: ScenarioRun, profiles: [Profile], against reference: Profile = .ideal,
        window: TimeSpan = .seconds(600), exactReference: Bool = true
    ) throws(ScenarioErrors) {
        plain = try ProfileBatch(base, profiles: profiles)
        _ = try ProfileBatch(base, profiles: [reference])
        self.base = base
        self.profiles = profiles
        self.reference = reference
        self.window = window
        self.exactReference = exactReference
    }

    /// The reference profile's run, without noise when `exactReference`.
    private var referenceRun: ScenarioRun {
        exactReference ? base.exact(under: reference) : ScenarioRun(base.scenario, profile: reference)
    }

    /// One run of each profile and of the reference, each on `threads` threads.
    public func compare(threads: Int = RunOptions.defaultThreads) -> ComparisonReport {
        let referenceEvents = referenceRun.events(threads: threads).events
        let truth = TrueDistance(base.simulation)
        var results: [ProfileComparison] = []
        var outcomes = ruleOutcomes(referenceEvents: referenceEvents, threads: threads)
        plain.forEachRun(threads: threads) { run, events in
            var matching = EventMatching(reference: referenceEvents, profile: events, window: window)
            matching.measure(truth)
            results.append(ProfileComparison(profile: run.profile, matchings: [matching]))
            outcomes?.add(profile: run.profileIndex, events: events)
        }
        var report = ComparisonReport(
            scenario: base.name, reference: reference, window: window, runs: nil,
            exactReference: exactReference && (base.simulation.noise != nil || base.simulation.hasRecordedDevices),
            day: base.simulation.clockStart, profiles: results)
        report.onTruePaths = exactReference && base.simulation.hasRecordedDevices
        report.outcomes = outcomes?.outcomes ?? []
        return report
    }

    /// A tally of the devices that get each dwell rule (`OutcomeTally`) against the truth
    /// (`ScenarioOutcomes.truth`: the exact reference's events when the reference is `ideal` without
    /// noise, else a run of its own); nil when the scenario has no rules.
    private func ruleOutcomes(referenceEvents: [GeofenceEvent]?, threads: Int) -> OutcomeTally? {
        let rules = base.simulation.rules
        guard !rules.isEmpty else { return nil }
        let truth =
            reference == .ideal && exactReference
            ? referenceEvents ?? ScenarioOutcomes.truth(of: base, threads: threads)
            : ScenarioOutcomes.truth(of: base, threads: threads)
        return OutcomeTally(
            keys: rules.map { .rule($0.name) }, devices: base.simulation.devices.map(\.id),
            profiles: profiles.map(\.name), truth: truth)
    }

    /// `runs` runs of each profile and of the reference, run r with the noise seed `seed + r` (default
    /// seed: the scenario's, else 0), as one `ProfileBatch`: each (profile, run) simulated once. Refused
    /// when neither the scenario's noise nor any profile varies the runs (a profile whose runs would be
    /// alike runs once). Memory holds the reference's events of every run. `progress` hears how many of
    /// the `runs × (profiles + 1)` runs are done (`runs × profiles` with the exact reference), on the
    /// calling thread. `alsoUnder`: profiles run in the same batch without being compared; `observe`
    /// hears each run of `profiles` and `alsoUnder` (profile, run, events) as it is handed on, so that
    /// what else is built from the runs (the report's spreads) does not run them again.
    public func compare(
        runs: Int, seed: UInt64? = nil, threads: Int = RunOptions.defaultThreads,
        alsoUnder extra: [Profile] = [],
        observe: (Profile, Int, [GeofenceEvent]) -> Void = { _, _, _ in },
        progress: (Int) -> Void = { _ in }
    ) throws(ScenarioErrors) -> ComparisonReport {
        // The exact reference is one run, the same for every run of the batch; a noisy one is the
        // batch's first profile, so that its runs come before those they are paired with.
        let ownReference = exactReference ? 0 : 1
        let batch = try ProfileBatch(
            base, profiles: (exactReference ? [] : [reference]) + profiles + extra,
            runs: runs, seed: seed)
        var referenceEvents: [[GeofenceEvent]] = []
        if exactReference { referenceEvents = [referenceRun.events(threads: threads).events] }
        let truth = TrueDistance(base.simulation)
        var matchings = profiles.map { _ in [EventMatching]() }
        var outcomes = ruleOutcomes(referenceEvents: referenceEvents.first, threads: threads)
        var done = 0
        batch.forEachRun(threads: threads) { run, events in
            let index = run.profileIndex - ownReference
            if index < 0 {
                referenceEvents.append(events)
            } else if index < profiles.count {
                var matching = EventMatching(
                    reference: referenceEvents[referenceEvents.count == 1 ? 0 : run.number],
                    profile: events, window: window)
                matching.measure(truth)
                matchings[index].append(matching)
                outcomes?.add(profile: index, events: events)
            }
            if index >= 0 { observe(run.profile, run.number, events) }
            if index < profiles.count {
                done += 1
                progress(done)
            }
        }
        var report = ComparisonReport(
            scenario: base.name, reference: reference, window: window,
            runs: MonteCarloRuns(count: runs, seed: batch.seed), exactReference: exactReference,
            day: base.simulation.clockStart,
            profiles: zip(profiles, matchings).map { ProfileComparison(profile: $0, matchings: $1) })
        report.onTruePaths = exactReference && base.simulation.hasRecordedDevices
        report.outcomes = outcomes?.outcomes ?? []
        return report
    }
}

/// The number of runs of a Monte Carlo batch and the seed of run 0.
public struct MonteCarloRuns: Hashable, Sendable {
    public var count: Int
    public var seed: UInt64

    public init(count: Int, seed: UInt64) {
        self.count = count
        self.seed = seed
    }
}

/// One profile against the reference: one matching per run.
public struct ProfileComparison: Sendable {
    public var profile: Profile
    /// One per run (one for a plain comparison), in run order.
    public var matchings: [EventMatching]

    /// The counts and delays of `kind`, pooled over the runs.
    public func tally(_ kind: GeofenceEvent.Kind) -> KindTally {
        var total = KindTally()
        for matching in matchings {
            let one = matching.tally(kind)
            total.paired += one.paired
            total.missed += one.missed
            total.spurious += one.spurious
            total.delays += one.delays
            total.distances += one.distances
        }
        total.delays.sort()
        total.distances.sort()
        return total
    }
}

/// What `perimeter compare` found.
public struct ComparisonReport: Sendable {
    /// The comparison of events already run: each profile's with the reference's, one run each.
    /// `truth` gives the profile events' true distances (none without it); `exactReference` says whether
    /// `referenceEvents` came from the exact track.
    public init(
        scenario: String, reference: Profile, referenceEvents: [GeofenceEvent],
        profiles: [(Profile, [GeofenceEvent])], window: TimeSpan = .seconds(600), day: Timestamp,
        exactReference: Bool = false, truth: TrueDistance? = nil
    ) {
        self.init(
            scenario: scenario, reference: reference, window: window, runs: nil, exactReference: exactReference,
            day: day,
            profiles: profiles.map { profile, events in
                var matching = EventMatching(reference: referenceEvents, profile: events, window: window)
                if let truth { matching.measure(truth) }
                return ProfileComparison(profile: profile, matchings: [matching])
            })
    }

    init(
        scenario: String, reference: Profile, window: TimeSpan, runs: MonteCarloRuns?, exactReference: Bool,
        day: Timestamp, profiles: [ProfileComparison]
    ) {
        self.scenario = scenario
        self.reference = reference
        self.window = window
        self.runs = runs
        self.exactReference = exactReference
        self.day = day
        self.profiles = profiles
    }

    /// The scenario's name.
    public var scenario: String
    public var reference: Profile
    public var window: TimeSpan
    /// The Monte Carlo batch, or nil for one run of each.
    public var runs: MonteCarloRuns?
    /// Whether the reference ran without noise.
    public var exactReference: Bool
    /// Whether the scenario's recorded devices were measured against their true paths (SEMANTICS §9).
    public var onTruePaths = false
    /// The clock's start, on whose date times are shown to people.
    public var day: Timestamp
    public var profiles: [ProfileComparison]
    /// Whose clocks times are shown on (`--timezone`); nil for UTC. The JSON stays UTC.
    public var zone: LocalTimeZone? = nil
    /// Per dwell rule, the devices that got it in the truth and under each profile (`OutcomeTally`);
    /// empty when the scenario has no rules.
    public var outcomes: [OutcomeRow] = []
}
