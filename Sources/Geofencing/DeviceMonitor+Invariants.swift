/// The internal invariants of a device's monitor, checked after every sample when the build defines
/// `PERIMETER_INVARIANTS` (`Scripts/invariants.sh`: `swift test -Xswiftc -DPERIMETER_INVARIANTS`), as
/// swift-collections' `_checkInvariants()` under `COLLECTIONS_INTERNAL_CHECKS`. Without the flag the check
/// is empty and inlined away: the hot path pays nothing. A broken invariant is a precondition failure that
/// names it.
extension DeviceMonitor {
    /// Checks the monitored slots, their quiet windows and the wake-ups against their definitions:
    /// - slots sorted: the monitored regions by strictly ascending index (the refresh's merge reads them so);
    /// - one quiet window per monitored region (`quiets` side by side with `monitors`);
    /// - each group's wake equal to its slots' windows seen from its anchor, recomputed, and `nextWake` equal
    ///   to the groups' wakes seen from its own (a longer reach would skip a region that could act).
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
            for group in 0..<groups {
                let wake = groupWakes[group]
                precondition(
                    wake == groupWake(group, anchoredAt: wake.anchor, cosLatitude: wake.cosLatitude),
                    "DeviceMonitor invariant: group \(group)'s wake-up equals its windows seen from its anchor (\(deviceID))"
                )
            }
            let wake = groupWakes.withUnsafeBufferPointer {
                QuietWindow(anchoredAt: nextWake.anchor, cosLatitude: nextWake.cosLatitude, covering: $0)
            }
            precondition(
                nextWake == wake,
                "DeviceMonitor invariant: the next wake-up equals the groups' seen from its anchor (\(deviceID))")
        #endif
    }
}
