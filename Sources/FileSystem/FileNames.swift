#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Paths as text: the folder of a path, a path resolved against a folder or beside a file. Lexical only
/// (no file is looked at). O(length of the path).
public enum FileNames {
    /// The directory part of `path`: `out` for `out/e.jsonl`, `/` for `/e.jsonl`, `.` when it has none.
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }

    /// The last component of `path`: `e.jsonl` for `out/e.jsonl`.
    public static func lastComponent(of path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
    }

    /// `path` with `mark` before its extension, and `-number` after the mark from 2 on: for `mark`
    /// `interrupted`, `out/e.interrupted.jsonl`, then `out/e.interrupted-2.jsonl`; `out/e.interrupted`
    /// for a name with no extension (or a hidden one's own dot, `.e`).
    public static func marked(_ path: String, _ mark: String, number: Int = 1) -> String {
        let name = lastComponent(of: path)
        let folder = String(path.dropLast(name.utf8.count))
        let tag = "." + mark + (number > 1 ? "-\(number)" : "")
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return folder + name + tag }
        return folder + name[..<dot] + tag + name[dot...]
    }

    /// `path` resolved against `folder`: unchanged when absolute, `-` (standard output), or when `folder`
    /// is nil, empty or `.`. Nothing is folded: `out/../e.jsonl` stays as written.
    public static func resolve(_ path: String, inFolder folder: String?) -> String {
        guard path != "-", !path.hasPrefix("/"), let folder, !folder.isEmpty, folder != "." else { return path }
        return folder.hasSuffix("/") ? folder + path : folder + "/" + path
    }

    /// `path` relative to the folder of `file` (absolute paths unchanged), with `.` and `..` folded: the
    /// paths a scenario names (tracks, region files), relative to the scenario file.
    public static func resolve(_ path: String, besideFile file: String) -> String {
        if path.hasPrefix("/") { return normalize(path) }
        let folder = file.contains("/") ? directory(of: file) : ""
        return normalize(folder.isEmpty ? path : folder + "/" + path)
    }

    /// Folds `.` and `name/..` lexically: `Scenarios/../Tracks/a.gpx` is `Tracks/a.gpx`.
    public static func normalize(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else if part == "..", absolute, parts.isEmpty {
                continue
            } else {
                parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    /// Whether `name` matches the shell wildcard `pattern` (`*`, `?`, `[…]`, fnmatch(3)); a leading `.` is
    /// matched only by a leading `.` in the pattern. `*` also matches `/` unless `slashes` is false.
    public static func matches(_ name: String, wildcard pattern: String, slashes: Bool = true) -> Bool {
        fnmatch(pattern, name, FNM_PERIOD | (slashes ? 0 : FNM_PATHNAME)) == 0
    }
}
