import FixcastAdapters
import FixcastCore
import FixcastRendering
import FixcastText

/// What the loop starts with: the display it prints to and the reducer's configuration, from the
/// settings, the command's options and what the store remembers.
extension AgentLoop {
    /// `now`'s one reading, the live screen on a terminal that can show it, else JSON lines.
    static func display(
        settings: Settings, options: Agent.Options, clock: any WallClock,
        onOutputProblem: @escaping @Sendable (Console.StdoutWrite) -> Void
    ) -> any ReadingDisplay {
        if options.oneReading {
            return OneReadingDisplay(
                json: options.json, language: settings.display.lang, options: DisplayOptions(settings: settings),
                colour: options.terminal.colourOnStdout, clock: clock)
        }
        if !options.json {
            if !options.terminal.movesCursor {
                Console.err(
                    "fixcast run: a terminal with TERM=dumb cannot show the live screen; printing JSON lines instead.\n"
                )
            } else if let live = LiveDisplay(
                options: DisplayOptions(settings: settings), demo: options.demoLabel != nil)
            {
                return live
            } else {
                Console.err("fixcast run: the terminal cannot show the live screen; printing JSON lines instead.\n")
            }
        }
        return JSONLinesDisplay(language: settings.display.lang, onProblem: onOutputProblem)
    }

    /// The reducer's configuration. The alert ids seen at the last answered check come from the store,
    /// so a restarted agent does not tell them again.
    static func configuration(
        settings: Settings, options: Agent.Options, store: (any AgentStore)?, liveScreen: Bool, gpsdAddress: String
    ) -> AgentReducer.Configuration {
        // The one reading asks for the alerts itself (`ReadingMaker`); no checks beside it.
        let checksAlerts = settings.alerts.enabled && !options.oneReading
        var configuration = AgentReducer.Configuration(
            settings: settings, alertCheckMin: checksAlerts ? settings.alerts.checkMin : nil)
        configuration.liveScreen = liveScreen
        configuration.stopsAfterFirstReading = options.oneReading
        configuration.stopsAtPosition = options.stopsAtPosition
        configuration.forcesTheReading = options.force
        configuration.gpsdAddress = gpsdAddress
        // `--offline` asks no service: no reading gets fresh weather, and asking sooner changes nothing.
        if options.offline { configuration.scheduler.weatherRetryDelaysS = [] }
        if checksAlerts, let store, let text = onStoreThread(store, { try? $0.state(alertsSeenKey) }) ?? nil,
            let ids = (try? JSONValue.parse(text))?.arrayValue
        {
            configuration.alertsSeen = Set(ids.compactMap(\.stringValue))
        }
        configuration.printsToAPipe = Console.stdoutIsPipe
        return configuration
    }

    /// The event for a print's outcome: none when it was written, else its reader gone or its loss.
    static func outputLost(_ outcome: Console.StdoutWrite, at now: ClockReading) -> AgentEvent? {
        switch outcome {
        case .written: return nil
        case .readerGone: return .outputLost(.readerGone, at: now)
        case .readerStalled: return .outputLost(.readerStalled, at: now)
        case .failed(let code): return .outputLost(.refused(errno: code), at: now)
        }
    }

    /// What `JSONLinesDisplay`'s writer tells of a line it could not print: that event, for the loop.
    static func outputProblemPoster(_ inbox: AgentInbox, clock: any WallClock)
        -> @Sendable (Console.StdoutWrite) -> Void
    {
        { outcome in if let lost = outputLost(outcome, at: clock.reading()) { inbox.post(lost) } }
    }

    /// The sentence for readings stdout's reader left unread (`StdoutLines`): at the limit (nil), or
    /// `unprinted` of them at the stop.
    static func stalledReaderSentence(unprinted: Int?) -> String {
        Console.runReaderStalledSentence(limitBytes: StdoutLines.limitBytes, unprinted: unprinted)
    }
}
