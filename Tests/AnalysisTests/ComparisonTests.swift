import Analysis
import Documents
import Foundation
import Geodesy
import Geofencing
import ReadableText
import Runs
import ScenarioFormat
import Testing

/// A scenario of the repository, by its path from the package root.
private func repository(_ path: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(path).path
}

@Suite("Comparing profiles with a reference run")
struct ComparisonTests {
    /// `compare --runs N` simulates each (profile, run) once: 3 profiles × 4 runs, and with a noisy
    /// reference its 4 runs too (the exact reference is one run of its own, not a profile's batch).
    @Test(arguments: [(false, 3 * 4), (true, 4 * 4)])
    func eachProfileBatchRunsOnce(noisyReference: Bool, simulations: Int) throws {
        let run = try ScenarioRun(loading: repository("Scenarios/restaurant-welcome.yaml"))
        let comparison = try ScenarioComparison(
            run, profiles: [.iosGPS, .android, .androidBackground],
            exactReference: !noisyReference)
        let counter = SimulationCounter()
        var heard: [Int] = []
        let report = try ProfileBatch.$counter.withValue(counter) {
            try comparison.compare(runs: 4, threads: 2, progress: { heard.append($0) })
        }
        #expect(counter.value == simulations)
        #expect(heard == Array(1...simulations))
        #expect(report.profiles.map(\.matchings.count) == [4, 4, 4])
    }

    /// Lorrenzillo's under iOS against ideal. By hand from SEMANTICS §8: iOS confirms an enter 20 s after
    /// the crossing, so the enter and the 10 s dwell that counts from it are both 20 s late; an exit needs
    /// 200 m past the edge, then 20 s more, so it is at least 20 s late. Nothing is missed or spurious.
    @Test func theRestaurantUnderIOS() throws {
        let run = try ScenarioRun(loading: repository("Scenarios/lorrenzillos.yaml"))
        let report = try ScenarioComparison(run, profiles: [.iosDocumented], against: .ideal).compare(threads: 1)
        let ios = try #require(report.profiles.first)
        #expect(ios.matchings.count == 1)
        let pairs = ios.matchings[0].pairs
        #expect(pairs.map(\.key.kind) == [.enter, .dwell, .exit])
        #expect(pairs[0].delay == .seconds(20))
        #expect(pairs[1].delay == .seconds(20))
        #expect(pairs[1].key.rule == "Thanks for visiting")
        #expect(try #require(pairs[2].delay) >= .seconds(20))
        for kind in EventMatching.kinds {
            let tally = ios.tally(kind)
            #expect((tally.paired, tally.missed, tally.spurious) == (1, 0, 0))
        }
        // The reference's times are the ideal run's.
        let ideal = ScenarioRun(run.scenario, profile: .ideal).events(threads: 1).events
        #expect(pairs.map(\.reference) == ideal.filter { EventMatching.kinds.contains($0.kind) }.map(\.time))
    }

    @Test func theJSONHasTheDocumentedShape() throws {
        let run = try ScenarioRun(loading: repository("Scenarios/lorrenzillos.yaml"))
        let report = try ScenarioComparison(
            run, profiles: [.iosDocumented, .androidBackgroundDocumented], window: .seconds(90)
        ).compare()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        #expect(object["against"] as? String == "ideal")
        #expect(object["window"] as? Double == 90)
        let profiles = try #require(object["profiles"] as? [[String: Any]])
        #expect(profiles.map { $0["profile"] as? String } == ["ios-documented", "android-background-documented"])
        let kinds = try #require(profiles[0]["kinds"] as? [String: [String: Any]])
        #expect(Set(kinds.keys) == ["enter", "exit", "dwell"])
        let enter = try #require(kinds["enter"])
        #expect(enter["paired"] as? Int == 1 && enter["missed"] as? Int == 0 && enter["spurious"] as? Int == 0)
        #expect((enter["delay"] as? [String: Double]) == ["median": 20, "p90": 20, "max": 20])
        let pair = try #require((profiles[0]["pairs"] as? [[String: Any]])?.first)
        #expect(pair["device"] as? String == "phone" && pair["region"] as? String == "lorrenzillos")
        #expect(pair["kind"] as? String == "enter" && pair["rule"] is NSNull)
        #expect(pair["reference"] as? String == "2016-01-10T12:01:37.000Z")
        #expect(pair["profile"] as? String == "2016-01-10T12:01:57.000Z" && pair["delay"] as? Double == 20)
        // Under android-background the exit comes more than 90 s late: missed, and the late one spurious.
        let background = try #require(profiles[1]["pairs"] as? [[String: Any]])
        let exit = try #require(background.first { $0["kind"] as? String == "exit" })
        #expect(exit["profile"] is NSNull && exit["delay"] is NSNull)
        #expect((profiles[1]["spurious"] as? [[String: Any]])?.map { $0["kind"] as? String }.contains("exit") == true)
    }

