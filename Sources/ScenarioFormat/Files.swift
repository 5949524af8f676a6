import Foundation
import Yams

/// Paths and files: resolving a path against the scenario's folder, checking it, composing YAML.
enum Files {
    /// `path` relative to the folder of `file` (absolute paths unchanged), with `.` and `..` folded.
    static func resolve(_ path: String, relativeTo file: String) -> String {
        if path.hasPrefix("/") { return normalize(path) }
        let folder = (file as NSString).deletingLastPathComponent
        return normalize(folder.isEmpty ? path : folder + "/" + path)
    }

    /// Folds `.` and `name/..` lexically: `Scenarios/../Tracks/a.gpx` is `Tracks/a.gpx`.
    static func normalize(_ path: String) -> String {
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

    /// Why `path` cannot be read as a file, or nil when it can.
    static func problem(at path: String) -> String? {
        if let unreachable = PathCheck.unreachable(path) { return unreachable }
        if let kind = PathCheck.notRegularFile(path) { return kind }
        if !FileManager.default.isReadableFile(atPath: path) { return "\(path) cannot be read (permission denied)" }
        return nil
    }

    /// The largest YAML or JSON file read: 128 MB. Yams composes the whole document as a tree of nodes,
    /// about 30 times the file's size (a 12.6 MB GeoJSON of 100,000 circles peaks at 370 MB).
    static let maximumSize = 128 << 20

    /// A file's root node, or nil with errors recorded (unreadable file, YAML or JSON syntax, empty file).
    static func compose(_ path: String, what: String, diagnostics: Diagnostics) -> Node? {
        func fail(_ line: Int, _ column: Int, _ message: String) {
            diagnostics.error(ScenarioError(file: path, keyPath: "", line: line, column: column, message: message))
        }
        if let problem = problem(at: path) {
            fail(0, 0, "cannot read \(what): \(problem)")
            return nil
        }
        if let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int, size > maximumSize {
            fail(0, 0, """
                cannot read \(what): the file is \(size >> 20) MB; YAML and JSON files over \(maximumSize >> 20) MB are \
                refused, as their document tree would take about 30 times their size in memory. Split the regions \
                over several GeoJSON files, or keep long tracks in GPX (read as a stream)
                """)
            return nil
        }
        // Not FileManager.contents(atPath:): on Linux it leaks a 4 kB buffer for every empty file it reads.
        // (readToEnd() is nil for an empty file.)
        guard let handle = FileHandle(forReadingAtPath: path),
              case .success(let contents) = Result(catching: { try handle.readToEnd() }) else {
            fail(0, 0, "cannot read \(what): \(path) could not be opened")
            return nil
        }
        let data = contents ?? Data()
        guard let text = String(data: data, encoding: .utf8) else {
            fail(0, 0, "cannot read \(what): the file is not UTF-8 text")
            return nil
        }
        do {
            guard let root = try Yams.compose(yaml: text) else {
                fail(0, 0, "the file is empty; expected \(what)")
                return nil
            }
            return root
        } catch let error as YamlError {
            let (line, column, message) = describe(error)
            fail(line, column, message)
        } catch {
            fail(0, 0, "cannot parse \(what): \(error)")
        }
        return nil
    }

    /// A YAML error's place and a sentence, without Yams's multi-line snippet.
    private static func describe(_ error: YamlError) -> (Int, Int, String) {
        func sentence(_ kind: String, _ context: YamlError.Context?, _ problem: String) -> String {
            var out = "\(kind) syntax error: \(problem)"
            if let context { out += " (\(context.text) at line \(context.mark.line), column \(context.mark.column))" }
            return out
        }
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _),
             let .composer(context, problem, mark, _):
            return (mark.line, mark.column, sentence("YAML", context, problem))
        case let .duplicatedKeysInMapping(duplicates, context):
            let keys = duplicates.map { "\"\($0)\"" }.joined(separator: ", ")
            return (context.mark.line, context.mark.column,
                    "a key appears more than once in one mapping: \(keys) (first given here); each key may be given once")
        case let .reader(problem, _, _, _):
            return (0, 0, "the file cannot be read as text: \(problem)")
        default:
            return (0, 0, "cannot parse the file: \(error)")
        }
    }
}

/// Whether a path can be reached at all, said as a person needs it: "missing" and "not allowed" call for
/// different fixes.
public enum PathCheck {
    /// Why nothing can be found at `path` (missing, a folder of its path not allowed, a part of it not a
    /// folder), or nil when something is there.
    public static func unreachable(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) != 0 else { return nil }
        switch errno {
        case EACCES: return "\(path) cannot be reached (permission denied on a folder of its path)"
        case ENOTDIR: return "\(path) cannot be reached: a part of its path is not a folder"
        default: return "no such file: \(path)"
        }
    }

    /// Why what is at `path` is not a regular file (a folder, a FIFO, a device, a socket), or nil when it
    /// is one or nothing is there. Looks with stat(2) and never opens: opening a FIFO waits for a writer.
    public static func notRegularFile(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "\(path) is a directory, not a file"
        case S_IFIFO:
            return "\(path) is a named pipe (FIFO), not a file: it is read from a regular file (a pipe can block until someone writes to it, and be read only once); save it to a file first"
        case S_IFSOCK: return "\(path) is a socket, not a file"
        default: return "\(path) is a device, not a file"
        }
    }
}
