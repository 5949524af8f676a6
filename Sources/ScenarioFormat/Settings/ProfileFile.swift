import Documents
import FileSystem
import Foundation
import Geofencing
import NumberText
import TextEscaping
import Time

/// A profile file (`phones/pixel-8.profile.yaml`): a built-in profile or another profile file as its
/// `base:`, with any of the `monitor:` block's fields replaced, each error at its file, line, column and key.
///
/// ```yaml
/// name: pixel-8              # optional: else the file name without .profile.yaml
/// base: android              # a built-in, or a profile file relative to this one
/// source: "Our field walk, 2026-10"
/// hysteresis: 30m
/// ```
public enum ProfileFile {
    /// The keys of a profile file besides the `monitor:` block's; `intervals` (a fitted file's 90 %
    /// intervals, by parameter name, as `calibrate -o` writes them) comes after the settings.
    static let ownKeys = ["name", "base", "source"]

    /// The most profile files one chain of `base:` may hold (the file named first, its base, its base's
    /// base, …): deeper is refused, never read until the stack runs out (a chain of 2,200 files crashed).
    public static let maxChainLength = 32

    /// The profile that `text` names on a command line: a built-in's name, else a profile file's path
    /// (relative to the current folder). Every problem of the file (and its bases) at once.
    public static func resolve(_ text: String) throws(ScenarioErrors) -> Profile {
        if let builtIn = Profile.builtIn(named: text) { return builtIn }
        let d = ProblemLog()
        if let problem = FileCheck.problemReading(text) {
            var message = "no built-in profile of that name (" + Profile.builtInNames.joined(separator: ", ") + ")"
            message += ", and " + problem
            if let guess = Suggestion.closest(to: text, in: Profile.builtInNames) {
                message += "; did you mean \"\(guess)\"?"
            }
            throw ScenarioErrors([ScenarioError(file: text, keyPath: "", line: 0, column: 0, message: message)])
        }
        // Normalized as a base's path is, so that a cycle back to this file is seen as one.
        if let profile = read(FileNames.normalize(text), written: text, chain: [], diagnostics: d), !d.hasErrors {
            return profile
        }
        throw ScenarioErrors(d.errors)
    }

    /// A scenario's `profile:` (or a profile file's `base:`): a built-in's name, else the path of a profile
    /// file relative to the file `c` is in. `chain` holds the files that led here, to refuse a cycle;
    /// `writtenBeside`, the path of the file naming this base as the scenario would write it, so that each
    /// input is recorded relative to the scenario's folder.
    static func reference(_ c: PlacedNode, chain: [String] = [], writtenBeside: String? = nil) -> Profile? {
        let names = Profile.builtInNames.joined(separator: ", ")
        guard let text = c.text("a built-in profile (\(names)) or the path of a profile file") else { return nil }
        if let builtIn = Profile.builtIn(named: text) { return builtIn }
        let resolved = FileNames.resolve(text, besideFile: c.file)
        if let refusal = c.diagnostics.refusal(reading: text, resolved: resolved, naming: c.file) {
            c.fail("the profile file cannot be read: \(refusal)")
            return nil
        }
        if chain.contains(resolved) {
            let loop = (chain.drop { $0 != resolved } + [resolved]).joined(separator: " → ")
            c.fail(chain.last == resolved ? "the profile file names itself as its base" : "the bases form a cycle: \(loop)")
            return nil
        }
        if chain.count >= maxChainLength {
            c.fail(
                "the bases form a chain of more than \(maxChainLength) profile files: \(Self.describe(chain + [resolved])); "
                    + "base one of the first files on a built-in profile instead")
            return nil
        }
        if let problem = FileCheck.problemReading(resolved) {
            let looksLikeName = !text.contains("/") && !text.hasSuffix(".yaml") && !text.hasSuffix(".yml")
            if looksLikeName {
                let guess = Suggestion.closest(to: text, in: Profile.builtInNames).map { "; did you mean \"\($0)\"?" } ?? "."
                c.fail(
                    "unknown profile \(c.quote(text))\(guess) The built-in profiles are \(names); "
                        + "else give the path of a profile file (NAME.profile.yaml)")
            } else {
                c.fail("the profile file cannot be read: \(problem)")
            }
            return nil
        }
        let written = writtenBeside.map { FileNames.resolve(text, besideFile: $0) } ?? text
        c.diagnostics.reads(ScenarioInput(kind: .profile, written: written, resolved: resolved))
        return read(resolved, written: written, chain: chain, diagnostics: c.diagnostics)
    }

