import Documents
import Geofencing

extension ScenarioLoader {
    /// `expect:`, read after `runs:` (which `probability:` needs) and against the simulation: times of day
    /// are on the clock's start date, which may come from the tracks. Its event entries decode into
    /// `EventExpectation`s, then its `outcome:` entries into `OutcomeExpectation`s. O(entries).
    func readExpect(_ d: inout ScenarioDraft, _ key: String, _ simulation: Simulation) {
        guard let list = d.top[key]?.list("a list of expectations") else { return }
        let known = d.known
        d.expectations = expectations(
            list, clockStart: simulation.clockStart, known: known, runs: d.runs, zone: d.zone)
        d.outcomeExpectations = outcomeExpectations(list, known: known, runs: d.runs)
    }
}
