import Documents
import Geofencing
import TextEscaping

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
        // Two expectations of one id would be one JUnit testcase.
        var seen: [String: Int] = [:]
        for (index, entry) in list.enumerated() {
            guard let node = entry.entry("id"), let id = node.scalarText else {
                continue
            }
            if let first = seen[id] {
                node.fail(
                    "the id \(TerminalText.quoted(id)) is expect[\(first)]'s too; each expectation's id names one JUnit testcase"
                )
            } else {
                seen[id] = index
            }
        }
    }
}
