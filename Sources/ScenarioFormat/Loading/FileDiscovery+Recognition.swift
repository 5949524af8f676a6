import FileSystem
import Foundation

extension FileDiscovery {
    /// Why a YAML file found in a folder is not a scenario, in a few words, or nil when it may be one:
    /// what `check DIR` skips with a note instead of reporting it as bad input.
    ///
    /// Told by the keys at the top level of the file (a line that starts with a key and a colon): a
    /// journey has `route:` (`perimeter track synth`'s input); anything else with top-level keys but
    /// neither `regions:` nor `devices:`, which every scenario has, is some other YAML (a CI workflow, a
    /// compose file). A file whose top level is not read so (flow style, no keys, unreadable) may be a
    /// scenario: it is checked, and its problems are said. O(the file's bytes); reads at most 16 MiB.
    public static func notScenario(_ path: String) -> String? {
        guard let bytes = try? WholeFile.read(path, limit: 16 << 20) else { return nil }  // never opens a FIFO
        let keys = topLevelKeys(String(decoding: bytes, as: UTF8.self))
        if keys.contains("route") { return "a journey: it has route:" }
        if !keys.isEmpty && !keys.contains("regions") && !keys.contains("devices") {
            return "no regions: or devices: at its top level"
        }
        return nil
    }

    /// The keys of the lines of `text` that start with a key (plain, or in double or single quotes)
    /// followed by a colon, at the first column: a YAML mapping's top level in block style.
    static func topLevelKeys(_ text: String) -> Set<String> {
        var keys = Set<String>()
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
            // A plain key starts with a letter, a digit or `_`; a quoted one with its quote. Anything else
            // (indentation, a comment, `-`, `---`, a flow mapping's `{`) is no top-level key of block style.
            guard let first = line.first, first.isLetter || first.isNumber || first == "_" || first == "\"" || first == "'"
            else { continue }
            var key = line.prefix { $0 != ":" }
            guard key.endIndex < line.endIndex else { continue }
            if let quote = key.first, quote == "\"" || quote == "'", key.count >= 2, key.last == quote {
                key = key.dropFirst().dropLast()
            }
            keys.insert(String(key).trimmingCharacters(in: CharacterSet(charactersIn: " ")))
        }
        return keys
    }
}