    @Test func aProfileAgainstItselfPairsEverythingOnTimeInEveryRun() throws {
        let run = try ScenarioRun(loading: repository("Scenarios/restaurant-welcome.yaml"))
        // A noisy reference (run r with the seed of the profile's run r): the same monitor on the same fixes.
        let report = try ScenarioComparison(run, profiles: [.iosDocumented], against: .iosDocumented, exactReference: false)
            .compare(runs: 5, seed: 40, threads: 2)
        #expect(report.runs == MonteCarloRuns(count: 5, seed: 40))
        let ios = report.profiles[0]
        #expect(ios.matchings.count == 5)
        for kind in EventMatching.kinds {
            let tally = ios.tally(kind)
            #expect(tally.missed == 0 && tally.spurious == 0 && tally.paired >= 5)
            #expect(tally.max == .zero)
        }
        #expect(report.json.contains(#""runs":5,"seed":40"#))
        #expect(report.json.contains(#""run":4"#))
    }

    @Test func theSameForAnyThreadCount() throws {
        let run = try ScenarioRun(loading: repository("Scenarios/courier-background.yaml"))
        let comparison = try ScenarioComparison(run, profiles: [.androidDocumented, .androidBackgroundDocumented])
        let one = try comparison.compare(runs: 12, threads: 1)
        let two = try comparison.compare(runs: 12, threads: 2)
        #expect(one.json == two.json)
        #expect(one.readable == two.readable)
    }

