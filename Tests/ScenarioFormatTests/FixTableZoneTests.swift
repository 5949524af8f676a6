import Documents
import FixTables
import Foundation
import TestSupport
import Testing
import Time
import Yams

@testable import ScenarioFormat

/// A scenario's fix table read with the scenario's zone (`fixTableDevices(localZone:)`, which the
/// scenario's `timezone:` passes): times without a zone read in it, and one warning a table saying how.
@Suite("Fix-table times without a zone, in a scenario")
struct FixTableZoneTests {
    @Test(
        "zone-less times read in the zone given, else as UTC, with one warning",
        arguments: [
            (
                "UTC", nil as String?, "2024-05-01T09:00:00Z",
                "3 times have no zone and were read as UTC; write them with Z or an offset, or give the scenario timezone: NAME"
            ),
            (
                "New York", "America/New_York", "2024-05-01T13:00:00Z",
                "3 times have no zone and were read in America/New_York"
            ),
        ])
    func zone(id: String, zone: String?, first: String, warning: String) throws {
        let folder = try TemporaryFolders.make("fix-table-zone")
        let table = folder.appendingPathComponent("vans.csv").path
        try
            "device,time,lat,lon\nv,2024-05-01T09:00:00,1,2\nv,2024-05-01T09:00:10,1,2\nv,2024-05-01 09:00:20,1,2\nv,1714575630,1,2\n"
            .write(toFile: table, atomically: true, encoding: .utf8)
        let yaml = "{fixes: vans.csv, timeUnit: s}"
        let log = ProblemLog()
        let node = PlacedNode(
            node: DocumentNode(try #require(try Yams.compose(yaml: yaml))), path: "devices[0]",
            file: folder.appendingPathComponent("fleet.yaml").path, diagnostics: log)
        var tables: [ReadFixTable] = []
        let devices = ScenarioLoader().fixTableDevices(
            node, diagnostics: log, localZone: zone.map { LocalTimeZone(identifier: $0)! },
            tables: &tables)
        #expect(tables.map(\.file) == [table])
        #expect(!log.hasErrors, "\(log.errors)")
        #expect(devices.first?.0.track.fixes(start: .epoch).first?.first?.time == Timestamp(iso8601: first), "\(id)")
        #expect(log.warnings == ["\(table): \(warning)"], "\(id)")
    }
}
