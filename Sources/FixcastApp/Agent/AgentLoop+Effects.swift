import Dispatch
import FixcastAdapters
import FixcastCore
import FixcastText
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The agent loop's hands: each `AgentEffect` carried out as the reducer said, the outcome fed back
/// as an event. Nothing here chooses whether or when.
extension AgentLoop {
    /// The store's state key of the alert ids active at the last answered check (`AlertWatch`).
    static let alertsSeenKey = "alerts.command.seen"

    func perform(_ effect: AgentEffect) {
        switch effect {
        case .dropGathered:
            if let gps, gps.isOpen, !gps.discardWaiting() {
                handle(.gps(.disconnected(gps.lossError), at: now()))
            }
        case .readGPS:
            if gps?.hasWaitingReport == true {
                readGPS()
            } else {
                handle(
                    .gpsReadEnded(
                        connected: gps?.isOpen ?? false, rejectedFixes: gps?.rejectedFixes ?? .init(), at: now()))
            }
        case .connectGPS:
            // Opened: `.connected` comes with gpsd's first report, read as the socket turns readable.
            if let gps { handle(.gps(gps.open(), at: now())) }
        case .dropUnansweredGPS:
            // Not when its answer was read in the same turn (a read ranks before the drop).
            if let gps, gps.isOpen, !gps.hasAnswered {
                gps.close()
                handle(.gps(.disconnected(gps.unansweredError), at: now()))
            }
        case .takeReading(let request):
            startReading(request)
        case .positionResolved(let request):
            resolvedPosition = request
        case .checkAlerts(let position):
            checkAlerts(at: position)
        case .announceAlerts(let ids):
            for alert in latestAlerts.find(ids) { services.alertCommand.run(alert: alert) }
        case .rememberAlertsSeen(let ids):
            let text = JSONValue.array(ids.map { .string($0) }).serialized()
            services.store?.perform { try? $0.setState(Self.alertsSeenKey, text) }
        case .printReading(let reading):
            if let lost = Self.outputLost(display.show(reading), at: now()) { handle(lost) }
        case .sayOutputFailed(let loss):
            outputFailureSaid = true
            switch loss {
            case .readerStalled: Console.err(Self.stalledReaderSentence(unprinted: nil) + "\n")
            case .refused(let code): Console.err(Console.runOutputLossSentence(errno: code) + "\n")
            case .readerGone: break  // not a loss: the reducer does not ask for it
            }
        case .sayNoPosition(let error):
            Console.err(error.message + "\n")
        case .sayReadingAbandoned:
            partingWords.append(Console.runReadingAbandonedSentence(waitS: AgentReducer.shutdownReadingWaitS))
        case .recordTrackPoint(let fix):
            pointsToWrite.append(fix)
        case .saveLastKnown(let position):
            lastKnownToWrite = position
        case .writeTrack:
            writer?.write(points: pointsToWrite, lastKnown: lastKnownToWrite)
            pointsToWrite.removeAll(keepingCapacity: true)
            lastKnownToWrite = nil
        case .saveRejectedFixes(let counts):
            services.store?.perform { try? $0.addRejectedFixes(counts) }
        case .announceHealth(let notices):
            for notice in notices { Console.err(notice.message + "\n") }
        case .useJSONLines:
            display.close()
            display = JSONLinesDisplay(
                language: settings.display.lang, onProblem: Self.outputProblemPoster(inbox, clock: services.clock))
        case .redraw:
            needsRedraw = true  // drawn once at the end of this turn of the loop
        case .exit(let code):
            exitCode = code
        }
    }

    /// Draws the reducer's status if it asked to during this turn, with the problems of the parts
    /// beside the agent (MQTT, the alert command) on the status line.
    func drawIfNeeded(at now: ClockReading) {
        guard needsRedraw else { return }
        needsRedraw = false
        var status = reducer.status
        status.problems += options.sideProblems?() ?? []
        display.redraw(status, now: now.wall)
    }

    /// Ctrl-Z: give the terminal back, then stop for real (the default action of SIGTSTP).
    func stopForJobControl() {
        guard let live = display as? LiveDisplay else { return }
        live.suspend()
        LoopDoorbell.restoreDefault(signals: [SIGTSTP])
        raise(SIGTSTP)  // stops here until `fg` or `bg` sends SIGCONT
        inbox.doorbell.route(signals: [SIGTSTP])
        continueAfterJobControl()
    }

    /// SIGCONT (or back from our own stop): take the terminal again; the reducer says to draw it whole.
    func continueAfterJobControl() {
        guard let live = display as? LiveDisplay else { return }
        live.resume()
        handle(.screenChanged(at: services.clock.reading()))
    }

    private func now() -> ClockReading { services.clock.reading() }

    /// Asks the alert service (its cache answers within `alerts.check_min`, so the reading that asked
    /// at the same moment costs no second request). A failure reads as "no alert active": the
    /// reading's `errors` say why, and an alert already seen stays seen.
    private func checkAlerts(at position: Position) {
        let service = services.alerts
        let inbox = self.inbox
        let latest = latestAlerts
        let clock = services.clock
        let offline = options.offline
        let checked = services.onAlertsChecked
        ThreadExecutor.tasks.startTask {
            let outcome = await service.alerts(at: position.coordinate, offline: offline)
            let active = outcome.report?.active ?? []
            latest.keep(active)
            checked?(outcome.report, clock.now())
            inbox.post(.alertsChecked(activeIDs: outcome.report.map { _ in active.map(\.id) }, at: clock.reading()))
        }
    }

    private func startReading(_ request: ReadingRequest) {
        let maker = services.readings
        let inbox = self.inbox
        let clock = services.clock
        let offline = options.offline
        let place = options.fixedPlace
        ThreadExecutor.tasks.startTask {
            let reading = await maker.reading(
                at: request.position, trigger: request.trigger, force: request.forced, offline: offline,
                knownPlace: place, notes: request.notes)
            inbox.post(.readingFinished(reading, at: clock.reading()))
        }
    }

    /// Runs `body` on the store's thread and waits for it (start-up reads, before the loop runs).
    static func onStoreThread<T: Sendable>(
        _ store: any AgentStore, _ body: @escaping @Sendable (isolated any AgentStore) -> T
    ) -> T? {
        // As `ThreadExecutor.runBlocking` hands its task's value over.
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<T?>(nil)
        store.perform { s in
            let value = body(s)
            result.withLock { $0 = value }
            done.signal()
        }
        guard done.wait(timeout: .now() + 10) == .success else { return nil }
        return result.withLock { $0 }
    }
}

/// The alerts the agent's checks found, by id: written by a check's task, read by the loop when the
/// reducer says which ids are news. Only the last two checks' alerts are held (the ids the reducer names
/// come from the check just reported, or the one before when another finished first), so a run of
/// months does not keep every alert it ever saw.
final class LatestAlerts: Sendable {
    private let checks = Mutex<(last: [String: Alert], before: [String: Alert])>(([:], [:]))

    func keep(_ alerts: [Alert]) {
        let found = Dictionary(alerts.map { ($0.id, $0) }) { first, _ in first }
        checks.withLock { $0 = (found, $0.last) }
    }

    func find(_ ids: [String]) -> [Alert] {
        checks.withLock { held in ids.compactMap { held.last[$0] ?? held.before[$0] } }
    }

    /// How many alerts are held (for the test of the bound).
    var count: Int { checks.withLock { $0.last.count + $0.before.count } }
}
