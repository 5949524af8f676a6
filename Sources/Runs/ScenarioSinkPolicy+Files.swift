import EventSinks
import FileSystem
import ScenarioFormat

extension ScenarioSinkPolicy {
    /// Why a scenario's own sink may not write `path` (as written in `spec`, relative to the scenario's
    /// folder), as the end of a sentence (`which is …`), or nil when it may. The rules, in order:
    /// - it stays inside the folder (no absolute path, no `..` past it: `FileCheck.escape`);
    /// - no component is a dot-file or dot-folder (`.git/hooks/pre-commit`, `.github/…`, `.envrc`);
    /// - no component is a symbolic link (`FileCheck.firstLink`), not even one that stays inside;
    /// - it is not a golden log or inputs record (`NAME.events.jsonl`, `NAME.events.inputs.json`), nor
    ///   named as events kept for later (`OutputRecognition.isKeptEvents`: `spool.jsonl.unappended-PID`,
    ///   `e.interrupted.jsonl`, a run journal);
    /// - its name ends in its kind's extension (`SinkRegistry.fileExtensions`: `.csv` for `csv:`), so a
    ///   scenario's sink never makes nor fills `tools/env.sh`;
    /// - it is not the scenario file, or a file the scenario reads (a track, a fix table, a region or
    ///   profile file);
    /// - an existing file there is a regular file without execute bits, not empty, and holds what a sink
    ///   of this kind wrote, and only that (`SinkRegistry.recognizes`: its lines, opening or schema).
    /// A new file may be made. O(components) lstat calls, and reading at most 64 KiB of an existing file.
    static func fileRefusal(_ path: String, spec: SinkSpec, scenario: Scenario, registry: SinkRegistry) -> String? {
        let folder = FileNames.directory(of: scenario.file)
        switch FileCheck.escape(of: path, from: folder) {
        case .absolute: return "which is an absolute path"
        case .upward: return "which leads out of the scenario's folder with .."
        case let .link(target):
            return "which leads out of the scenario's folder through a symbolic link (to \(target))"
        case nil: break
        }
        let parts = path.split(separator: "/").map(String.init)
        if let dotted = parts.first(where: { $0.hasPrefix(".") && $0 != "." && $0 != ".." }) {
            return "which is in or is a dot-folder or dot-file (\(dotted)), where a scenario's sinks never write "
                + "(.git/hooks, .github, .envrc run code)"
        }
        if let link = FileCheck.firstLink(on: path, from: folder) {
            return "which goes through the symbolic link \(link); a scenario's sinks never write through a link"
        }
        let name = FileNames.lastComponent(of: path)
        if name.hasSuffix(".events.jsonl") || name.hasSuffix(".events.inputs.json") {
            return "which is named as a golden log or its inputs record (NAME.events.jsonl, "
                + "NAME.events.inputs.json), which only `perimeter check --update` writes"
        }
        if OutputRecognition.isKeptEvents(named: name) {
            return "which is named as events kept for later (a spool's NAME.unappended-PID, a run's "
                + "NAME.interrupted.EXT, a run journal), which a scenario's sinks never replace"
        }
        let extensions = registry.fileExtensions(of: spec)
        var misnamed: String?
        if !extensions.contains(where: { name.hasSuffix($0) && name.count > $0.count }) {
            let list = extensions.count > 1 ? extensions.dropLast().joined(separator: ", ") + " or " : ""
            misnamed =
                "which does not end in \(list)\(extensions.last ?? "an extension of its kind"); a scenario's "
                + "\(spec.scheme) sink writes only files named so"
        }
        let resolved = FileNames.resolve(path, inFolder: folder)
        guard case let .success(info) = FileCheck.status(of: resolved) else { return misnamed }  // a new file
        let same = { (other: String) -> Bool in
            guard case let .success(that) = FileCheck.status(of: other) else { return false }
            return that.deviceID == info.deviceID && that.inode == info.inode
        }
        if same(scenario.file) { return "which is the scenario file itself" }
        if let input = scenario.inputs.first(where: { same($0.resolved) }) {
            return "which is a file the scenario reads (its \(input.kind.rawValue) \(input.written))"
        }
        if let kind = FileCheck.notRegular(info.type) { return "which \(kind)" }
        if info.permissions.rawValue & 0o111 != 0 {
            return "which is an executable file; a scenario's sinks replace only files Perimeter wrote"
        }
        if let misnamed { return misnamed }
        if info.size == 0 {
            return "which is an empty file; nothing tells that Perimeter wrote it, so a scenario's sinks never "
                + "replace one (remove it first if it is yours)"
        }
        if !registry.recognizes(spec, fileAt: resolved) {
            return "which exists and is not \(spec.scheme) output Perimeter wrote (judged by its lines: an HTTP "
                + "spool or a field log is not); a scenario's sinks make new files or replace their own output, "
                + "never other files"
        }
        return nil
    }
}
