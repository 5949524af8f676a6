import Testing

@testable import Geofencing

/// Revision 3's random parts (SEMANTICS §2 outliers, §7 delivery) where a single hand-computed log cannot
/// show them: the first sample's outlier episode, FIFO delivery, and a scenario using everything, which must
/// give the same events whatever the threads and the windows.
struct Revision3Tests {
    /// every = tick: u_1 < tick / every = 1 always, so an episode begins at the device's first sample. With
    /// median = p90 = 1 km the displacement is 1 km exactly (ℓ = m), and accuracy 0.5 reports 500 m.
    @Test("outliers with every = tick open an episode at the first sample")
    func outlierAtFirstSample() {
        let fixes = Walk.line(from: 500, speed: 0, seconds: 10)
        var stream = SampleStream(
            segments: [fixes], start: Walk.base, tick: .seconds(1), deviceID: "d", accuracy: 5,
            outliers: Outliers(
                every: .seconds(1), duration: .seconds(60), median: 1000, p90: 1000,
                accuracyScale: 0.5))
        let first = stream.next()!
        #expect(abs(first.coordinate.distance(to: Walk.east(500)) - 1000) < 0.01)
        #expect(first.accuracy == 500)
        let second = stream.next()!
        #expect(second.coordinate == first.coordinate)  // the same episode: the same offset
        var plain = SampleStream(segments: [fixes], start: Walk.base, tick: .seconds(1), deviceID: "d", accuracy: 5)
        #expect(plain.next()!.coordinate == fixes[0].coordinate)
    }

