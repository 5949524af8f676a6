import Documents
import FileSystem
import Foundation
import Geofencing
import Time

extension ScenarioLoader {
    /// The keys of a `devices:` entry that names many GPX files at once.
    static let trackFolderKeys = ["tracks", "offset", "pace", "accuracy", "recorded"]

    /// `- tracks: tracks/*.gpx`: one device per GPX file the pattern matches, its id the file's name without
    /// its extension (`tracks/van-07.gpx` → `van-07`, `walk.gpx.gz` → `walk`), in the byte order of the
    /// names, so that the same folder gives the same devices on every system. The pattern's wildcards
    /// (`*`, `?`, `[…]`, as a shell's, never matching a leading `.`) are in the file name only; the folder is
    /// relative to the scenario, and it and each file are confined to the scenario's root as a `track:` is
    /// (`ProblemLog.refusal`). `offset`, `pace`, `accuracy` and `recorded` apply to every device. The files
    /// are read in parallel. O(the folder's names + the tracks' points).
    func trackFolderDevices(
        _ c: PlacedNode, diagnostics: ProblemLog, zone: LocalTimeZone?, recordedByDefault: Bool
    ) -> [(Device, id: PlacedNode, pace: PlacedNode?)] {
        let what = "GPX files as a pattern relative to the scenario, such as tracks/*.gpx"
        guard
            let fields = c.mapping(
                "a folder of tracks: {tracks: PATTERN, offset, pace, accuracy, recorded}", allowed: Self.trackFolderKeys)
        else { return [] }
        let recorded = fields["recorded"].map { $0.boolean(Self.recordedWhat) ?? false } ?? recordedByDefault
        let accuracy = fields["accuracy"]?.distance(.nonNegative)
        let offset = fields["offset"].map { $0.duration(.any) } ?? .zero
        let paceCursor = fields["pace"]
        let pace = paceCursor.map { $0.duration(.positive) } ?? .seconds(1)
        guard let cursor = fields.required("tracks", what), let pattern = cursor.text(what) else { return [] }
        guard let names = matchingNames(pattern, at: cursor, diagnostics: diagnostics) else { return [] }
        let folder = (pattern.contains("/") ? FileNames.directory(of: pattern) : "")
        let written = names.map { folder.isEmpty ? $0 : folder + "/" + $0 }
        let readable = written.filter {
            diagnostics.refusal(reading: $0, resolved: FileNames.resolve($0, besideFile: c.file), naming: c.file) == nil
        }
        let preloaded = PreloadedTracks(
            paths: readable.map { FileNames.resolve($0, besideFile: c.file) }, loader: trackLoader, threads: threads)
        var devices: [(Device, id: PlacedNode, pace: PlacedNode?)] = []
        for (name, path) in zip(names, written) {
            if let device = trackDevice(
                TrackSource(written: path, cursor: cursor), id: Self.deviceID(fileName: name), idCursor: cursor,
                offset: offset, offsetCursor: fields["offset"], pace: pace, paceCursor: paceCursor,
                accuracy: accuracy, recorded: recorded, diagnostics: diagnostics, preloaded: preloaded, zone: zone)
            {
                devices.append(device)
            }
        }
        return devices
    }

    /// The names in the pattern's folder its last part matches, sorted by their bytes; nil with an error at
    /// `cursor` when the folder cannot be read, the scenario may not read it, or nothing matches.
    private func matchingNames(_ pattern: String, at cursor: PlacedNode, diagnostics: ProblemLog) -> [String]? {
        let folder = (pattern.contains("/") ? FileNames.directory(of: pattern) : "")
        let namePattern = FileNames.lastComponent(of: pattern)
        if folder.contains(where: { "*?[".contains($0) }) {
            cursor.fail("\(pattern): wildcards go in the file name only (tracks/*.gpx), not in its folders")
            return nil
        }
        let resolved = FileNames.resolve(folder.isEmpty ? "." : folder, besideFile: cursor.file)
        if let refusal = diagnostics.refusal(reading: folder.isEmpty ? "." : folder, resolved: resolved, naming: cursor.file)
        {
            cursor.fail("cannot read the tracks' folder: \(refusal)")
            return nil
        }
        guard FileCheck.isDirectory(resolved), let all = try? FileManager.default.contentsOfDirectory(atPath: resolved)
        else {
            cursor.fail("cannot read the tracks: \(resolved) is not a folder that can be read")
            return nil
        }
        let names = all.filter { FileNames.matches($0, wildcard: namePattern) }.sorted {
            $0.utf8.lexicographicallyPrecedes($1.utf8)
        }
        guard !names.isEmpty else {
            let gpx = all.filter { !$0.hasPrefix(".") && FileDiscovery.fileExtension(of: $0) == "gpx" }.count
            let shown = folder.isEmpty ? "the scenario's folder" : "its folder \(folder)/"
            cursor.fail(
                "no file matches \(pattern) ("
                    + (gpx > 0 ? "\(shown) holds \(gpx) .gpx file\(gpx == 1 ? "" : "s")" : "\(shown) holds no .gpx file")
                    + "; the pattern's case counts)")
            return nil
        }
        return names
    }

    /// A device's id from its GPX file's name: the name without `.gz`, then without its extension.
    static func deviceID(fileName: String) -> String {
        var name = Substring(fileName)
        for _ in 0..<2 {
            guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { break }
            let ext = name[name.index(after: dot)...].lowercased()
            name = name[..<dot]
            if ext != "gz" { break }
        }
        return String(name)
    }
}
