/// SEMANTICS §1 along the runs of a group of devices, in place: how many fixes each keeps (at the start of
/// its run), and the dropped fixes that may be among the table's first `FixTable.keptWarnings`.
struct RunOutcome: Sendable {
    struct Dropped: Sendable {
        var drop: FixTableBuilder.Drop
        /// The fix being kept or dropped (its line orders the warnings), and the device's last kept fix.
        var fix: TableFix
        var last: TableFix?
        var device: Int
    }

    /// Per device of the group, its fixes kept.
    var kept: [Int] = []
    /// The group's dropped fixes of the earliest lines: at most twice `FixTable.keptWarnings` while it
    /// runs, then the first `FixTable.keptWarnings` (memory stays bounded however many are dropped).
    var dropped: [Dropped] = []
    var droppedCount = 0

    /// O(the group's rows).
    init(_ table: UnsafeMutablePointer<TableFix>, starts: [Int], counts: [Int], devices: Range<Int>) {
        kept.reserveCapacity(devices.count)
        for device in devices {
            let run = table + starts[device]
            // The usual run first: every fix in range and later than the one before, kept where it lies.
            var count = 0
            while count < counts[device], run[count].isInRange, count == 0 || run[count].time > run[count - 1].time {
                count += 1
            }
            for index in count..<counts[device] {
                let fix = run[index]
                let last = count > 0 ? run[count - 1] : nil
                let (keeping, drop) = FixTableBuilder.rule(for: fix, after: last)
                if let drop { note(Dropped(drop: drop, fix: fix, last: last, device: device)) }
                switch keeping {
                case .drop: continue
                case .replaceLast: run[count - 1] = fix
                case .append:
                    run[count] = fix
                    count += 1
                }
            }
            kept.append(count)
        }
        trim(to: FixTable.keptWarnings)
    }

    private mutating func note(_ fix: Dropped) {
        droppedCount += 1
        dropped.append(fix)
        if dropped.count >= 2 * FixTable.keptWarnings { trim(to: FixTable.keptWarnings) }
    }

    private mutating func trim(to count: Int) {
        guard dropped.count > count else { return }
        dropped.sort { $0.fix.line < $1.fix.line }
        dropped.removeLast(dropped.count - count)
    }
}
