import FixcastAdapters
import FixcastApp
import FixcastCore
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// The command line: parses arguments, runs one command, returns the exit code (CONTRACT.md).
public enum FixcastCLI {
    public static func main(arguments: [String], environment: [String: String] = ProcessEnvironment.current) async
        -> Int32
    {
        let code = await dispatch(arguments: arguments, environment: environment)
        // What a command printed and was lost (a full disk, a closed stdout) is not success, whatever
        // the command made of its own work; a command that failed already said why. A reader that
        // went away (`| head -1`) is no loss: exit as the command said.
        if code == ExitCode.success, let e = Console.stdoutLoss {
            Console.err(Console.stdoutLossSentence(errno: e) + "\n")
            return ExitCode.failure
        }
        return code
    }

    static func dispatch(arguments: [String], environment: [String: String]) async -> Int32 {
        // A reader gone (`fixcast export … | head`) is seen as EPIPE and ends the command quietly with its
        // own status, rather than killing it by SIGPIPE midway through what it was doing.
        signal(SIGPIPE, SIG_IGN)
        // A parent (a test runner, a supervisor) may have started us with signals blocked; SIGINT,
        // SIGTERM and SIGUSR1 must reach the agent. The ones main holds stay held for `run` until its
        // loop handles them (`LoopDoorbell.holdSignals`); any other command lets them go below.
        var all = sigset_t()
        sigfillset(&all)
        for held in [SIGUSR1, SIGHUP, SIGINT, SIGTERM] { sigdelset(&all, held) }
        pthread_sigmask(SIG_UNBLOCK, &all, nil)
        let args: Arguments
        do {
            args = try Arguments.parse(arguments)
        } catch {
            Console.err(error.message + "\n")
            return ExitCode.usage
        }
        if args.command != .run || args.help || args.version { LoopDoorbell.releaseHeldSignals() }
        if args.version {
            Console.out(VersionText.text)
            return ExitCode.success
        }
        if args.manPage {
            Console.out(ManPage.roff(CommandLineReference.current))
            return ExitCode.success
        }
        if args.help {
            Console.out((args.command.map(HelpText.forCommand) ?? HelpText.main) + "\n")
            return ExitCode.success
        }
        guard let command = args.command else {
            Console.err("fixcast: no command given; the commands are \(CommandName.list) (see fixcast --help).\n")
            return ExitCode.usage
        }
        if command == .completions {
            // Reads no config (`CompletionsOptions.takesCommonOptions`).
            do throws(UsageError) {
                return CompletionsCommand(options: try CompletionsOptions(args)).run()
            } catch {
                Console.err(error.message + "\n")
                return ExitCode.usage
            }
        }
        let context: CommandContext
        do {
            context = try CommandContext(arguments: args, environment: environment)
        } catch {
            Console.err(error.message + "\n")
            return ExitCode.usage
        }
        for warning in context.warnings { Console.err(warning + "\n") }
        do throws(UsageError) {
            switch command {
            case .now: return await NowCommand(context: context, options: try NowOptions(args)).run()
            case .forecast: return await ForecastCommand(context: context, options: try ForecastOptions(args)).run()
            case .search: return await SearchCommand(context: context, options: try SearchOptions(args)).run()
            case .export: return await ExportCommand(context: context, options: try ExportOptions(args)).run()
            case .status: return await StatusCommand(context: context, options: try StatusOptions(args)).run()
            case .run: return await RunCommand(context: context, options: try RunOptions(args)).run()
            case .alerts: return await AlertsCommand(context: context, options: try AlertsOptions(args)).run()
            case .ahead: return await AheadCommand(context: context, options: try AheadOptions(args)).run()
            case .trips: return await TripsCommand(context: context, options: try TripsOptions(args)).run()
            case .report: return await ReportCommand(context: context, options: try ReportOptions(args)).run()
            case .mqtt: return await MQTTTestCommand(context: context, options: try MQTTOptions(args)).run()
            case .line: return await LineCommand(context: context, options: try LineOptions(args)).run()
            case .completions: return CompletionsCommand(options: try CompletionsOptions(args)).run()  // above
            }
        } catch {
            Console.err(error.message + "\n")
            return ExitCode.usage
        }
    }
}

/// Ends the process with `code` after flushing stdio and putting a taken terminal back.
///
/// With `_exit`, not `exit`: the atexit handlers of the libraries fixcast loads (OpenSSL's cleanup,
/// through libcurl) free their globals while other threads may still be in them: an HTTP transfer's
/// thread that has handed its answer over runs libcrypto's thread-local destructors as it ends, and
/// a `fixcast search` under load crashed there (SIGSEGV in libcrypto beside `_int_free` on the main
/// thread). Nothing fixcast writes waits for exit: the store commits each transaction (and is closed
/// here), stdout and stderr are written (and stdio flushed here), and the terminal is put back here.
public func exitProcess(_ code: Int32) -> Never {
    // `_exit` closes no SQLite connection: the store is closed first (its -wal copied in and removed).
    SQLiteStore.closeWritersForExit()
    fflush(nil)
    TerminalSession.restoreAnyTaken()
    _exit(code)
}
