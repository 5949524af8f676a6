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

    /// Whether every candidate's run r draws the same samples as the base's run r (SEMANTICS §2: the same
    /// noise, accuracy, outliers and slow-down), so that the samples can be drawn once and replayed: no
    /// parameter moves them at either end of its bounds. `noise.sigma`, an outlier or slow-down fit, or
    /// the accuracy's, does. O(parameters).
    static func samplesAlike(_ simulation: Simulation, under parameters: [CalibrationParameter]) -> Bool {
        parameters.allSatisfy { parameter in
            [parameter.lower, parameter.upper].allSatisfy { value in
                var settings = simulation.settings, noise = simulation.noise
                parameter.set(value, in: &settings, noise: &noise, tick: simulation.tick)
                return simulation.drawsSameSamples(settings: settings, noise: noise)
            }
        }
    }

    /// A candidate's per-crossing outcomes over `options.runs` Monte Carlo runs, run r with the seed
    /// `options.seed + r`: common random numbers across candidates. The one place a candidate is simulated,
    /// through the batch `compare`, `report` and `run --runs` share (`ProfileBatch`: the loaded world and
    /// tracks, nothing parsed again). A run that draws nothing (no noise, no random draws) is simulated once
    /// and counted as every run. When no fitted parameter moves a sample (`samplesAlike`), the candidates
    /// replay the samples the first one drew (`Simulation.recordsSamples`): the same outcomes, without the
    /// noise's cost. O(runs × the scenario's samples).
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
