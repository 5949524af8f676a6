#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a path written relative to a folder leads out of it.
public enum FolderEscape: Hashable, Sendable {
    /// The path is absolute.
    case absolute
    /// Its `..` go above the folder.
    case upward
    /// A symbolic link on its way (a folder, or the file itself) leads to `target`, a real path outside.
    case link(target: String)
}

extension FileCheck {
    /// How writing `path` (relative to `folder`) would reach outside `folder`, or nil when it stays
    /// inside: the rule for files a scenario names for its sinks.
    ///
    /// Lexically first (an absolute path, `..` past the top), then as the system would resolve it: the
    /// deepest part of the path that exists (the file itself when it does: `AtomicFile` replaces what a
    /// link points to) is resolved with realpath(3), the rest appended (a link to nothing yet followed as
    /// written), and the result must lie in the real folder. O(components) realpath calls. The folder
    /// could still change between this check and the write: it guards against a file someone hands
    /// over, not against a race on one's own disk.
    public static func escape(of path: String, from folder: String) -> FolderEscape? {
        if path.hasPrefix("/") { return .absolute }
        let lexical = FileNames.normalize(path)
        if lexical == ".." || lexical.hasPrefix("../") { return .upward }
        guard let realFolder = realPath(folder) else { return nil }  // opening the file says why it fails
        var existing = FileNames.resolve(path, inFolder: folder)
        var rest: [String] = []
        var real = realPath(existing)
        while real == nil, existing.contains("/") {
            rest.insert(FileNames.lastComponent(of: existing), at: 0)
            existing = FileNames.directory(of: existing)
            real = realPath(existing)
        }
        guard let real else { return nil }
        var target = FileNames.normalize(([real] + rest).joined(separator: "/"))
        // A link to nothing yet: opening the path may create what it points to (SQLite does), so its
        // target is followed as written, link after link (as many as the system would, 40).
        var hops = 0
        while let next = linkTarget(target), hops < 40 {
            target = next
            hops += 1
        }
        let inside = realFolder == "/" || target == realFolder || target.hasPrefix(realFolder + "/")
        return inside ? nil : .link(target: target)
    }

    /// The first symbolic link met on the way down `path` from `folder` (`path` relative to it, each
    /// prefix as written, `..` included, asked with lstat(2)), as that prefix of `path`; nil when none
    /// is, or when the path stops existing before one. O(components) lstat calls.
    public static func firstLink(on path: String, from folder: String) -> String? {
        var prefix = ""
        for part in path.split(separator: "/") where part != "." {
            prefix += (prefix.isEmpty ? "" : "/") + part
            var info = stat()
            guard lstat(FileNames.resolve(prefix, inFolder: folder), &info) == 0 else { return nil }
            if (info.st_mode & S_IFMT) == S_IFLNK { return prefix }
        }
        return nil
    }

    /// What the symbolic link at `path` holds (readlink(2), as written in the link), or nil when `path` is
    /// not a link: asked with lstat(2), never following it.
    public static func linkDestination(of path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        return count < 0 ? "" : String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Where the symbolic link at the absolute `path` points, as an absolute path folded lexically, or nil
    /// when `path` is not a link.
    private static func linkTarget(_ path: String) -> String? {
        guard let destination = linkDestination(of: path), !destination.isEmpty else { return nil }
        if destination.hasPrefix("/") { return FileNames.normalize(destination) }
        let folder = realPath(FileNames.directory(of: path)) ?? FileNames.directory(of: path)
        return FileNames.normalize(folder + "/" + destination)
    }
}
