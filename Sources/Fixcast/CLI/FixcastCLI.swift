import FoundationEssentials
import FixcastCore

#if canImport(Glibc)
import Glibc
#endif

/// The command line: parses arguments, runs one command, returns the exit code (CONTRACT.md).
public enum FixcastCLI {
    public static func main(arguments: [String]) async -> Int32 {
        0
    }
}

/// Ends the process with `code` after flushing stdout.
public func exitProcess(_ code: Int32) -> Never {
    fflush(nil)
    exit(code)
}
