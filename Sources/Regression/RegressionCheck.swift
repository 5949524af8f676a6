import FileSystem
import Foundation
import Geofencing
import ReadableText
import Runs
import ScenarioFormat
import Time
import WireFormat

/// What `perimeter check` found for one scenario.
public struct CheckResult: Sendable {
    public enum Status: String, Sendable {
        /// Same events as the golden log (or the log was just recorded) and every expectation holds.
        case passed
        /// The events differ from the golden log, there is none, or an expectation failed.
        case failed
        /// Bad input: the scenario (or its golden log) could not be read; nothing was compared.
        case badInput
        /// The golden log could not be written (`--update`).
        case writeFailed
    }

    /// The scenario file, as given.
    public var path: String
    /// The scenario's name, or its file name when it did not load.
    public var name: String
    public var status: Status
    /// One short sentence for JUnit's `message`: what failed, e.g.
    /// `the events differ from the golden log (1 moved); 1 of 3 expectations failed`. Empty when passed.
    public var headline: String
    /// Readable lines, indented by two spaces under their heading where they belong to one: the diff,
    /// the expectations that failed, the problems of bad input, what `--update` wrote.
    public var details: [String]
    /// The scenario's warnings (GPX points dropped and the like).
    public var warnings: [String]
    /// The files besides `path` that its details and warnings may start with (`FILE:LINE:COLUMN: …`): the
    /// files the scenario read, its golden log, the files its errors were found in. Only these place a
    /// GitHub annotation (`GitHubAnnotations`).
    public var files: [String] = []
    /// What was measured over Monte Carlo runs, one line per `probability:`, `delay:` or `distance:` expectation, passed or
    /// failed: its place, what it asks, the runs in which it held and the share
    /// (`expect[3], line 20: enter of cafe at 12:01:57 ± 30 s held in 97 of 100 runs (0.97; at least 0.9)`).
    public var measurements: [String] = []
    /// The same measurements as values, for machines (`perimeter check --measurements FILE`).
    public var measured: [Measurement] = []
    /// What was checked, one by one: the golden log (unless `--expectations-only`), then each expectation
    /// in the scenario's order, those measured over runs last. Empty for bad input and for results built
    /// without them.
    public var cases: [CheckCase] = []
    public var seconds: Double

    public init(
        path: String, name: String, status: Status, headline: String = "", details: [String] = [],
        warnings: [String] = [], seconds: Double = 0
    ) {
        self.path = path
        self.name = name
        self.status = status
        self.headline = headline
        self.details = details
        self.warnings = warnings
        self.seconds = seconds
    }
}

/// `perimeter check`: runs scenarios, compares their events with golden logs and evaluates their
/// expectations.
public struct RegressionCheck: Sendable {
    /// Rewrite golden logs (atomically) instead of comparing with them; expectations are still evaluated.
    public var update: Bool
    public var threads: Int
    /// How many changes of a diff are listed; the rest are counted.
    public var diffLimit: Int
    /// Whether `update` may record a run without events (`--allow-empty`): an empty golden log passes for
    /// as long as the scenario keeps failing to produce anything, so it is refused unless asked for.
    public var allowsEmptyLog = false
    /// Where each scenario's inputs may come from: its repository, else the folder given that holds it.
    public var inputs = InputConfinement.anywhere
    /// Check the expectations alone (`--expectations-only`): no golden log is read, needed or compared.
    /// For scenarios whose one run is a draw (noise, a stochastic profile): their expectations over
    /// `runs: N` are what guards them, and a golden log only the draw of run 0.
    public var expectationsOnly = false
    /// Every warning, not each kind said many times summed up in one line (`--all-warnings`).
    public var allWarnings = false

    public init(update: Bool = false, threads: Int = RunOptions.defaultThreads, diffLimit: Int = 20) {
        self.update = update
        self.threads = threads
        self.diffLimit = diffLimit
    }

    /// `Scenarios/lorrenzillos.yaml` → `Scenarios/lorrenzillos.events.jsonl`.
    public static func goldenPath(for scenario: String) -> String {
        let url = URL(fileURLWithPath: scenario)
        let ext = url.pathExtension
        let base = ext.isEmpty ? scenario : String(scenario.dropLast(ext.count + 1))
        return base + ".events.jsonl"
    }

