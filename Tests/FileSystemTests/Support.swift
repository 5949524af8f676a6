import Foundation

/// A fresh empty folder under the system's temporary folder.
func temporaryFolder() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("FileSystemTests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// The names in `folder`, sorted.
func names(in folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
}
