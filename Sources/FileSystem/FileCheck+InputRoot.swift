#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileCheck {
    /// The folder a scenario file's inputs are confined to: the nearest folder holding `.git` (a folder,
    /// or a worktree's file) from the file's own folder up, else `given` (the folder given to `check` or
    /// `validate`) when it holds the file, else the file's own folder. Returned as a real path (links
    /// resolved); nil when the file's folder cannot be resolved. O(depth) lstat calls.
    public static func inputRoot(of file: String, given: String? = nil) -> String? {
        guard let folder = realPath(FileNames.directory(of: file)) else { return nil }
        var candidate = folder
        while true {
            var info = stat()
            if lstat(candidate == "/" ? "/.git" : candidate + "/.git", &info) == 0 { return candidate }
            guard candidate != "/" else { break }
            candidate = FileNames.directory(of: candidate)
        }
        if let given, let real = realPath(given), folder == real || folder.hasPrefix(real == "/" ? "/" : real + "/") {
            return real
        }
        return folder
    }

    /// The system folders no scenario reads from, whatever its root: they hold the process's secrets
    /// (`/proc/self/environ`) or devices that never end (`/dev/zero`).
    public static let systemFolders = ["/proc", "/dev", "/sys"]

    /// Why a scenario may not read `written` (a path as the file `naming` it writes it, `resolved` beside
    /// it) when its inputs are confined to the real folder `root`, as the end of a sentence (`is an
    /// absolute path`), or nil when it may: an absolute path, a path under a system folder, one whose real
    /// path (`..` and links resolved) lies outside `root`, or a dot-file or dot-folder (`.env`,
    /// `.git/config`) that the naming file is not in itself. A path that does not exist passes (reading it
    /// says that it is missing). O(components).
    public static func outsideInputRoot(_ written: String, resolved: String, naming: String, root: String) -> String? {
        if written.hasPrefix("/") { return "is an absolute path" }
        guard let real = realPath(resolved) else { return nil }
        let under = { (folder: String) in folder == "/" || real == folder || real.hasPrefix(folder + "/") }
        if let system = systemFolders.first(where: under) { return "lies in \(system)" }
        guard under(root) else { return "leads to \(real), outside \(root)" }
        // A dot-file or dot-folder (.env, .git/config, .aws/) the scenario's own folder is not in.
        let inside = { (path: String) in path.dropFirst(root.count).split(separator: "/") }
        let own = realPath(FileNames.directory(of: naming)).map(inside) ?? []
        let parts = inside(real)
        let shared = zip(parts, own).prefix { $0 == $1 }.count
        if let hidden = parts.dropFirst(shared).first(where: { $0.hasPrefix(".") }) {
            return "is or lies in \(hidden), a hidden file or folder, which a scenario never reads"
        }
        return nil
    }

    /// realpath(3) of `path`, or nil when some part of it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
