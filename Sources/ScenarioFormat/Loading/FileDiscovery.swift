import FileSystem
import Foundation

/// The files a command is pointed at: files as given, folders searched recursively in sorted order.
/// The one walk for `check` (scenarios) and `validate` (everything it can check).
public enum FileDiscovery {
    /// The files named by `paths`, in the order given, each folder replaced by the files below it whose
    /// relative path passes `include` (sorted); the paths where nothing can be reached, apart.
    public static func files(
        in paths: [String], including include: (String) -> Bool
    )
        -> (files: [String], unreachable: [String])
    {
        var files: [String] = [], unreachable: [String] = []
        for path in paths {
            guard FileCheck.unreachable(path) == nil else {
                unreachable.append(path)
                continue
            }
            guard FileCheck.isDirectory(path) else {
                files.append(path)
                continue
            }
            files += visibleFiles(below: path).filter(include).sorted().map {
                path.hasSuffix("/") ? path + $0 : path + "/" + $0
            }
        }
        return (files, unreachable)
    }

    /// The paths below the folder `path`, relative to it, but hidden files and folders (`.git`, `.build`,
    /// `.github`: a name starting with a dot) and what is below them, which a walk never enters.
    static func visibleFiles(below path: String) -> [String] {
        guard let walk = FileManager.default.enumerator(atPath: path) else { return [] }
        var found: [String] = []
        while let relative = walk.nextObject() as? String {
            if FileNames.lastComponent(of: relative).hasPrefix(".") {
                walk.skipDescendants()
            } else {
                found.append(relative)
            }
        }
        return found
    }

    /// The extension of `path`, lowercased: `yaml` for `Scenarios/A.YAML`; empty when it has none.
    public static func fileExtension(of path: String) -> String {
        let name = FileNames.lastComponent(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }

    /// Whether `path` is a scenario by its name: `*.yaml` or `*.yml`, but not a profile file.
    public static func isScenario(_ path: String) -> Bool {
        ["yaml", "yml"].contains(fileExtension(of: path)) && !isProfileFile(path)
    }

    /// Whether `path` is a profile file by its name: `*.profile.yaml` or `*.profile.yml`.
    public static func isProfileFile(_ path: String) -> Bool {
        let lowered = path.lowercased()
        return lowered.hasSuffix(".profile.yaml") || lowered.hasSuffix(".profile.yml")
    }
}
