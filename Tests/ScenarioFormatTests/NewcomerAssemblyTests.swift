import Documents
import Foundation
import Geofencing
import TestSupport
import Testing

@testable import ScenarioFormat

/// Scenarios assembled as newcomers bring their files (issue 42 item 7): a folder of GPX tracks as
/// `- tracks: tracks/*.gpx`, and a geojson.io store file whose features are numbered by geojson.io and
/// carry their own code in `properties.store_code` (`idProperty:`). Fixtures in `Fixtures/firsthour/`.
@Suite struct NewcomerAssemblyTests {
    func load(_ name: String) throws(ScenarioErrors) -> Scenario {
        try ScenarioLoader.load(path: fixture("firsthour/" + name))
    }

    /// The problems of loading a fixture with the real GPX reader (none when it loads).
    func problems(_ name: String) -> [ScenarioError] {
        do {
            _ = try load(name)
            return []
        } catch {
            return error.errors
        }
    }

    @Test func aFolderOfTracksGivesOneDeviceAFileNamedByItsStemInByteOrder() throws {
        let scenario = try load("stores.yaml")
        // Byte order: upper case first; not numeric order (van-10 before van-2); .draft.gpx and notes.txt left out.
        #expect(scenario.simulation.devices.map(\.id) == ["Alice", "van-10", "van-2"])
        #expect(
            scenario.inputs.map(\.written) == [
                "stores.geojson", "tracks/Alice.gpx", "tracks/van-10.gpx", "tracks/van-2.gpx",
            ])
    }

    @Test func idPropertyNamesTheRegionsByTheirStoreCode() throws {
        let scenario = try load("stores.yaml")
        let ids = scenario.simulation.regions.map(\.id)
        #expect(ids == (101...112).map { "LX-\($0)" })
        #expect(scenario.simulation.regions.first?.name == "Store 101")
        #expect(!scenario.warnings.contains { $0.contains("a number as") })
    }

    @Test func geojsonIoNumbersGetOneWarningNamingTheProperties() throws {
        let scenario = try load("numbered.yaml")
        #expect(scenario.simulation.regions.map(\.id) == (0...11).map(String.init))
        let numbered = scenario.warnings.filter { $0.contains("a number as") }
        #expect(numbered.count == 1)
        let warning = numbered.first ?? ""
        #expect(warning.contains("stores.geojson:37:"))  // the first feature's "id": 0
        #expect(warning.contains("12 features have a number as their id"))
        #expect(warning.contains("\"0\" … \"11\""))
        #expect(warning.contains("idProperty: store_code"))
        #expect(warning.contains("store_code, name, radius"))
        // The pattern's own selection: van-*.gpx leaves Alice out.
        #expect(scenario.simulation.devices.map(\.id) == ["van-10", "van-2"])
    }

    @Test func aFeatureWithoutAnIdListsItsProperties() {
        let problems = problems("no-id.yaml")
        #expect(problems.count == 1)
        let message = problems.first?.message ?? ""
        #expect(problems.first?.keyPath == "features[1]")
        #expect(message.contains("the feature has no id"))
        #expect(message.contains("its properties are: store_code, name"))
        #expect(message.contains("idProperty:"))
    }

    @Test func aMisspeltIdPropertyIsRefusedWithTheClosestName() {
        let problems = problems("wrong-property.yaml")
        // Every feature lacks it: the first is named with its properties, the other 11 counted.
        #expect(problems.count == 2)
        #expect(problems.map(\.keyPath) == ["features[0]", "features[0]"])
        #expect(problems.last?.message == "and 11 more features of the file have no property \"storecode\" either")
        let message = problems.first?.message ?? ""
        #expect(message.contains("no property \"storecode\" (idProperty:)"))
        #expect(message.contains("did you mean \"store_code\"?"))
    }

    @Test func aPatternMatchingNothingSaysWhatTheFolderHolds() {
        let problems = problems("no-match.yaml")
        #expect(problems.map(\.keyPath) == ["devices[0].tracks"])
        #expect(
            problems.first?.message.contains("no file matches tracks/*.GPX.gz (its folder tracks/ holds 3 .gpx files")
                == true)
    }

    /// The scenario's input root (the SECURITY table of docs/SECURITY.md) holds for every file of a pattern: a folder
    /// leading out of it, and a link inside the folder leading out, are refused at `devices[0].tracks`.
    @Test func everyFileOfAPatternObeysTheInputRoot() throws {
        let folder = try TemporaryFolders.make("tracks-root")
        let scenarioFolder = folder.appendingPathComponent("scenario")
        let tracks = scenarioFolder.appendingPathComponent("tracks")
        try FileManager.default.createDirectory(at: tracks, withIntermediateDirectories: true)
        for name in ["stores.geojson", "outside.yaml", "stores.yaml"] {
            try FileManager.default.copyItem(
                atPath: fixture("firsthour/" + name), toPath: scenarioFolder.appendingPathComponent(name).path)
        }
        let secret = folder.appendingPathComponent("secret.gpx").path
        try FileManager.default.copyItem(atPath: fixture("firsthour/tracks/Alice.gpx"), toPath: secret)
        try FileManager.default.copyItem(
            atPath: fixture("firsthour/tracks/van-2.gpx"), toPath: tracks.appendingPathComponent("van-2.gpx").path)
        try FileManager.default.createSymbolicLink(
            atPath: tracks.appendingPathComponent("leak.gpx").path, withDestinationPath: secret)
        var loader = ScenarioLoader()
        loader.inputs = InputConfinement(givenFolders: [scenarioFolder.path])
        for (name, expected) in [("outside.yaml", "tracks' folder"), ("stores.yaml", "tracks/leak.gpx")] {
            do {
                _ = try loader.load(path: scenarioFolder.appendingPathComponent(name).path)
                Issue.record("\(name) loaded")
            } catch {
                #expect(error.errors.map(\.keyPath) == ["devices[0].tracks"], "\(name)")
                let message = error.errors.first?.message ?? ""
                #expect(message.contains(expected), "\(name): \(message)")
                #expect(message.contains("--allow-inputs-outside"), "\(name)")
            }
        }
        loader.inputs = InputConfinement(allowsOutside: true)
        let trusted = try loader.load(path: scenarioFolder.appendingPathComponent("stores.yaml").path)
        #expect(trusted.simulation.devices.map(\.id) == ["leak", "van-2"])
    }

    @Test(arguments: [
        ("van-07.gpx", "van-07"), ("walk.gpx.gz", "walk"), ("a.b.gpx", "a.b"), ("noext", "noext"),
        (".hidden.gpx", ".hidden"), ("x.gz", "x"),
    ])
    func theDeviceIDIsTheFileNameWithoutItsExtension(name: String, id: String) {
        #expect(ScenarioLoader.deviceID(fileName: name) == id)
    }
}
