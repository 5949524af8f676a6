import Testing
import Time

@testable import Geofencing

/// One hand-computed case: a short track, the regions, and the expected event log.
struct RuleCase: CustomTestStringConvertible, Sendable {
    let id: String
    let simulation: Simulation
    let expected: [String]
    var testDescription: String { id }
}

private let ideal = Profile.ideal

/// SEMANTICS §4–§6 by hand. Positions are metres east on the equator; a circle of radius 100 at 500 m
/// spans [400, 600]. Each expected line is `SECONDS DEVICE KIND REGION details`.
let ruleCases: [RuleCase] = [
    // 10 m/s from x = 5: inside from t = 40 (x = 405, d = -5), beyond 600 from t = 60 (x = 605).
    RuleCase(
        id: "§5 ideal: enter and exit on the crossing ticks, with the visit",
        simulation: Simulation(
            regions: [Walk.circle("r", at: 500, radius: 100)],
            devices: [Device(id: "d", track: .timed([Walk.line(from: 5, speed: 10, seconds: 100)]))]),
        expected: ["0 d monitor-start r", "40 d enter r crossed=40", "60 d exit r crossed=60", "60 d visit r 40-60"]),
    // ios: τ = 20 s. At 10 m/s the device is inside for 20 s only (40…59): the candidate is dropped at 60.
    RuleCase(
        id: "§5 ios: a crossing shorter than the confirmation is dropped",
        simulation: Simulation(
            regions: [Walk.circle("r", at: 500, radius: 100)], profile: .iosDocumented,
            devices: [Device(id: "d", track: .timed([Walk.line(from: 5, speed: 10, seconds: 100)]))]),
        expected: ["0 d monitor-start r"]),
    // ios at 2 m/s from x = 5: candidate at 198 (x = 401), confirmed at 218; exit needs d > 200, i.e.
    // x > 800: candidate at 398 (x = 801), confirmed at 418 (still outside). Dwell of 10 s at 228.
    RuleCase(
        id: "§5 §6 ios: confirmed enter, hysteresis exit, dwell and visit",
        simulation: Simulation(
            regions: [Walk.circle("r", at: 500, radius: 100)],
            rules: [DwellRule(name: "welcome", duration: .seconds(10))], profile: .iosDocumented,
            devices: [Device(id: "d", track: .timed([Walk.leg(5, at: 0, to: 1005, at: 500)]))]),
        expected: [
            "0 d monitor-start r", "218 d enter r crossed=198", "228 d dwell r welcome=10",
            "418 d exit r crossed=398", "418 d visit r 218-418",
        ]),
    // One path: x(t) = 5.5 + t up to 660.5 at t = 655, then back at 1 m/s to 300.5 at t = 1015.
    // h = 50, τ = 5. Enter candidate at 395 (x = 400.5), confirmed 400. Exit candidate when d > 50,
    // x > 650: t = 645 (x = 650.5), confirmed 650. Back in at x ≤ 600: t = 716 (599.5), confirmed 721.
    // Out again past 350: t = 966 (349.5), confirmed 971.
    RuleCase(
        id: "§5 hysteresis and confirmation: exit confirmed while still beyond",
        simulation: Simulation(
            regions: [Walk.circle("r", at: 500, radius: 100)],
            overrides: MonitorOverrides {
                $0.hysteresis = 50; $0.confirmation = .seconds(5)
            },
            devices: [Device(id: "d", track: .timed([Walk.path((5.5, 0), (660.5, 655), (300.5, 1015))]))]),
        expected: [
            "0 d monitor-start r", "400 d enter r crossed=395", "650 d exit r crossed=645",
            "650 d visit r 400-650", "721 d enter r crossed=716", "971 d exit r crossed=966",
            "971 d visit r 721-971",
        ]),
    // Same path, τ = 20: the exit candidate (645) confirms at 665 although the device is already
    // coming back (x = 650.5, d = 50.5: only d ≤ 0 drops an exit candidate).
    RuleCase(
        id: "§5 an exit candidate survives inside the hysteresis band",
        simulation: Simulation(
            regions: [Walk.circle("r", at: 500, radius: 100)],
            overrides: MonitorOverrides {
                $0.hysteresis = 50; $0.confirmation = .seconds(20)
            },
            devices: [Device(id: "d", track: .timed([Walk.path((5.5, 0), (660.5, 655), (300.5, 1015))]))]),
        expected: [
            "0 d monitor-start r", "415 d enter r crossed=395", "665 d exit r crossed=645",
            "665 d visit r 415-665", "736 d enter r crossed=716", "986 d exit r crossed=966",
            "986 d visit r 736-986",
        ]),
    // h = 50, τ = 30: out to 660.5 (t = 655) and straight back in. Exit candidate at 645 (d = 50.5);
    // d ≤ 0 again at t = 716 < 675? No: at t = 675, x = 640.5, d = 40.5 > 0, so it confirms at 675.
    // With τ = 80 instead, the candidate is dropped at 716 (d = -0.5) before 725: no exit at all.
    RuleCase(
        id: "§5 an exit candidate is dropped when the device comes back in",
        simulation: Simulation(
            regions: [Walk.circle("r", at: 500, radius: 100)],
            overrides: MonitorOverrides {
                $0.hysteresis = 50; $0.confirmation = .seconds(80)
            },
            devices: [Device(id: "d", track: .timed([Walk.path((5.5, 0), (660.5, 655), (500.5, 815))]))]),
        expected: ["0 d monitor-start r", "475 d enter r crossed=395"]),
    // enterBuffer 30: the enter needs d ≤ -30, x ≥ 430: at 1 m/s from 0, t = 430.
    RuleCase(
        id: "§5 enterBuffer delays the enter; the exit is at the boundary",
        simulation: Simulation(
            regions: [Walk.circle("r", at: 500, radius: 100)],
            overrides: MonitorOverrides { $0.enterBuffer = 30 },
            devices: [Device(id: "d", track: .timed([Walk.leg(0.5, at: 0, to: 700.5, at: 700)]))]),
        expected: [
            "0 d monitor-start r", "430 d enter r crossed=430", "600 d exit r crossed=600",
            "600 d visit r 430-600",
        ]),
    // android: starts inside (x = 450), initial trigger → enter at 0; dwell D = 0 fires on that sample. The
    // exit needs 15 % or less of the 20 m circle inside (revision 2): d ≥ 11.70 m, x ≥ 611.7, t = 162.
    RuleCase(
        id: "§4 §6 android initial trigger and a dwell of D = 0",
        simulation: Simulation(
            regions: [Walk.circle("r", at: 500, radius: 100)],
            rules: [DwellRule(name: "now", duration: .zero), DwellRule(name: "later", duration: .seconds(5))],
            profile: .androidDocumented,
            devices: [Device(id: "d", track: .timed([Walk.leg(450, at: 0, to: 700, at: 250)]))]),
        expected: [
            "0 d monitor-start r", "0 d enter r crossed=0", "0 d dwell r now=0", "5 d dwell r later=5",
            "162 d exit r crossed=162", "162 d visit r 0-162",
        ]),
    // ideal starts inside: unannounced; the exit is emitted with no visit and no dwell.
    RuleCase(
        id: "§4 unannounced stay: exit without visit or dwell",
        simulation: Simulation(
            regions: [Walk.circle("r", at: 500, radius: 100)],
            rules: [DwellRule(name: "any", duration: .zero)],
            devices: [Device(id: "d", track: .timed([Walk.leg(450, at: 0, to: 700, at: 250)]))]),
        expected: ["0 d monitor-start r", "151 d exit r crossed=151"]),
    // Revision 2 §5: accuracy a = 20 m, c_in = 0.85, c_out = 0.15 (Android's rule). conf = 0.85 at
    // c = d / a = -0.58514 (d = -11.703 m), 0.15 at d = +11.703 m. At 1 m/s from x = 5.5 over [400, 600]:
    // d = 394.5 - t going in, so the enter waits for t = 407 (d = -12.5); going out d = t - 594.5, so the
    // exit waits for t = 607 (d = 12.5). Without accuracy they would be at 395 and 595.
    RuleCase(
        id: "§5 rev 2: accuracy and confidence delay the enter and the exit",
        simulation: Simulation(
            regions: [Walk.circle("r", at: 500, radius: 100)],
            overrides: MonitorOverrides {
                $0.accuracy = 20; $0.enterConfidence = 0.85; $0.exitConfidence = 0.15
            },
            devices: [Device(id: "d", track: .timed([Walk.leg(5.5, at: 0, to: 1005.5, at: 1000)]))]),
        expected: ["0 d monitor-start r", "407 d enter r crossed=407", "607 d exit r crossed=607", "607 d visit r 407-607"]),
    // The same from the region's own thresholds and the device's accuracy.
    RuleCase(
        id: "§5 rev 2: a region's confidence and a device's accuracy",
        simulation: Simulation(
            regions: [
                {
                    var r = Walk.circle("r", at: 500, radius: 100)
                    r.overrides.enterConfidence = 0.85
                    r.overrides.exitConfidence = 0.15
                    return r
                }()
            ],
            devices: [
                Device(
                    id: "d", track: .timed([Walk.leg(5.5, at: 0, to: 1005.5, at: 1000)]),
                    accuracy: 20)
            ]),
        expected: ["0 d monitor-start r", "407 d enter r crossed=407", "607 d exit r crossed=607", "607 d visit r 407-607"]),
    // Fix accuracies interpolated like positions: 0 m at t = 0 to 40 m at t = 1000, a(t) = 0.04 t. The enter
    // needs 394.5 - t <= -0.58514 × 0.04 t: t >= 403.95, so 404 (d = -9.5, a = 16.16); the exit needs
    // t - 594.5 >= 0.58514 × 0.04 t: t >= 608.75, so 609 (d = 14.5, a = 24.36).
    RuleCase(
        id: "§2 §5 rev 2: a sample's accuracy is interpolated between its fixes",
        simulation: Simulation(
            regions: [Walk.circle("r", at: 500, radius: 100)],
            overrides: MonitorOverrides {
                $0.accuracy = 1000; $0.enterConfidence = 0.85; $0.exitConfidence = 0.15
            },
            devices: [
                Device(
                    id: "d",
                    track: .timed([
                        [
                            Fix(Walk.east(5.5), at: Walk.time(0), accuracy: 0),
                            Fix(Walk.east(1005.5), at: Walk.time(1000), accuracy: 40),
                        ]
                    ]))
            ]),
        expected: ["0 d monitor-start r", "404 d enter r crossed=404", "609 d exit r crossed=609", "609 d visit r 404-609"]),
    // With both thresholds at 0.5, accuracy changes nothing (the revision-1 events).
    RuleCase(
        id: "§5 rev 2: accuracy alone changes nothing",
        simulation: Simulation(
            regions: [Walk.circle("r", at: 500, radius: 100)],
            overrides: MonitorOverrides { $0.accuracy = 50 },
            devices: [Device(id: "d", track: .timed([Walk.leg(5.5, at: 0, to: 1005.5, at: 1000)]))]),
        expected: ["0 d monitor-start r", "395 d enter r crossed=395", "595 d exit r crossed=595", "595 d visit r 395-595"]),
    // Revision 2 §2, observation: with interval 2 s and tick 1 s only even ticks are observed. In at
    // t = 395 (d = -0.5), first observed at 396; out at 595 (d = 0.5), observed at 596.
    RuleCase(
        id: "§2 rev 2: an interval of 2 ticks observes every other sample",
        simulation: Simulation(
            regions: [Walk.circle("r", at: 500, radius: 100)],
            overrides: MonitorOverrides { $0.interval = .seconds(2) },
            devices: [Device(id: "d", track: .timed([Walk.leg(5.5, at: 0, to: 1005.5, at: 1000)]))]),
        expected: ["0 d monitor-start r", "396 d enter r crossed=396", "596 d exit r crossed=596", "596 d visit r 396-596"]),
    // Tick 0.5 s, interval 1.5 s: ticks k = 0, 3, 6… at t = 0, 1.5, 3… From x = 5.25, d = 394.75 - t going
    // in: inside from 394.75, first observed at 396; out from 594.75 (d = t - 594.75), observed at 595.5.
    RuleCase(
        id: "§2 rev 2: an interval of 1.5 s with a tick of 0.5 s",
        simulation: Simulation(
            regions: [Walk.circle("r", at: 500, radius: 100)],
            overrides: MonitorOverrides { $0.interval = TimeSpan(microseconds: 1_500_000) },
            devices: [Device(id: "d", track: .timed([Walk.leg(5.25, at: 0, to: 1005.25, at: 1000)]))],
            tick: TimeSpan(microseconds: 500_000)),
        expected: [
            "0 d monitor-start r", "396 d enter r crossed=396", "595.5 d exit r crossed=595.5", "595.5 d visit r 396-595.5",
        ]),
    // Revision 2 §1: an untimed track's point i plays at start + offset + i × pace. Points 1 m apart at a pace
    // of 1 s from x = 5.5, offset 30 s: the crossings of 395 and 595 come 30 s later.
    RuleCase(
        id: "§1 rev 2: an offset shifts an untimed track",
        simulation: Simulation(
            regions: [Walk.circle("r", at: 500, radius: 100)],
            devices: [
                Device(
                    id: "d",
                    track: .paced(
                        [(0...1000).map { PacedPoint(Walk.east(5.5 + Double($0)), ordinal: $0) }],
                        pace: .seconds(1), offset: .seconds(30)))
            ],
            start: Walk.base),
        expected: ["30 d monitor-start r", "425 d enter r crossed=425", "625 d exit r crossed=625", "625 d visit r 425-625"]),
    // Tick 2 s, interval 6 s: samples at even seconds, observed every third (t = 0, 6, 12…). In from 395,
    // first observed at 396; out from 595, observed at 600.
    RuleCase(
        id: "§2 rev 2: an interval of 6 s with a tick of 2 s",
        simulation: Simulation(
            regions: [Walk.circle("r", at: 500, radius: 100)],
            overrides: MonitorOverrides { $0.interval = .seconds(6) },
            devices: [Device(id: "d", track: .timed([Walk.leg(5.5, at: 0, to: 1005.5, at: 1000)]))],
            tick: .seconds(2)),
        expected: ["0 d monitor-start r", "396 d enter r crossed=396", "600 d exit r crossed=600", "600 d visit r 396-600"]),
]

@Test("SEMANTICS rules, hand-computed", arguments: ruleCases + revision3Cases)
func monitorRules(_ rule: RuleCase) throws {
    let log = try rule.simulation.eventLog()
    #expect(log == rule.expected, "\(log)")
}

@Test("Many threads give the same events as one", arguments: ruleCases + revision3Cases)
func threadsAgree(_ rule: RuleCase) throws {
    #expect(try rule.simulation.eventLog(threads: 4) == rule.simulation.eventLog(threads: 1))
}
