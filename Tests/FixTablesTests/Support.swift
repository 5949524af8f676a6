import FixTables
import Foundation
import TestSupport
import Time

/// Writes `text` to a file named `name` in a fresh folder and returns its path.
func table(_ text: String, name: String = "fixes.csv") throws -> String {
    let folder = try TemporaryFolders.make("fix-tables")
    let path = folder.appendingPathComponent(name).path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
}

/// `YYYY-MM-DDThh:mm:ss[.fff]Z` as a Timestamp.
func at(_ text: String) -> Timestamp { Timestamp(iso8601: text)! }

/// The table read from `text`, as `device: [(time, lat, lon, accuracy, line)]` in device order.
func read(_ text: String, name: String = "fixes.csv", columns: FixTableColumns = FixTableColumns()) throws -> FixTable {
    try FixTableReader(path: table(text, name: name), columns: columns).read()
}

extension FixTable {
    /// Each device with its fixes' (time, lat, lon, accuracy, line).
    var summary: [String: [TableFix]] {
        Dictionary(uniqueKeysWithValues: devices.enumerated().map { ($1, Array(fixes(ofDevice: $0))) })
    }
}

/// A file of this target's Fixtures folder (also the fuzzer's seeds).
func fixture(_ name: String) -> String {
    Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent(name).path
}
