import FixcastApp
import FixcastAdapters

// Thin: everything is in the Fixcast library so that it can be tested.
let code = await FixcastCLI.main(arguments: Array(CommandLine.arguments.dropFirst()))
exitProcess(code)
