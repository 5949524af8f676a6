import Foundation

/// A scenario of the repository copied into a temporary folder, for tests that change it.
public enum RepositoryCopy {
    /// A copy of the repository's `Scenarios/lorrenzillos.yaml`, its golden log (with the record of what it
    /// was made from) and its track, in a temporary folder laid out like the repository (`.git/`, `Scenarios/`,
    /// `Tracks/`): its root, inside which a scenario reads its inputs.
    public static func lorrenzillos() throws -> URL {
        let folder = try PerimeterProcess.temporaryFolder()
        let fm = FileManager.default
        for sub in [".git", "Scenarios", "Tracks"] {
            try fm.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        for file in [
            "Scenarios/lorrenzillos.yaml", "Scenarios/lorrenzillos.events.jsonl",
            "Scenarios/lorrenzillos.events.inputs.json", "Tracks/lorrenzillos-visit.gpx",
        ] {
            try fm.copyItem(at: PerimeterProcess.root.appendingPathComponent(file), to: folder.appendingPathComponent(file))
        }
        return folder
    }

    /// Replaces `old` by `new` in the file at `url`, which must contain it.
    public static func edit(_ url: URL, _ old: String, _ new: String) throws {
        struct NotFound: Error { let text: String }
        let text = try String(contentsOf: url, encoding: .utf8)
        guard text.contains(old) else { throw NotFound(text: old) }
        try text.replacingOccurrences(of: old, with: new).write(to: url, atomically: true, encoding: .utf8)
    }

    /// The region line of `Scenarios/lorrenzillos.yaml`.
    public static let circleLine = "    circle: {lat: 37.703026, lon: -121.759735, radius: 300}\n"
}
