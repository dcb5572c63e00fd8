/// `fixcast completions fish`: `complete` lines made from the command line's reference. Each
/// option is offered in the commands that accept it (and the common ones before a command), with
/// its description and values; file names only where an option takes a path.
enum FishCompletion {
    static func script(_ reference: CommandLineReference) -> String {
        let valueSpellings = reference.valueSpellings
        var lines: [String] = [
            "# fish completion for fixcast, made by `fixcast completions fish` from its --help.",
            "",
            "# The command on the line (the first word that is neither an option nor an option's value).",
            "function __fixcast_command",
            "    set -l tokens (commandline -opc)",
            "    set -e tokens[1]",
            "    set -l skip 0",
            "    for token in $tokens",
            "        if test $skip = 1",
            "            set skip 0",
            "            continue",
            "        end",
            "        switch $token",
            "            case \(valueSpellings.joined(separator: " "))",
            "                set skip 1",
            "            case '-*'",
            "            case '*'",
            "                echo $token",
            "                return 0",
            "        end",
            "    end",
            "    return 1",
            "end",
            "",
            "function __fixcast_using",
            "    set -l command (__fixcast_command)",
            "    and test \"$command\" = $argv[1]",
            "end",
            "",
            "# The words after the command (for its one argument: mqtt's action, a shell).",
            "function __fixcast_arguments",
            "    set -l tokens (commandline -opc)",
            "    set -l command (__fixcast_command)",
            "    set -l index (contains -i -- $command $tokens)",
            "    math (count $tokens) - $index",
            "end",
            "",
            "# last, and the numbers of the trips in the store (the --db and --config of the line apply).",
            "function __fixcast_trips",
            "    set -l tokens (commandline -opc)",
            "    set -l where",
            "    for i in (seq (count $tokens))",
            "        if contains -- $tokens[$i] --db --config; and test $i -lt (count $tokens)",
            "            set -a where $tokens[$i] $tokens[(math $i + 1)]",
            "        end",
            "    end",
            "    echo last",
            "    command -q fixcast; or return 0",
            "    command fixcast trips --json $where 2>/dev/null | string match -ra '\"trip\":[0-9]+' | string replace '\"trip\":' ''",
            "end",
            "",
            "complete -c fixcast -f",
        ]
        let noCommand = "not __fixcast_command"
        for command in reference.commands {
            lines.append(
                "complete -c fixcast -n \(quote(noCommand)) -a \(command.words[0]) -d \(quote(command.summary))")
        }
        lines.append("complete -c fixcast -n \(quote(noCommand)) -a help -d \(quote("Show a command's help."))")
        let commandWords = reference.commands.map { $0.words[0] }.joined(separator: " ")
        lines.append(
            "complete -c fixcast -n \(quote("__fixcast_using help; and test (__fixcast_arguments) = 0")) -a \(quote(commandWords))"
        )
        lines += reference.mainOptions.map { line($0, condition: noCommand) }
        for command in reference.commands {
            let using = "__fixcast_using " + command.words[0]
            lines.append("")
            if !command.arguments.isEmpty {
                lines.append(
                    "complete -c fixcast -n \(quote(using + "; and test (__fixcast_arguments) = 0")) -a \(quote(command.arguments.joined(separator: " ")))"
                )
            }
            lines += command.options.map { line($0, condition: using) }
        }
        lines.append("")
        return lines.joined(separator: "\n")
    }

    /// One option's `complete` line.
    static func line(_ option: CommandLineReference.Option, condition: String) -> String {
        var parts = ["complete -c fixcast -n", quote(condition)]
        for spelling in option.spellings {
            parts.append(spelling.hasPrefix("--") ? "-l " + spelling.dropFirst(2) : "-s " + spelling.dropFirst())
        }
        switch option.values {
        case .none: break
        case .free: parts.append("-x")
        case .choices(let list): parts.append("-x -a " + quote(list.joined(separator: " ")))
        case .file: parts.append("-r -F")
        case .trips: parts.append("-x -a '(__fixcast_trips)'")
        }
        parts.append("-d " + quote(option.description))
        return parts.joined(separator: " ")
    }

    /// A single-quoted fish word: `\` and `'` escaped.
    static func quote(_ text: String) -> String {
        var out = "'"
        for c in text {
            if c == "\\" || c == "'" { out.append("\\") }
            out.append(c)
        }
        return out + "'"
    }
}
