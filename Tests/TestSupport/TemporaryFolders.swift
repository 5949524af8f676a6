import Foundation

/// Fresh folders for tests, all inside one folder of this test process, which is removed when the process
/// exits: a run of the suite leaves nothing in the system's temporary folder. (It used to leave some two
/// thousand folders a run.) A run that crashes leaves its folder behind, to be looked at.
public enum TemporaryFolders {
    /// `<system temporary folder>/perimeter-tests-<pid>-<UUID>`, made on first use.
    static let root: URL = {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("perimeter-tests-\(getpid())-\(UUID().uuidString)", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            fatalError("cannot make the tests' temporary folder \(url.path): \(error)")
        }
        atexit { try? FileManager.default.removeItem(at: TemporaryFolders.root) }
        return url
    }()

    /// A fresh empty folder, `name-<UUID>` inside this process's folder.
    public static func make(_ name: String = "test") throws -> URL {
        let url = root.appendingPathComponent("\(name)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
