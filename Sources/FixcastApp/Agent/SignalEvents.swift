@preconcurrency import Dispatch
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Turns SIGUSR1 (refresh), SIGINT and SIGTERM (quit) and SIGWINCH (redraw) into agent events.
///
/// Dispatch signal sources run the handler on a queue, outside the signal context, so the handler may
/// do anything; the default dispositions are ignored first so the process is not killed meanwhile.
final class SignalEvents: @unchecked Sendable {  // the sources are only created and cancelled
    private let sources: [any DispatchSourceSignal]

    init(_ yield: @escaping @Sendable (AgentEvent) -> Void) {
        let map: [(Int32, AgentEvent)] = [(SIGUSR1, .manualRefresh), (SIGINT, .quit), (SIGTERM, .quit), (SIGWINCH, .redraw)]
        var sources: [any DispatchSourceSignal] = []
        for (sig, event) in map {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { yield(event) }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    func cancel() {
        for s in sources { s.cancel() }
    }
}
