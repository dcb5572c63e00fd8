import FixcastAdapters
import FixcastApp

// Before anything opens a file: a closed stdout must not become the store's descriptor.
Console.claimStandardStreams()

// Thin: everything is in the Fixcast library so that it can be tested. Not an async `main`: that
// would start on Swift's global executor, whose libdispatch pool then wakes every second for the
// rest of the process (see `ThreadExecutor.tasks`); the command runs on fixcast's own task thread.
// Before anything else: a SIGUSR1, SIGHUP, SIGINT or SIGTERM sent while fixcast starts waits until
// `run`'s loop handles it, instead of taking its default action (every other command lets them go).
LoopDoorbell.holdSignals()
let arguments = Array(CommandLine.arguments.dropFirst())
let code = ThreadExecutor.tasks.runBlocking { await FixcastCLI.main(arguments: arguments) }
exitProcess(code)
