import Documents

extension Scenario {
    /// Its warnings as people read them: each kind said more than `WarningDigest.listed` times (a GPX
    /// point dropped) summed up in one line (`345 duplicate-time points dropped in 40 tracks; first: …`),
    /// or with `all`, every one (`--all-warnings`). O(warnings).
    public func warnings(all: Bool) -> [String] {
        all ? warnings : WarningDigest.summarised(warnings, kinds: warningKinds)
    }
}
