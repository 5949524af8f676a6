/// The internal invariants of a device's monitor, checked after every sample when the build defines
/// `PERIMETER_INVARIANTS` (`Scripts/invariants.sh`: `swift test -Xswiftc -DPERIMETER_INVARIANTS`), as
/// swift-collections' `_checkInvariants()` under `COLLECTIONS_INTERNAL_CHECKS`. Without the flag the check
/// is empty and inlined away: the hot path pays nothing. A broken invariant is a precondition failure that
/// names it.
extension DeviceMonitor {
    /// Checks the monitored slots, their quiet windows and the wake-ups against their definitions:
    /// - slots sorted: the monitored regions by strictly ascending index (the refresh's merge reads them so);
    /// - one quiet window per monitored region (`quiets` side by side with `monitors`);
    /// - each group's wake equal to the earliest of its slots' windows, recomputed, and `nextWake` equal to
    ///   the earliest of the groups' wakes (a later wake would skip a region that could act).
    /// O(monitors) with the flag, nothing without it.
    @inline(__always)
    func checkInvariants() {
        #if PERIMETER_INVARIANTS
            for slot in monitors.indices.dropFirst() {
                precondition(
                    monitors[slot - 1].region < monitors[slot].region,
                    "DeviceMonitor invariant: the slots are sorted by region (slot \(slot) of \(deviceID))")
            }
            precondition(
                quiets.count == monitors.count,
                "DeviceMonitor invariant: one quiet window per monitored region (\(quiets.count) windows for \(monitors.count) regions of \(deviceID))"
            )
            let groups = (monitors.count + Self.groupSize - 1) / Self.groupSize
            precondition(
                groupWakes.count == groups,
                "DeviceMonitor invariant: one wake-up per group of \(Self.groupSize) slots (\(deviceID))")
            var wake = QuietWindow.never
            for group in 0..<groups {
                precondition(
                    groupWakes[group] == earliestWindow(of: slots(inGroup: group)),
                    "DeviceMonitor invariant: group \(group)'s wake-up equals the earliest of its windows (\(deviceID))")
                wake = wake.earliest(with: groupWakes[group])
            }
            precondition(
                nextWake == wake,
                "DeviceMonitor invariant: the next wake-up equals the earliest of the groups' (\(deviceID))")
        #endif
    }
}