    /// A noise of sigma 0 only sets the seed: positions are unchanged.
    @Test("a noise of sigma 0 leaves positions unchanged")
    func sigmaZero() {
        let fixes = Walk.line(from: 0.5, speed: 3, seconds: 20)
        var noisy = SampleStream(
            segments: [fixes], start: Walk.base, tick: .seconds(1), noise: Noise(sigma: 0, seed: 9), deviceID: "d")
        var plain = SampleStream(segments: [fixes], start: Walk.base, tick: .seconds(1), deviceID: "d")
        while let a = plain.next() { #expect(noisy.next() == a) }
    }

    /// Every revision-3 field at once, on several devices and regions.
    static let everything: Simulation = {
        let regions =
            (0..<6).map { Walk.circle("r\($0)", at: 150 + 250 * Double($0), radius: 80) }
            + [
                Region(
                    id: "edge", shape: Walk.circle("edge", at: 900, radius: 60, north: 40).shape,
                    overrides: MonitorOverrides {
                        $0.enterBuffer = -8; $0.enterConfidence = 0.4; $0.missEnter = 0.5; $0.missExit = 0.2
                    })
            ]
        let devices = (0..<5).map { i in
            Device(
                id: "d\(i)",
                track: .timed([
                    Walk.path(
                        (Double(i) * 7, 0), (1500, 700 + Double(i) * 40), (1500, 1300),
                        (20, 1900))
                ]), accuracy: 15)
        }
        return Simulation(
            regions: regions,
            rules: [
                DwellRule(name: "short", duration: .seconds(20)),
                DwellRule(name: "long", duration: .seconds(200)),
            ],
            profile: .iosDocumented,
            overrides: MonitorOverrides {
                $0.hysteresis = 30; $0.enterBuffer = -5; $0.confirmation = .seconds(4); $0.enterConfidence = 0.3;
                $0.interval = .seconds(5); $0.phase = .random;
                $0.stationary = .some(Stationary(after: .seconds(60), within: 20, interval: .seconds(120)));
                $0.outliers = .some(
                    Outliers(every: .seconds(300), duration: .seconds(20), median: 300, p90: 2000, accuracyScale: 1));
                $0.delivery = .some(Delivery(median: .seconds(10), p90: .seconds(120))); $0.missEnter = 0.1;
                $0.missExit = 0.1
            },
            devices: devices, noise: Noise(sigma: 4, seed: 11, correlation: .seconds(20)))
    }()

    @Test("a scenario using everything: the same events with 1 and 2 threads, and any window")
    func everythingAgrees() throws {
        let one = try Self.everything.eventLog(threads: 1)
        #expect(one.count > 12)
        #expect(try Self.everything.eventLog(threads: 2) == one)
        let wide = EventLog()
        try Self.everything.run(into: wide, options: RunOptions(threads: 2, windowTicks: 100_000))
        #expect(wide.events.map(\.compact) == one)
    }

    /// The quiet windows' margins (a pending enter kept up to max(0, −e) outside) must stay exact, and the
    /// held delayed events must not depend on the threads or the windows.
    @Test(
        "random revision-3 scenarios: quiet windows, threads and windows change nothing",
        arguments: UInt64(1)...120)
    func randomScenarios(seed: UInt64) throws {
        let simulation = RandomScenario.make(seed: seed, revision3: true)
        var plainOptions = RunOptions(threads: 1)
        plainOptions.skipsQuietRegions = false
        let fast = EventLog(), plain = EventLog(), parallel = EventLog()
        try simulation.run(into: fast, options: RunOptions(threads: 1))
        try simulation.run(into: plain, options: plainOptions)
        try simulation.run(into: parallel, options: RunOptions(threads: 3, windowTicks: 17))
        #expect(fast.events == plain.events, "seed \(seed): the quiet windows changed the events")
        #expect(parallel.events == fast.events, "seed \(seed): threads or windows changed the events")
    }

    /// The test above compares something: more than a third of its scenarios have enters.
    @Test("random revision-3 scenarios have enters to compare")
    func randomScenariosHaveEnters() throws {
        let withEnters = try (UInt64(1)...120).filter { seed in
            let log = EventLog()
            try RandomScenario.make(seed: seed, revision3: true).run(into: log, options: RunOptions(threads: 1))
            return log.events.contains { $0.kind == .enter }
        }
        #expect(withEnters.count > 40, "the random scenarios have enters to compare")
    }

    @Test("delivery keeps each device's events in decision order, each at or after its decision")
    func firstInFirstOut() throws {
        let log = EventLog()
        try Self.everything.run(into: log, options: RunOptions(threads: 1, windowTicks: 13))
        let delayed = log.events.filter { $0.detectedAt != nil }
        #expect(!delayed.isEmpty)
        for device in Set(delayed.map(\.device)) {
            let mine = delayed.filter { $0.device == device }
            #expect(mine.allSatisfy { $0.time >= $0.detectedAt! })
            // No event decided later is heard earlier.
            let byDecision = mine.sorted { ($0.detectedAt!, $0.time) < ($1.detectedAt!, $1.time) }
            #expect(zip(byDecision, byDecision.dropFirst()).allSatisfy { $0.time <= $1.time })
        }
        // Sent in the total order of §7, by delivered time.
        #expect(zip(log.events, log.events.dropFirst()).allSatisfy { !GeofenceEvent.precedes($1, $0) })
    }
}

/// Simulation+CannotFire under revision 3: an enter needs d ≤ −e and conf ≥ c_in, so the depth it needs is
/// max(e, the depth where c_in of the circle is inside), which a negative e or c_in < 0.5 can make negative
/// (an enter before the crossing): such a region is never listed. A 5 m circle, fixes of 20 m accuracy.
@Test(
    "regions that can never get an enter, with signed enter buffers and low confidences",
    arguments: [(0.0, 0.85, 11.7), (0.0, 0.3, nil), (8.0, 0.3, 8.0), (-10.0, 0.85, 11.7), (-10.0, 0.4, nil)]
        as [(Double, Double, Double?)])
func unenterableUnderRevision3(buffer: Double, confidence: Double, needed: Double?) {
    let simulation = Simulation(
        regions: [Walk.circle("kiosk", at: 500, radius: 5)], profile: .androidDocumented,
        overrides: MonitorOverrides {
            $0.enterBuffer = buffer; $0.enterConfidence = confidence
        },
        devices: [Device(id: "d", track: .timed([Walk.line(from: 0, speed: 10, seconds: 100)]), accuracy: 20)])
    let found = simulation.unenterableRegions()
    #expect(found.map { ($0.neededDepth * 10).rounded() / 10 } == (needed.map { [$0] } ?? []))
}
