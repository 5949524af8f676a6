import Documents
import Geofencing
import ScenarioFormat
import Testing

/// SEMANTICS §9 (revision 4) as the scenario format reads it: `recorded:` on a device, a fix table or the
/// scenario, and noise over recorded devices refused unless `onRecorded: true`.
@Suite struct RecordedScenarioTests {
    func load(_ name: String) throws(ScenarioErrors) -> Scenario {
        try ScenarioLoader(trackLoader: fakeTracks).load(path: fixture("recorded/" + name))
    }

    func marks(_ name: String) throws -> [String: Bool] {
        Dictionary(uniqueKeysWithValues: try load(name).simulation.devices.map { ($0.id, $0.recorded) })
    }

    @Test func aDeviceAndAFixTableAreMarkedAndOthersNot() throws {
        #expect(try marks("devices.yaml") == ["phone": true, "synthetic": false, "van-1": true, "van \"2\"": true])
    }

    @Test func theScenarioMarksEveryDeviceButThoseThatSayFalse() throws {
        #expect(try marks("scenario-wide.yaml") == ["phone": true, "synthetic": false, "van-1": true, "van \"2\"": true])
    }

    @Test func noiseOverRecordedDevicesIsRefusedSayingWhy() {
        let problems = errors(loading: "recorded/noise.yaml")
        #expect(problems.count == 1)
        #expect(problems.first?.keyPath == "noise")
        #expect(problems.first?.line == 2)
        let message = problems.first?.message ?? ""
        #expect(message.contains("devices \"phone\" and 1 more are recorded (recorded: true)"))
        #expect(message.contains("already carry the phone's GPS error"))
        #expect(message.contains("onRecorded: true"))
    }

    @Test func noiseOnRecordedIsAddedWhenAskedFor() throws {
        let scenario = try load("noise-on-recorded.yaml")
        #expect(scenario.simulation.noise?.sigma == 5)
        #expect(scenario.simulation.devices.map(\.recorded) == [true])
    }

    @Test func recordedTakesTrueOrFalse() {
        let problems = errors(loading: "recorded/not-boolean.yaml")
        #expect(problems.map(\.keyPath) == ["devices[0].recorded"])
        #expect(problems.first?.message.hasPrefix("expected true or false") == true)
    }
}
