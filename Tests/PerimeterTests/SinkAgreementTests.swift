import Foundation
import GRDB
import TestSupport
import Testing

/// Issue 4's first check: every sink's output of one scenario, read back with a real reader, holds exactly
/// the events of the JSON Lines output, in the same order.
@Suite("Every sink holds the JSON Lines events")
struct SinkAgreementTests {
    /// The wire fields of SEMANTICS §7, in JSON Lines order.
    static let columns = [
        "time", "device", "region", "kind", "lat", "lon", "distance", "crossedAt", "arrival",
        "departure", "duration", "rule",
    ]

    /// One event as comparable text: numbers by value (6 decimals is far below any difference that matters
    /// and above float-parsing noise), absent fields as empty.
    static func normalized(_ record: [String: Any]) -> [String] {
        columns.map { key in
            switch record[key] {
            case let number as NSNumber:
                return String(format: "%.6f", number.doubleValue)
            case let text as String:
                if let value = Double(text), !["device", "region", "rule"].contains(key) {
                    return String(format: "%.6f", value)
                }
                return text
            default:
                return ""
            }
        }
    }

    @Test(
        "lorrenzillos-ideal and courier-overview through jsonl, csv, geojson and sqlite",
        arguments: [
            "Scenarios/lorrenzillos-ideal.yaml", "Scenarios/courier-overview.yaml",
        ])
    func sinksAgree(_ scenario: String) throws {
        let folder = try PerimeterProcess.temporaryFolder()
        let path = { (name: String) in folder.appendingPathComponent(name).path }
        let result = try PerimeterProcess.run([
            "run", scenario, "--sink", "jsonl:" + path("e.jsonl"),
            "--sink", "csv:" + path("e.csv"), "--sink", "geojson:" + path("e.geojson"),
            "--sink", "sqlite:" + path("e.sqlite"),
        ])
        #expect(result.status == 0, "\(result.stderr)")

        let jsonl = try String(contentsOfFile: path("e.jsonl"), encoding: .utf8).split(separator: "\n").map {
            Self.normalized(try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any])
        }
        #expect(jsonl.count > 4)

        // CSV: read by Python's csv module, the reader analysts use.
        let csv = try PerimeterProcess.run(
            [
                "-c",
                """
                import csv, json, sys
                with open(sys.argv[1], newline='') as f:
                    print(json.dumps(list(csv.DictReader(f, strict=True))))
                """, path("e.csv"),
            ], executable: "/usr/bin/env", prefix: ["python3"])
        #expect(csv.status == 0, "\(csv.stderr)")
        let rows = try JSONSerialization.jsonObject(with: Data(csv.stdout.utf8)) as! [[String: Any]]
        #expect(rows.map(Self.normalized) == jsonl)

        // GeoJSON: a FeatureCollection of Points whose properties are the other fields.
        let collection =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("e.geojson"))))
            as! [String: Any]
        let features = collection["features"] as! [[String: Any]]
        let geojson = features.map { feature -> [String] in
            var record = feature["properties"] as! [String: Any]
            let coordinates = (feature["geometry"] as! [String: Any])["coordinates"] as! [NSNumber]
            record["lon"] = coordinates[0]
            record["lat"] = coordinates[1]
            return Self.normalized(record)
        }
        #expect(geojson == jsonl)

        // SQLite: the run's events in sequence order.
        let queue = try DatabaseQueue(path: path("e.sqlite"))
        let stored = try queue.read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(Self.columns.joined(separator: ", ")) FROM events WHERE run = 1 ORDER BY seq"
            )
            .map { row in
                Self.normalized(
                    Dictionary(
                        uniqueKeysWithValues: Self.columns.compactMap { key -> (String, Any)? in
                            let value = row[key] as DatabaseValue
                            switch value.storage {
                            case let .double(d): return (key, NSNumber(value: d))
                            case let .int64(i): return (key, NSNumber(value: i))
                            case let .string(s): return (key, s)
                            default: return nil
                            }
                        }))
            }
        }
        #expect(stored == jsonl)
        try? FileManager.default.removeItem(at: folder)
    }
}
