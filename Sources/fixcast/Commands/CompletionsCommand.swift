import FixcastAdapters
import FixcastCore
import FixcastText

/// The shells `fixcast completions` writes a script for.
enum CompletionShell: String, CaseIterable, Sendable {
    case bash, zsh, fish

    /// The script for this shell, made from the command line's reference (the same as `--help`).
    func script(_ reference: CommandLineReference) -> String {
        switch self {
        case .bash: return BashCompletion.script(reference)
        case .zsh: return ZshCompletion.script(reference)
        case .fish: return FishCompletion.script(reference)
        }
    }
}

/// `fixcast completions bash|zsh|fish`: the shell is required, and one of the three.
struct CompletionsOptions: CommandOptions {
    static let accepted: [OptionName] = []
    /// A completion script is printed whatever the config says: a broken config or environment must
    /// not leave `source <(fixcast completions bash)` completing nothing.
    static let takesCommonOptions = false
    var shell: CompletionShell

    init(_ a: Arguments) throws(UsageError) {
        guard let name = a.completionShell else {
            throw UsageError("fixcast completions: give a shell: fixcast completions bash, zsh or fish.")
        }
        guard let shell = CompletionShell(rawValue: name) else {
            throw UsageError("fixcast completions: \"\(TerminalText.echo(name))\" is not bash, zsh or fish.")
        }
        self.shell = shell
    }
}

/// `fixcast completions SHELL`: prints the completion script on stdout.
struct CompletionsCommand {
    let options: CompletionsOptions

    func run() -> Int32 {
        Console.out(options.shell.script(.current))
        return ExitCode.success
    }
}