    /// The scenario files named: files as given, folders searched recursively for `*.yaml` and `*.yml`,
    /// sorted. Paths where nothing can be reached are returned apart.
    public static func scenarioFiles(in paths: [String]) -> (files: [String], missing: [String]) {
        let found = scenarioFiles(in: paths, excluding: [])
        return (found.files, found.missing)
    }

    /// The scenarios of `paths`: a file named is checked whatever it holds; a folder gives the `*.yaml` and
    /// `*.yml` files below it (hidden ones and profile files aside, sorted) but those matching one of
    /// `excluding` (shell wildcards, against the path below the folder, the path as found, or the file's
    /// name; `*` matches `/` too) and those that are no scenario (`FileDiscovery.notScenario`: a journey,
    /// a CI workflow), which are returned apart with why. The paths where nothing can be reached, apart.
    public static func scenarioFiles(
        in paths: [String], excluding patterns: [String]
    ) -> (
        files: [String], missing: [String], skipped: [(path: String, why: String)]
    ) {
        var files: [String] = [], missing: [String] = [], skipped: [(path: String, why: String)] = []
        for given in paths {
            let found = FileDiscovery.files(in: [given], including: FileDiscovery.isScenario)
            missing += found.unreachable
            guard FileCheck.isDirectory(given) else {
                files += found.files
                continue
            }
            let folder = given.hasSuffix("/") ? given : given + "/"
            for path in found.files {
                let below = String(path.dropFirst(folder.count))
                let excluded = patterns.contains { pattern in
                    [below, path, FileNames.lastComponent(of: path)].contains { FileNames.matches($0, wildcard: pattern) }
                }
                if excluded { continue }
                if let why = FileDiscovery.notScenario(path) {
                    skipped.append((path, why))
                } else {
                    files.append(path)
                }
            }
        }
        return (files, missing, skipped)
    }

    /// A sentence when `path` is an event log (`NAME.events.jsonl`, or any `.jsonl` file) rather than a
    /// scenario: check runs scenarios and finds each one's golden log beside it.
    static func eventLogGiven(_ path: String) -> String? {
        guard path.hasSuffix(".jsonl") else { return nil }
        let stem = path.hasSuffix(".events.jsonl") ? String(path.dropLast(".events.jsonl".count)) : nil
        let beside = stem.map { [$0 + ".yaml", $0 + ".yml"] }?.first { FileManager.default.fileExists(atPath: $0) }
        return "\(path): this is an event log (JSON Lines), not a scenario; check takes the scenario "
            + (beside.map { "(\($0)) " } ?? "(NAME.yaml) ") + "and compares its events with the golden log "
            + "NAME.events.jsonl beside it"
    }

    /// Loads, runs and checks the scenario at `path`.
    public func check(scenarioAt path: String) -> CheckResult {
        let clock = ContinuousClock.now
        var result = CheckResult(
            path: path, name: ((path as NSString).lastPathComponent as NSString).deletingPathExtension,
            status: .passed, headline: "", details: [], warnings: [], seconds: 0)
        if let sentence = Self.eventLogGiven(path) {
            result.status = .badInput
            result.headline = "an event log was given, not a scenario"
            result.details = [sentence]
            return result
        }
        let run: ScenarioRun
        do {
            run = try ScenarioRun(loading: path, inputs: inputs)
        } catch {
            result.status = .badInput
            result.headline = "the scenario could not be loaded"
            result.details = error.errors.map(\.description)
            result.files = error.errors.map(\.place.file)
            result.seconds = (ContinuousClock.now - clock).seconds
            return result
        }
        let scenario = run.scenario
        result.name = scenario.name
        result.warnings = scenario.warnings(all: allWarnings)
        result.files = scenario.inputs.flatMap { [$0.resolved, $0.written] } + [Self.goldenPath(for: path)]
        let (raw, summary) = run.events(threads: threads)
        let events = raw.map(WireEvent.init)
        let day = scenario.simulation.clockStart
        let zone = scenario.timeZone
        let misses = summary.missNotes(
            seed: scenario.simulation.noise?.seed ?? 0, showing: { Readable.time($0, day: day, zone: zone) })
        evaluate(
            events, raw, golden: Self.goldenPath(for: path), scenario: scenario, day: day, misses: misses, into: &result)
        // Every time of the block is on one clock: UTC, or the scenario's timezone:, which the block's first
        // line then names (issue 56 item 6).
        if result.status == .failed && !result.details.isEmpty, let zone {
            result.details.insert(Self.clockLine(zone: zone, day: day), at: 0)
        }
        result.seconds = (ContinuousClock.now - clock).seconds
        return result
    }

