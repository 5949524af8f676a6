/// What `Scripts/check-thresholds.py` counts: callgrind collects instructions only while a thread is
/// inside `perimeter_benchmark_measured` (`valgrind --tool=callgrind --collect-atstart=no
/// --toggle-collect=perimeter_benchmark_measured`), so a benchmark's setup (its input made, its world
/// built) and the process's start are left out. Outside callgrind it is a plain call: O(1) besides `body`.
public func measured<Failure: Error>(_ body: () throws(Failure) -> Void) throws(Failure) {
    var failure: Failure?
    withoutActuallyEscaping({ () -> Void in
        do throws(Failure) { try body() } catch { failure = error }
    }) { escaping in
        pendingBody = escaping
        measuredSection()
        pendingBody = nil
    }
    if let failure { throw failure }
}

/// The body `perimeter_benchmark_measured` runs: set and cleared by `measured`, on one thread.
nonisolated(unsafe) private var pendingBody: (() -> Void)?

/// The function callgrind toggles on: its symbol named here, without parameters and never inlined, so
/// that the optimiser makes no specialised copy of it under another name (as it does of a function taking
/// the closure) and the toggle finds it in every benchmark and every build.
@inline(never)
@_silgen_name("perimeter_benchmark_measured")
func measuredSection() {
    pendingBody?()
}

/// Prints the line `Scripts/check-thresholds.py` divides a count by: `measured: COUNT UNIT` (the unit
/// singular, as the thresholds file names it: `sample`, `event`, `row`, `point`, `run`).
public func reportMeasured(_ count: Int, _ unit: String) {
    print("measured: \(count) \(unit)")
}
