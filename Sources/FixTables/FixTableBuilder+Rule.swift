/// SEMANTICS §1 for one checked fix of a fix table: the one rule of every read (on one thread, in pieces,
/// streaming), with what it does and why.
extension FixTableBuilder {
    /// What SEMANTICS §1 does with a checked fix of device `index` whose last kept fix is `last`.
    enum Keeping {
        /// Kept after `last`.
        case append
        /// Kept in place of `last`, which has the same time (of equal times the later is kept).
        case replaceLast
        /// Dropped: its coordinate is out of range, or its time is earlier than `last`'s.
        case drop
    }

    /// Why SEMANTICS §1 dropped a fix, or replaced the one before it.
    enum Drop: Sendable {
        /// Its coordinate is out of range.
        case outOfRange
        /// Its time is earlier than the last kept fix's.
        case earlier
        /// Its time is the last kept fix's, which it replaces.
        case sameTime
    }

    /// SEMANTICS §1 for one checked fix after its device's last kept fix `last` (nil: none yet): what is
    /// done with it, and why when a fix is dropped or replaced. The one rule of every read: on one
    /// thread, in pieces, streaming. O(1), no side effect.
    static func rule(for fix: TableFix, after last: TableFix?) -> (keeping: Keeping, drop: Drop?) {
        guard fix.isInRange else { return (.drop, .outOfRange) }
        guard let last else { return (.append, nil) }
        if fix.time < last.time { return (.drop, .earlier) }
        if fix.time == last.time { return (.replaceLast, .sameTime) }
        return (.append, nil)
    }
}
