import ArgumentParser
import FileSystem
import Foundation
import Geofencing
import ScenarioFormat

/// `ios,android,phones/pixel-8.profile.yaml` as profiles, in order and without repeats, for `--profiles`
/// of `compare` and `report` (`--profile` of `validate` and `inspect`, named by `option`): built-in names,
/// or profile files relative to the current folder. A name that is neither is a usage error naming the
/// profiles; a profile file with problems is bad input (exit 2).
func profiles(_ text: String, option: String = "--profiles") throws -> [Profile] {
    var list: [Profile] = []
    for name in text.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces) })
    {
        guard Profile.builtIn(named: name) != nil || FileCheck.problemReading(name) == nil else {
            let known = Profile.builtInNames.joined(separator: ", ")
            throw ValidationError(
                "\(option): unknown profile \"\(name)\"; the profiles are \(known) or profile files, separated by commas.")
        }
        let profile = try resolvedProfile(name)
        if !list.contains(profile) { list.append(profile) }
    }
    return list
}

/// The profile `--profile` or `--against` names: a built-in's name, or a profile file relative to the
/// current folder; its problems (each at its file, line and column) are printed, with exit 2.
func resolvedProfile(_ text: String) throws -> Profile {
    do {
        return try ProfileFile.resolve(text)
    } catch {
        throw error.reported
    }
}

/// The help of `--profile`, which replaces the scenario's.
let profileOptionHelp = ArgumentHelp(
    "Replaces the scenario's profile: a built-in (\(Profile.builtInNames.joined(separator: ", "))) or a profile file (see 'perimeter profile show').",
    valueName: "name-or-file")
