import Foundation
import ScenarioFormat
import Testing

/// Inputs the libFuzzer targets `scenario-fuzz` and `regions-fuzz` (Fuzz/, Scripts/fuzz.sh) found, each
/// with the clean error it must now give. Under Scripts/sanitizers.sh (AddressSanitizer) a leak here also
/// fails the run.
@Suite("Scenario fuzz findings")
struct FuzzRegressionTests {
    /// scenario-fuzz, crash-da39a3ee… (the empty input; a LeakSanitizer report): reading an empty file with
    /// FileManager.contents(atPath:) leaked Foundation's 4 kB read buffer on every load.
    @Test("an empty scenario file is an error, and reading it leaks nothing")
    func emptyScenario() throws {
        let path = fixture("fuzz/empty-file.yaml")
        for _ in 0..<10 {
            do {
                _ = try ScenarioLoader(trackLoader: fakeTracks).load(path: path)
                Issue.record("fuzz/empty-file.yaml loaded")
            } catch {
                #expect(error.errors.count == 1)
                #expect(
                    error.description == path + ": the file is empty; expected a scenario (a YAML or JSON mapping)",
                    "\(error.description)")
            }
        }
    }

    @Test("an empty GeoJSON region file is an error, and reading it leaks nothing")
    func emptyRegionFile() throws {
        let path = fixture("fuzz/empty-file.geojson")
        do {
            _ = try RegionFile.load(path: path)
            Issue.record("fuzz/empty-file.geojson loaded")
        } catch {
            #expect(error.errors.count == 1)
            #expect(error.description == path + ": the file is empty; expected GeoJSON", "\(error.description)")
        }
    }
}
