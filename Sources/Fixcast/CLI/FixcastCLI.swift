import FoundationEssentials
import FixcastCore

#if canImport(Glibc)
import Glibc
#endif

/// The command line: parses arguments, runs one command, returns the exit code (CONTRACT.md).
public enum FixcastCLI {
    public static func main(arguments: [String], environment: [String: String] = ProcessEnvironment.current) async -> Int32 {
        // `fixcast export … | head` must end with an error, not be killed by SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        // A parent (a test runner, a supervisor) may have started us with signals blocked; SIGINT,
        // SIGTERM and SIGUSR1 must reach the agent.
        var all = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_UNBLOCK, &all, nil)
        let args: Arguments
        do {
            args = try Arguments.parse(arguments)
        } catch {
            Console.err(error.message + "\n")
            return ExitCode.usage
        }
        if args.version {
            Console.out(VersionText.text)
            return ExitCode.success
        }
        if args.help {
            Console.out((args.command.map(HelpText.forCommand) ?? HelpText.main) + "\n")
            return ExitCode.success
        }
        guard let command = args.command else {
            Console.err("fixcast: no command given; the commands are run, now, forecast, search, export, status, mqtt (see fixcast --help).\n")
            return ExitCode.usage
        }
        let context: CommandContext
        do {
            context = try CommandContext(arguments: args, environment: environment)
        } catch {
            Console.err(error.message + "\n")
            return ExitCode.usage
        }
        for warning in context.warnings { Console.err(warning + "\n") }
        switch command {
        case .now: return await NowCommand(context: context).run()
        case .forecast: return await ForecastCommand(context: context).run()
        case .search: return await SearchCommand(context: context).run()
        case .export: return await ExportCommand(context: context).run()
        case .status: return await StatusCommand(context: context).run()
        case .run: return await RunCommand(context: context).run()
        case .mqtt: return await MQTTTestCommand(context: context).run()
        }
    }
}

/// Exit codes of CONTRACT.md.
public enum ExitCode {
    public static let success: Int32 = 0
    /// Could not do it: no position at all, or no weather and nothing stored.
    public static let failure: Int32 = 1
    /// Usage or configuration error.
    public static let usage: Int32 = 2
}

/// Ends the process with `code` after flushing stdio.
public func exitProcess(_ code: Int32) -> Never {
    fflush(nil)
    exit(code)
}