    /// `times on the America/Los_Angeles clock (UTC-08:00 on 2016-01-10, the scenario's timezone:)`: the
    /// first line of a failed check's block when the scenario has a `timezone:`, all of whose times are
    /// then on that clock (without one, every time Perimeter shows is UTC).
    static func clockLine(zone: LocalTimeZone, day: Timestamp) -> String {
        let date = String(zone.wallClock(day).iso8601.prefix(10))
        return "times on the \(zone.identifier) clock (UTC\(Readable.offset(zone.secondsFromUTC(at: day))) on \(date), "
            + "the scenario's timezone:)"
    }

    /// `misses`: the run's drawn misses as notes, shown when the events or an expectation fail.
    private func evaluate(
        _ events: [WireEvent], _ raw: [GeofenceEvent], golden: String, scenario: Scenario, day: Timestamp,
        misses: [String], into result: inout CheckResult
    ) {
        var problems: [String] = []
        if expectationsOnly && !update {
            if scenario.expectations.isEmpty && scenario.outcomeExpectations.isEmpty {
                result.warnings.append(
                    "\(result.path): the scenario has no expect: list, so --expectations-only checks nothing of it")
            }
            evaluateExpectations(events, scenario: scenario, day: day, misses: misses, problems: &problems, into: &result)
            return
        }
        // A golden log or record that is a link or no file: refused before anything is read or written.
        if let refusal = Self.goldenFileRefusal(golden: golden) {
            result.status = .badInput
            result.headline = "the golden log or its inputs record is not a regular file"
            result.details.append(refusal)
            return
        }
        // The golden log.
        var old: [WireEvent]?
        var unreadable: String?
        if EventLogFile.exists(golden) {
            do {
                old = try EventLogFile(path: golden).events
            } catch {
                unreadable = "\(golden): " + (error.line.map { "line \($0): " } ?? "") + error.reason
            }
        }
        let diff = old.map { EventLogDiff(old: $0, new: events) }
        if update {
            if events.isEmpty && !allowsEmptyLog && (old == nil || !(old?.isEmpty ?? true)) {
                result.status = .failed
                result.headline = "the run produced no events, and an empty golden log is not recorded"
                result.details.append(
                    "the run produced no events, so \(golden) was not " + (old == nil ? "recorded" : "rewritten")
                        + ": an empty golden log passes for as long as the scenario produces nothing. Check its start: "
                        + "and timezone: against the tracks' times; pass --allow-empty to record it anyway")
                return
            }
            if old == nil || !(diff?.isEmpty ?? true) {
                do {
                    try AtomicFile.write(
                        raw.map { JSONLines.encode($0) + "\n" }.joined().utf8, to: golden, refusingLinks: true)
                } catch {
                    result.status = .writeFailed
                    result.headline = "the golden log could not be written"
                    result.details.append("cannot write the golden log \(golden): \(error)")
                    return
                }
                if let diff {
                    result.details.append("updated the golden log \(golden) (\(diff.summary)):")
                    result.details += diff.lines(day: day, zone: scenario.timeZone, limit: diffLimit).map { "  " + $0 }
                } else {
                    result.details.append(
                        "recorded the golden log \(golden) (\(events.count) event\(events.count == 1 ? "" : "s"))"
                            + (unreadable == nil ? "" : "; the old one could not be read"))
                }
            }
            do {
                if let line = try Self.recordInputs(golden: golden, scenario: scenario) { result.details.append(line) }
            } catch {
                result.status = .writeFailed
                result.headline = "what the golden log was made from could not be recorded"
                result.details.append("cannot write \(GoldenInputs.path(forGolden: golden)): \(error)")
                return
            }
        } else if let unreadable {
            result.status = .badInput
            result.headline = "the golden log could not be read"
            result.details.append(
                "the golden log could not be read: \(unreadable); run `perimeter check --update \(result.path)` to record it again"
            )
        } else if let diff {
            var goldenCase = CheckCase(name: "golden log \(golden)")
            if !diff.isEmpty {
                let inputs = Self.inputChanges(golden: golden, scenario: scenario).map { "; " + $0 } ?? ""
                problems.append("the events differ from the golden log (\(diff.summary))" + inputs)
                let lines = diff.lines(day: day, zone: scenario.timeZone, limit: diffLimit).map { "  " + $0 }
                result.details.append("the events differ from the golden log \(golden) (\(diff.summary))\(inputs):")
                result.details += lines
                goldenCase.failure = "the events differ from the golden log (\(diff.summary))\(inputs)"
                goldenCase.details = lines + misses
            }
            result.cases.append(goldenCase)
        } else {
            problems.append("no golden log")
            let sentence =
                "no golden log; run `perimeter check --update \(result.path)` to record one, or check the "
                + "expectations alone with --expectations-only"
            result.details.append(sentence)
            result.cases.append(CheckCase(name: "golden log \(golden)", failure: sentence))
        }
        evaluateExpectations(events, scenario: scenario, day: day, misses: misses, problems: &problems, into: &result)
    }