    /// A chain of files for people: the first three and the last three, with how many are left out between.
    static func describe(_ chain: [String]) -> String {
        let shown = chain.map { TerminalText.visible($0) }
        guard shown.count > 6 else { return shown.joined(separator: " → ") }
        return (shown.prefix(3) + ["… (\(shown.count - 6) more) …"] + shown.suffix(3)).joined(separator: " → ")
    }

    /// The profile file at `path` (`written` as the scenario or the command line gave it), its base read
    /// first; nil with errors recorded.
    static func read(_ path: String, written: String, chain: [String], diagnostics d: ProblemLog) -> Profile? {
        guard let root = YAMLDocument.compose(path, what: "a profile file (a YAML mapping)", diagnostics: d) else {
            return nil
        }
        let before = d.errors.count
        let top = PlacedNode(node: root, path: "", file: path, diagnostics: d)
        guard
            let fields = top.mapping(
                "a profile: a mapping of base, name, source and monitor settings",
                allowed: ownKeys + MonitorField.keys(at: .profile) + ["intervals"])
        else { return nil }
        let name = fields["name"]?.text("the profile's name") ?? defaultName(path)
        let source = fields["source"]?.text("the profile's source, in words")
        let intervals = fields["intervals"].map(Self.intervals) ?? [:]
        let base = fields.required(
            "base", "a built-in profile (\(Profile.builtInNames.joined(separator: ", "))) or the path of a profile file"
        )
        .flatMap { reference($0, chain: chain + [path], writtenBeside: written) }

        // The monitor fields alone, read by the `monitor:` block's reader (its units and ranges). The tick is
        // not known here: a scenario checks the interval against its own.
        guard case let .mapping(pairs, mark) = top.node else { return nil }
        let keys = MonitorField.keys(at: .profile)
        let monitorPairs = pairs.filter { $0.key.text.map(keys.contains) ?? false }
        let monitor = PlacedNode(node: .mapping(monitorPairs, mark), path: "", file: path, diagnostics: d)
        for pair in monitorPairs {
            if let key = pair.key.text, let field = MonitorField.named(key) {
                requireUnit(monitor.child(key, pair.value), field: field)
            }
        }
        let overrides = MonitorBlock.read(
            monitor.mapping("a profile's settings", allowed: keys), level: .profile, tick: TimeSpan(microseconds: 1))
        var lines: [String: Int] = [:]
        for pair in monitorPairs { if let key = pair.key.text { lines[key] = Int(pair.key.mark.line) } }

        guard let base, d.errors.count == before else { return nil }
        return base.derived(
            name: name, file: path, source: source, overrides: overrides, lines: lines, intervals: intervals)
    }

    /// A fitted file's `intervals:`: each a parameter `calibrate` fits (`hysteresis`, `delivery.median`)
    /// and its interval `[low, high]` in the parameter's unit, low ≤ high; errors at their key paths.
    static func intervals(_ c: PlacedNode) -> [String: ClosedRange<Double>] {
        let names = MonitorField.all.flatMap { field in field.fits.map { field.name(of: $0) } }
        guard let f = c.mapping("a mapping of fitted parameters to their intervals [low, high]", allowed: names) else {
            return [:]
        }
        var intervals: [String: ClosedRange<Double>] = [:]
        for name in f.keys {
            guard let node = f[name] else { continue }
            let what = "an interval [low, high]: two numbers in \(name)'s unit"
            guard let ends = node.list(what) else { continue }
            guard ends.count == 2 else {
                node.expected(what)
                continue
            }
            guard let low = ends[0].number(what), let high = ends[1].number(what) else { continue }
            guard low <= high else {
                node.fail("the interval's low end \(low) is above its high end \(high)")
                continue
            }
            intervals[name] = low...high
        }
        return intervals
    }

    /// A bare number for a distance or a duration is refused: a profile file is read by people comparing
    /// phones, and `30` could be metres, seconds or minutes.
    static func requireUnit(_ c: PlacedNode, field: MonitorField) {
        let what: String
        switch field.kind {
        case .distance: what = "a distance"
        case .duration: what = "a duration"
        default: return
        }
        guard let text = c.scalarText, ExactDecimal(text.trimmingSpaces) != nil else { return }
        let example =
            what == "a distance" ? "\"\(text)m\" or \"\(text)km\"" : "\"\(text)s\", \"\(text)ms\" or \"\(text)min\""
        c.fail("missing unit: expected \(what) with its unit, such as \(example), got \(c.got)")
    }

    /// `pixel-8` for `phones/pixel-8.profile.yaml` (or `.yaml`, `.yml`).
    public static func defaultName(_ path: String) -> String {
        var name = (path as NSString).lastPathComponent
        for suffix in [".profile.yaml", ".profile.yml", ".yaml", ".yml"] where name.hasSuffix(suffix) {
            name.removeLast(suffix.count)
            break
        }
        return name
    }
}
