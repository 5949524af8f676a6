import Geofencing

extension Scenario {
    /// The warnings that depend on the profile, for `profile` in place of the scenario's own (the loader
    /// gave them for its own): the regions that can never get an enter under it, and those no track goes
    /// far enough from to get an exit, each naming the scenario's file. Nothing for its own profile.
    /// O(fixes + regions × devices + regions × the depth search).
    public func warnings(under profile: Profile) -> [String] {
        guard profile != simulation.profile else { return [] }
        var simulation = self.simulation
        simulation.profile = profile
        let facts = simulation.trackFacts()
        return simulation.unenterableRegions(facts: facts).map {
            "\(file): " + ScenarioLoader.neverEntered(simulation.regions[$0.index], $0, profile: profile)
        }
            + simulation.unexitableRegions(facts: facts).map {
                "\(file): " + ScenarioLoader.neverExited(simulation.regions[$0.index], $0, profile: profile)
            }
    }
}