    /// The expectations, on the new events; those with a probability, over the Monte Carlo runs: each a
    /// case of `result`, the failed ones counted into `problems` and listed in its details, and the
    /// result's status and headline made from `problems`.
    private func evaluateExpectations(
        _ events: [WireEvent], scenario: Scenario, day: Timestamp, misses: [String], problems: inout [String],
        into result: inout CheckResult
    ) {
        var failures: [String] = []
        for e in scenario.expectations where e.probability == nil {
            let name = CheckCase.expectation(
                keyPath: e.keyPath, id: e.id, statement: e.statement(clockStart: day, zone: scenario.timeZone))
            var checked = CheckCase(name: name, line: e.line)
            checked.place = e.placeDescription
            guard let failure = e.failure(in: events, clockStart: day, zone: scenario.timeZone) else {
                if e.measures.isEmpty { result.cases.append(checked) }
                continue
            }
            let line = e.placeDescription.isEmpty ? failure : "\(e.placeDescription): \(failure)"
            failures.append(line)
            checked.failure = failure
            checked.details = misses
            result.cases.append(checked)
        }
        failures += measureProbabilities(scenario, day: day, into: &result)
        if !failures.isEmpty {
            let n = scenario.expectations.count + scenario.outcomeExpectations.count
            problems.append("\(failures.count) of \(n) expectation\(n == 1 ? "" : "s") failed")
            result.details += failures
        }
        if !problems.isEmpty { result.details += misses }  // why an expected event may be absent
        if result.status == .passed && !problems.isEmpty {
            result.status = .failed
            result.headline = problems.joined(separator: "; ")
        } else if !problems.isEmpty {
            result.headline += "; " + problems.joined(separator: "; ")
        }
    }
}

/// The outcome of a whole `perimeter check`.
public struct CheckSummary: Sendable {
    public var results: [CheckResult]
    /// Paths given that do not exist (not scenarios, and not counted as such).
    public var missing: [String]

    public init(_ results: [CheckResult], missing: [String] = []) {
        self.results = results
        self.missing = missing
    }

    /// 2 when any input was bad (a path missing too), else 3 when a golden log could not be written, else
    /// 1 when any check failed, else 0.
    public var exitCode: Int32 {
        let statuses = Set(results.map(\.status))
        if statuses.contains(.badInput) || !missing.isEmpty { return ExitStatus.badInput }
        if statuses.contains(.writeFailed) { return ExitStatus.sinkFailed }
        if statuses.contains(.failed) { return ExitStatus.checkFailed }
        return 0
    }

    /// `3 scenarios: 1 passed, 1 failed, 1 with bad input`, and `; 1 path not found (Nope/)`.
    public var countLine: String {
        let n = results.count
        let count = { (s: CheckResult.Status) in self.results.filter { $0.status == s }.count }
        var parts = ["\(count(.passed)) passed"]
        if count(.failed) > 0 { parts.append("\(count(.failed)) failed") }
        if count(.badInput) > 0 { parts.append("\(count(.badInput)) with bad input") }
        if count(.writeFailed) > 0 { parts.append("\(count(.writeFailed)) not written") }
        var line = "\(n) scenario\(n == 1 ? "" : "s"): " + parts.joined(separator: ", ")
        if !missing.isEmpty {
            line += "; \(missing.count) path\(missing.count == 1 ? "" : "s") not found (\(missing.joined(separator: ", ")))"
        }
        return line
    }
}
