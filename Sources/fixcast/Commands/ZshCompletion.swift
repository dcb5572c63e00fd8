/// `fixcast completions zsh`: an `_arguments` function (`#compdef fixcast`) made from the command
/// line's reference: the commands with their summaries, then each command's own options, exactly
/// those it accepts, with their descriptions and values.
enum ZshCompletion {
    static func script(_ reference: CommandLineReference) -> String {
        let commandWords = reference.commands.map { $0.words[0] }
        var lines: [String] = [
            "#compdef fixcast",
            "# zsh completion for fixcast, made by `fixcast completions zsh` from its --help.",
            "",
            "# last, and the numbers of the trips in the store (the --db and --config of the line apply).",
            "_fixcast_trips() {",
            "  local -a where trips",
            "  local i",
            "  for (( i = 1; i < CURRENT; i++ )); do",
            "    case $words[i] in",
            "      --db|--config) where+=($words[i] $words[i+1]) ;;",
            "      --db=*|--config=*) where+=($words[i]) ;;",
            "    esac",
            "  done",
            "  trips=(last ${(f)\"$(command fixcast trips --json $where 2>/dev/null | grep -o '\"trip\":[0-9]*' | cut -d: -f2)\"})",
            "  compadd -a trips",
            "}",
            "",
            "_fixcast() {",
            "  local curcontext=$curcontext state line",
            "  typeset -A opt_args",
            "  local -a commands",
            "  commands=(",
        ]
        for command in reference.commands {
            lines.append("    \(quote(command.words[0] + ":" + command.summary))")
        }
        // As bash and fish offer it.
        lines.append("    \(quote("help:Show a command's help."))")
        lines += [
            "  )",
            "  _arguments -C \\",
        ]
        lines += reference.mainOptions.map { "    \(spec($0)) \\" }
        lines += [
            "    '1:command:->command' \\",
            "    '*::argument:->argument'",
            "  case $state in",
            "    command)",
            "      _describe -t commands 'fixcast command' commands",
            "      ;;",
            "    argument)",
            "      curcontext=${curcontext%:*:*}:fixcast-$line[1]:",
            "      case $line[1] in",
            "        help) _arguments '1:command:(\(commandWords.joined(separator: " ")))' ;;",
        ]
        for command in reference.commands {
            lines.append("        \(command.words[0]))")
            lines.append("          _arguments \\")
            var specs = command.options.map(spec)
            if !command.arguments.isEmpty {
                specs.append(
                    quote(
                        "1:\(command.words.count > 1 ? "action" : "argument"):(\(command.arguments.joined(separator: " ")))"
                    ))
            }
            lines += specs.enumerated().map { index, spec in
                "            " + spec + (index == specs.count - 1 ? "" : " \\")
            }
            lines.append("          ;;")
        }
        lines += [
            "      esac",
            "      ;;",
            "  esac",
            "}",
            "",
            "# Autoloaded from fpath (the package's _fixcast) it completes; sourced, it registers itself.",
            "if [[ $funcstack[1] == _fixcast ]]; then",
            "  _fixcast \"$@\"",
            "else",
            "  compdef _fixcast fixcast",
            "fi",
            "",
        ]
        return lines.joined(separator: "\n")
    }

    /// One `_arguments` spec: `'(-o --output)'{-o,--output}'[…]:FILE:_files'`.
    static func spec(_ option: CommandLineReference.Option) -> String {
        let description = "[" + escape(option.description) + "]"
        var value = ""
        if let argument = option.argument {
            let message = escape(argument)
            switch option.values {
            case .none, .free: value = ":" + message + ": "
            case .choices(let list): value = ":" + message + ":(" + list.joined(separator: " ") + ")"
            case .file: value = ":" + message + ":_files"
            case .trips: value = ":" + message + ":_fixcast_trips"
            }
        }
        if option.spellings.count == 1 {
            let spelling =
                option.spellings[0] + (option.argument != nil && option.spellings[0].hasPrefix("--") ? "=" : "")
            return quote(spelling + description + value)
        }
        let exclusion = "(" + option.spellings.joined(separator: " ") + ")"
        let forms = option.spellings.map { $0 + (option.argument != nil && $0.hasPrefix("--") ? "=" : "") }
        return quote(exclusion) + "{" + forms.joined(separator: ",") + "}" + quote(description + value)
    }

    /// `[`, `]` and `:` would end a part of a spec; a backslash escapes them.
    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            if c == "[" || c == "]" || c == ":" || c == "\\" { out.append("\\") }
            out.append(c)
        }
        return out
    }

    /// A single-quoted zsh word (a quote inside is closed, escaped and reopened).
    static func quote(_ text: String) -> String {
        "'" + text.replacingQuotes() + "'"
    }
}

extension String {
    /// `'` as `'\''`, for text inside a single-quoted shell word.
    func replacingQuotes() -> String {
        var out = ""
        for c in self {
            if c == "'" { out += "'\\''" } else { out.append(c) }
        }
        return out
    }
}