    @Test func withoutNoiseAMonteCarloComparisonIsRefusedAtNoise() throws {
        let run = try ScenarioRun(loading: repository("Scenarios/lorrenzillos.yaml"))
        let error = #expect(throws: ScenarioErrors.self) {
            try ScenarioComparison(run, profiles: [.iosDocumented]).compare(runs: 10)
        }
        #expect(error?.errors.map(\.keyPath) == ["noise"])
        #expect(error?.description.contains("this scenario has no noise; add noise: {sigma: 5m, seed: 1}") == true)
    }

    /// Without noise, a profile that draws (SEMANTICS §2 "Random draws") varies the runs, and one that draws
    /// nothing is the same run every time, run once.
    @Test func withoutNoiseAProfileThatDrawsVariesTheRuns() throws {
        let run = try ScenarioRun(loading: repository("Scenarios/lorrenzillos.yaml"))
        try #require(run.simulation.noise == nil)
        let report = try ScenarioComparison(run, profiles: [.iosGPS, .iosDocumented]).compare(runs: 20, threads: 2)
        let fitted = report.profiles[0].matchings.map(\.pairs), documented = report.profiles[1].matchings.map(\.pairs)
        #expect(fitted.count == 20 && documented.count == 20)
        #expect(Set(documented).count == 1, "a profile that draws nothing: one run, twenty times")
        #expect(Set(fitted).count > 1, "misses and delivery delays drawn per run")
        let alone = try ScenarioComparison(run, profiles: [.iosDocumented]).compare()
        #expect(documented[0] == alone.profiles[0].matchings[0].pairs)
    }

    /// The restaurant's readable comparison, line by line.
    @Test func readableTablesAndNotableLines() throws {
        let run = try ScenarioRun(loading: repository("Scenarios/lorrenzillos.yaml"))
        let text = try ScenarioComparison(run, profiles: [.iosDocumented]).compare().readable
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "Lunch at Lorrenzillo's: ios-documented against ideal (events paired within 10 min)")
        // The true distance of iOS's enter at 12:01:57: the track has no noise, so it is the enter's own
        // `distance` in the golden log Scenarios/lorrenzillos.events.jsonl, -229.247 m.
        #expect(
            lines[3]
                == "  enter                       1        0        0        20 s        20 s        20 s    -229.2 m    -229.2 m"
        )
        #expect(lines.contains("phone: enter at lorrenzillos (12:01:37 under ideal) came 20 s late under ios-documented"))
        #expect(
            lines.contains(
                "phone: dwell \"Thanks for visiting\" at lorrenzillos (12:01:47 under ideal) came 20 s late under ios-documented"
            ))
    }

    /// Without noise the exact track is what the monitor saw: each paired or spurious event's true distance
    /// is the distance the event itself carries (the sample's, computed by the monitor, SEMANTICS §2).
    @Test(arguments: ["Scenarios/lorrenzillos.yaml", "Scenarios/lodeals-static.yaml", "Scenarios/vans-fleet.yaml"])
    func withoutNoiseTheTrueDistanceIsTheEventsOwn(path: String) throws {
        let run = try ScenarioRun(loading: repository(path))
        try #require(run.simulation.noise == nil)
        for profile in [Profile.iosDocumented, .androidBackgroundDocumented] {
            let report = try ScenarioComparison(run, profiles: [profile]).compare(threads: 2)
            let events = ScenarioRun(run.scenario, profile: profile).events(threads: 1).events
            var own: [String: Meters] = [:]
            for event in events {
                own["\(event.device) \(event.region) \(event.kind) \(event.time.microsecondsSince1970)"] = event.distance
            }
            let matching = report.profiles[0].matchings[0]
            let measured =
                matching.pairs.compactMap { pair in pair.profile.map { (pair.key, $0, pair.distance) } }
                + matching.spurious.map { ($0.key, $0.time, $0.distance) }
            #expect(!measured.isEmpty)
            for (key, time, distance) in measured {
                let expected = try #require(own["\(key.device) \(key.region) \(key.kind) \(time.microsecondsSince1970)"])
                #expect(abs(try #require(distance) - expected) < 1e-6, "\(path) \(profile) \(key.kind) at \(time.iso8601)")
            }
        }
    }

    /// With noise the reference is the exact track's ideal run unless asked for the noisy one.
    @Test func withNoiseTheReferenceIsTheExactTrack() throws {
        let run = try ScenarioRun(loading: repository("Scenarios/restaurant-welcome.yaml"))
        try #require(run.simulation.noise != nil)
        var exact = ScenarioRun(run.scenario, profile: .ideal)
        exact.simulation.noise = nil
        let noisy = ScenarioRun(run.scenario, profile: .ideal)
        for (exactReference, reference) in [(true, exact), (false, noisy)] {
            let report = try ScenarioComparison(run, profiles: [.androidDocumented], exactReference: exactReference).compare(
                threads: 1)
            let expected = reference.events(threads: 1).events.filter { EventMatching.kinds.contains($0.kind) }.map(\.time)
            #expect(report.profiles[0].matchings[0].pairs.map(\.reference) == expected)
            #expect(report.exactReference == exactReference)
            #expect(report.json.contains(#""exactReference":true"#) == exactReference)
        }
    }

    @Test func aFleetsNotableLinesAreCutWithACount() throws {
        let run = try ScenarioRun(loading: repository("Scenarios/lodeals-static.yaml"))
        let report = try ScenarioComparison(run, profiles: [.iosDocumented]).compare()
        let all = report.readable(notableLimit: 1000).split(separator: "\n").filter { $0.hasPrefix("walker: ") }
        let cut = report.readable(notableLimit: 3).split(separator: "\n")
        #expect(all.count > 3)
        #expect(cut.filter { $0.hasPrefix("walker: ") } == Array(all.prefix(3)))
        // The notable lines end with the count; the line of the scenario's one rule (its outcomes) follows.
        #expect(cut.dropLast().last == "… and \(all.count - 3) more notable events (--json lists every pair)")
        #expect(cut.last == "rule \"deal\": 1 device in the truth; 1 under ios-documented")
    }
}
