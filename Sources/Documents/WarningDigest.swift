/// A warning that may come many times in one load (a GPX point dropped, a fix-table row dropped): what
/// one is, and the file it came from, so that `WarningDigest` can count them.
public struct RepeatedWarning: Hashable, Sendable {
    /// What one is, as a plural phrase: `duplicate-time points dropped`.
    public var what: String
    /// The file it came from.
    public var file: String
    /// What such files are called, plural: `tracks`, `fix tables`.
    public var files: String

    public init(what: String, file: String, files: String) {
        self.what = what
        self.file = file
        self.files = files
    }
}

/// Repeated warnings said once per kind (issue 42 item 8): 345 lines of `dropped: its time … is also the
/// time of the point at line …` bury the one warning that mattered. A kind said more than `listed` times
/// becomes one line at its first one's place, counting them and the files they came from and quoting the
/// first: `345 duplicate-time points dropped in 40 tracks; first: tracks/a.gpx:12: …; --all-warnings lists
/// every one`. Other warnings keep their order. O(warnings).
public enum WarningDigest {
    /// A kind said at most this many times is listed whole.
    public static let listed = 5

    /// `warnings` with each kind said more than `listed` times summed up; `kinds[i]` is the kind of
    /// `warnings[i]` (nil for a warning said once). Without a kind for each, `warnings` as they are.
    public static func summarised(_ warnings: [String], kinds: [RepeatedWarning?]) -> [String] {
        guard kinds.count == warnings.count else { return warnings }
        var counts: [String: (count: Int, files: [String: Int])] = [:]
        for case let kind? in kinds {
            var entry = counts[kind.what] ?? (0, [:])
            entry.count += 1
            entry.files[kind.file, default: 0] += 1
            counts[kind.what] = entry
        }
        var said: Set<String> = []
        var out: [String] = []
        for (warning, kind) in zip(warnings, kinds) {
            guard let kind, let entry = counts[kind.what], entry.count > listed else {
                out.append(warning)
                continue
            }
            guard said.insert(kind.what).inserted else { continue }
            let files = entry.files.count
            out.append(
                "\(entry.count) \(kind.what) in \(files) \(files == 1 ? String(kind.files.dropLast()) : kind.files); "
                    + "first: \(warning); --all-warnings lists every one")
        }
        return out
    }
}
