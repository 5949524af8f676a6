import Foundation

/// A small tmpfs mounted for a test, so that a run fills a disk for real (ENOSPC), not a simulation of
/// one. Mounting needs root (and, in a container, the right to mount); `unmount()` must be called.
public struct SmallDisk: Sendable {
    /// Why a tmpfs could not be mounted: mount's own message.
    public struct Refused: Error, CustomStringConvertible {
        public let description: String
    }

    /// Where the file system is mounted.
    public let folder: URL

    /// Mounts a tmpfs of `kilobytes` KiB on a new temporary folder.
    public static func mount(kilobytes: Int) throws -> Result<SmallDisk, Refused> {
        let folder = try PerimeterProcess.temporaryFolder()
        let result = try command("/bin/mount", "-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=0777", "tmpfs", folder.path)
        guard result.status == 0 else {
            try? FileManager.default.removeItem(at: folder)
            let message = result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
            return .failure(Refused(description: message.isEmpty ? "mount exited with \(result.status)" : message))
        }
        return .success(SmallDisk(folder: folder))
    }

    /// Unmounts the file system (and what is on it) and removes its folder.
    public func unmount() {
        _ = try? Self.command("/bin/umount", folder.path)
        try? FileManager.default.removeItem(at: folder)
    }

    private static func command(_ executable: String, _ arguments: String...) throws -> PerimeterProcess.Result {
        try PerimeterProcess.run(arguments, in: URL(fileURLWithPath: "/"), executable: executable)
    }
}
