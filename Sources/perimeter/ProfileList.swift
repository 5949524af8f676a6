import ArgumentParser
import Foundation
import Geofencing

/// `ios,android,ideal` as profiles, in order and without repeats, for `--profiles` of `compare` and
/// `report`; a name that is not a profile is a usage error naming the profiles.
func profiles(_ text: String) throws -> [Profile] {
    var list: [Profile] = []
    for name in text.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces) }) {
        guard let profile = Profile(rawValue: name) else {
            let known = Profile.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("--profiles: unknown profile \"\(name)\"; the profiles are \(known), separated by commas.")
        }
        if !list.contains(profile) { list.append(profile) }
    }
    return list
}
