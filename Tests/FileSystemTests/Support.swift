import Foundation
import TestSupport

/// A fresh empty folder (`TemporaryFolders`).
func temporaryFolder() throws -> String {
    try TemporaryFolders.make("file-system").path
}

/// The names in `folder`, sorted.
func names(in folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
}
