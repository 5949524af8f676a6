import Dispatch
import Foundation
import Synchronization

/// SIGINT and SIGTERM, caught so that a run can stop between windows and finish its sinks: a run polls
/// `happened` (through `RunOptions.isCancelled`). Made once per process, before the run.
public final class Interruption: @unchecked Sendable {
    // Safety: `sources` is written once in init and only kept alive afterwards; `flag` is atomic.
    private let flag = Atomic<Bool>(false)
    private let sources: [any DispatchSourceSignal]

    /// Starts catching SIGINT and SIGTERM.
    public init() {
        var made: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            made.append(source)
        }
        sources = made
        for source in sources {
            source.setEventHandler { [weak self] in self?.flag.store(true, ordering: .relaxed) }
            source.resume()
        }
    }

    /// Whether a signal came.
    public var happened: Bool { flag.load(ordering: .relaxed) }
}
