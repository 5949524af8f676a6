import Testing

@testable import Geofencing

/// SEMANTICS revision 3's rules by hand (§2 phase, stationary, outliers; §5 signed enterBuffer, misses;
/// §7 delivery), in the style of `ruleCases`: metres east on the equator, a circle of radius 100 at 500 m
/// spanning [400, 600], lines `SECONDS DEVICE KIND REGION details`. Run with `ruleCases` by `monitorRules` and
/// `threadsAgree` (MonitorRuleTests.swift).
let revision3Cases: [RuleCase] = [
    // x = 0.5 + t. n = 6, p = 2: observed ticks 2, 8, …, 398 (x = 398.5, outside), 404 (inside), 602 (beyond 600).
    RuleCase(
        id: "§2 a phase of 2 s shifts the observed ticks",
        simulation: Simulation(
            regions: [Walk.circle("r", at: 500, radius: 100)],
            overrides: MonitorOverrides {
                $0.interval = .seconds(6); $0.phase = .fixed(.seconds(2))
            },
            devices: [Device(id: "d", track: .timed([Walk.leg(0.5, at: 0, to: 1000.5, at: 1000)]))]),
        expected: ["2 d monitor-start r", "404 d enter r crossed=404", "602 d exit r crossed=602", "602 d visit r 404-602"]),
    // 10 m/s to the centre (inside from t = 40), still at x = 500.5 from t = 50 to 400, then 10 m/s east. The
    // anchor, moved at observed samples, stays at t = 50: observed until 79 (t − 50 < 30 s), then every 60 s:
    // 139, 199, …, 379, 439; the dwell due at 140 fires at 199. The phone moves again from 400 but notices it
    // only at its next check, 439 (x = 890.5, 290.5 m out): the exit comes then.
    RuleCase(
        id: "§2 stationary: a still device skips samples; a move is noticed at its next check",
        simulation: Simulation(
            regions: [Walk.circle("r", at: 500, radius: 100)],
            rules: [DwellRule(name: "stay", duration: .seconds(100))],
            overrides: MonitorOverrides {
                $0.stationary = .some(Stationary(after: .seconds(30), within: 5, interval: .seconds(60)))
            },
            devices: [
                Device(
                    id: "d",
                    track: .timed([
                        Walk.path(
                            (0.5, 0), (500.5, 50), (500.5, 400),
                            (1000.5, 450))
                    ]))
            ]),
        expected: [
            "0 d monitor-start r", "40 d enter r crossed=40", "199 d dwell r stay=159",
            "439 d exit r crossed=439", "439 d visit r 40-439",
        ]),
    // 10 m/s from x = 5: the enter (40) is never reported; the exit (60) still is, with no visit.
    RuleCase(
        id: "§5 missEnter 1: the enter is never reported, the exit still is",
        simulation: Simulation(
            regions: [Walk.circle("r", at: 500, radius: 100)],
            rules: [DwellRule(name: "now", duration: .zero)],
            overrides: MonitorOverrides { $0.missEnter = 1 },
            devices: [Device(id: "d", track: .timed([Walk.line(from: 5, speed: 10, seconds: 100)]))]),
        expected: ["0 d monitor-start r", "60 d exit r crossed=60"]),
    // The same track; the exit at 60 is missed: no exit, no visit, and no dwell after it (due at 70).
    RuleCase(
        id: "§5 missExit 1: the stay ends silently",
        simulation: Simulation(
            regions: [Walk.circle("r", at: 500, radius: 100)],
            rules: [DwellRule(name: "later", duration: .seconds(30))],
            overrides: MonitorOverrides { $0.missExit = 1 },
            devices: [Device(id: "d", track: .timed([Walk.line(from: 5, speed: 10, seconds: 100)]))]),
        expected: ["0 d monitor-start r", "40 d enter r crossed=40"]),
    // A region's own missEnter overrides the monitor's 0.
    RuleCase(
        id: "§5 a region's missEnter 1",
        simulation: Simulation(
            regions: [
                Region(
                    id: "r", shape: Walk.circle("r", at: 500, radius: 100).shape,
                    overrides: MonitorOverrides { $0.missEnter = 1 })
            ],
            devices: [Device(id: "d", track: .timed([Walk.line(from: 5, speed: 10, seconds: 100)]))]),
        expected: ["0 d monitor-start r", "60 d exit r crossed=60"]),
    // e = −10, c_in = 0 (a = 0: conf 0 outside), h = 20. x = 0.5 + t: d ≤ 10 from t = 390 (x = 390.5, d = 9.5);
    // the exit needs d > h + e⁻ = 20 + 10: x = 630.5 at 630.
    RuleCase(
        id: "§5 an early enter with e = −10 m fires 10 m outside",
        simulation: Simulation(
            regions: [Walk.circle("r", at: 500, radius: 100)],
            overrides: MonitorOverrides {
                $0.hysteresis = 20; $0.enterBuffer = -10; $0.enterConfidence = 0
            },
            devices: [Device(id: "d", track: .timed([Walk.leg(0.5, at: 0, to: 700.5, at: 700)]))]),
        expected: ["0 d monitor-start r", "390 d enter r crossed=390", "630 d exit r crossed=630", "630 d visit r 390-630"]),
    // τ = 5: the candidate of 390 stays 4.5 m outside (x = 395.5 from t = 395) and is confirmed at 395: a
    // pending enter is dropped only beyond max(0, −e) = 10 m.
    RuleCase(
        id: "§5 a pending early enter survives up to −e outside",
        simulation: Simulation(
            regions: [Walk.circle("r", at: 500, radius: 100)],
            overrides: MonitorOverrides {
                $0.hysteresis = 20; $0.enterBuffer = -10; $0.confirmation = .seconds(5); $0.enterConfidence = 0
            },
            devices: [Device(id: "d", track: .timed([Walk.path((0.5, 0), (395.5, 395), (395.5, 420))]))]),
        expected: ["0 d monitor-start r", "395 d enter r crossed=390"]),
    // The candidate of 390 (x = 390.5), then back: x = 389.5 (d = 10.5 > 10) at 395, before its confirmation.
    RuleCase(
        id: "§5 a pending early enter is dropped beyond −e",
        simulation: Simulation(
            regions: [Walk.circle("r", at: 500, radius: 100)],
            overrides: MonitorOverrides {
                $0.hysteresis = 20; $0.enterBuffer = -10; $0.confirmation = .seconds(5); $0.enterConfidence = 0
            },
            devices: [Device(id: "d", track: .timed([Walk.path((0.5, 0), (392.5, 392), (380.5, 404))]))]),
        expected: ["0 d monitor-start r"]),
    // median = p90 = 30 s: δ = 30 s exactly. Decisions: enter 40, dwell 45, exit and visit 60.
    RuleCase(
        id: "§7 delivery of 30 s shifts times and keeps the decision times",
        simulation: Simulation(
            regions: [Walk.circle("r", at: 500, radius: 100)],
            rules: [DwellRule(name: "welcome", duration: .seconds(5))],
            overrides: MonitorOverrides { $0.delivery = .some(Delivery(median: .seconds(30), p90: .seconds(30))) },
            devices: [Device(id: "d", track: .timed([Walk.line(from: 5, speed: 10, seconds: 100)]))]),
        expected: [
            "0 d monitor-start r", "70 d enter r crossed=40 detected=40", "75 d dwell r welcome=5 detected=45",
            "90 d exit r crossed=60 detected=60", "90 d visit r 40-60 detected=60",
        ]),
    // Two regions side by side: [400, 600] and [600, 800]. x = 5 + 10t leaves r and enters s at 60
    // (x = 605): one sample's exit, visit and enter, delivered in §7 order, each 30 s later.
    RuleCase(
        id: "§7 delivery keeps one sample's events in order: exit, visit, enter",
        simulation: Simulation(
            regions: [Walk.circle("r", at: 500, radius: 100), Walk.circle("s", at: 700, radius: 100)],
            overrides: MonitorOverrides { $0.delivery = .some(Delivery(median: .seconds(30), p90: .seconds(30))) },
            devices: [Device(id: "d", track: .timed([Walk.line(from: 5, speed: 10, seconds: 70)]))]),
        expected: [
            "0 d monitor-start r", "0 d monitor-start s", "70 d enter r crossed=40 detected=40",
            "90 d exit r crossed=60 detected=60", "90 d visit r 40-60 detected=60",
            "90 d enter s crossed=60 detected=60",
        ]),
]
