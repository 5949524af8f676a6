import Geofencing
import Runs

extension Calibration {
    /// The run of a candidate: the base profile with the fitted parameters set (each parameter's scenario
    /// `monitor:` override set aside, so that the candidate's value plays), and the noise's sigma for
    /// `noise.sigma`. `steps[j]` is parameter j's step. O(1).
    func scenarioRun(_ steps: [Int]) -> ScenarioRun {
        var run = self.run
        // The base with the scenario's overrides: those of the fitted parameters are then set aside.
        let baseSettings = run.simulation.settings
        var settings = baseSettings, noise = run.simulation.noise
        for (j, parameter) in parameters.enumerated() {
            parameter.set(
                fittedValue(j, at: steps), in: &settings, noise: &noise, base: baseSettings, tick: run.simulation.tick)
        }
        var profile = base
        profile.settings = settings
        run.simulation.profile = profile
        var overrides = run.simulation.overrides
        overrides.clear(parameters)
        run.simulation.overrides = overrides
        run.simulation.noise = noise
        return run
    }

    /// A candidate's per-crossing outcomes over `options.runs` Monte Carlo runs, run r with the seed
    /// `options.seed + r`: common random numbers across candidates. The one place a candidate is simulated,
    /// through the batch `compare`, `report` and `run --runs` share (`ProfileBatch`: the loaded world and
    /// tracks, nothing parsed again). A run that draws nothing (no noise, no random draws) is simulated once
    /// and counted as every run. O(runs × the scenario's samples).
    func simulate(_ steps: [Int]) -> CrossingOutcomes {
        let run = scenarioRun(steps)
        var outcomes = CrossingOutcomes(crossings: truth.crossings.count, runs: options.runs)
        let atDecision = logHasDecisionTimes
        let batch: ProfileBatch
        do {
            batch = try ProfileBatch(
                run, profiles: [run.simulation.profile], runs: options.runs, seed: options.seed,
                refusingAlikeRuns: false)
        } catch {
            // Unreachable: runs ≥ 1 is checked by the command, a base whose interval the tick cannot play is
            // refused before the fit, and `interval` candidates are multiples of the tick.
            preconditionFailure("calibrate: a candidate the batch refuses: \(error)")
        }
        batch.forEachRun(threads: options.threads) { run, events in
            truth.record(TrueCrossings.reports(events), run: run.number, into: &outcomes, distanceAtDecision: atDecision)
        }
        return outcomes
    }
}
