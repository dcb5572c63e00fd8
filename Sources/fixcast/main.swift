import FixcastApp
import FixcastAdapters

// Before anything opens a file: a closed stdout must not become the store's descriptor.
Console.claimStandardStreams()

// Thin: everything is in the Fixcast library so that it can be tested. Not an async `main`: that
// would start on Swift's global executor, whose libdispatch pool then wakes every second for the
// rest of the process (see `ThreadExecutor.tasks`); the command runs on fixcast's own task thread.
let arguments = Array(CommandLine.arguments.dropFirst())
let code = ThreadExecutor.tasks.runBlocking { await FixcastCLI.main(arguments: arguments) }
exitProcess(code)
