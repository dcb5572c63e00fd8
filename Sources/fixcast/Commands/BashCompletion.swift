/// `fixcast completions bash`: a `complete -F` function made from the command line's reference.
/// After an option that takes a value it offers that option's values in that command (a list,
/// file names, trips), or nothing for a value only the person knows; elsewhere the command's words
/// and its options, exactly those it accepts.
enum BashCompletion {
    static func script(_ reference: CommandLineReference) -> String {
        var lines: [String] = [
            "# bash completion for fixcast, made by `fixcast completions bash` from its --help.",
            "",
            "# last, and the numbers of the trips in the store (the --db and --config of the line apply).",
            "_fixcast_trips() {",
            "    local i where=()",
            "    for ((i = 1; i < COMP_CWORD; i++)); do",
            "        case ${COMP_WORDS[i]} in",
            "            --db | --config)",
            "                # --db=PATH: bash splits it into --db, = and PATH.",
            "                if [[ ${COMP_WORDS[i + 1]} == = ]]; then where+=(\"${COMP_WORDS[i]}\" \"${COMP_WORDS[i + 2]}\")",
            "                else where+=(\"${COMP_WORDS[i]}\" \"${COMP_WORDS[i + 1]}\"); fi ;;",
            "        esac",
            "    done",
            "    echo last",
            "    command fixcast trips --json \"${where[@]}\" 2>/dev/null | grep -o '\"trip\":[0-9]*' | cut -d: -f2",
            "}",
            "",
            "_fixcast() {",
            "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}",
            "    local command='' given=0 i",
            "    # --opt=value: bash splits at '=', so the option is the word before it.",
            "    if [[ $cur == = ]]; then prev=${COMP_WORDS[COMP_CWORD - 1]}; cur=''",
            "    elif [[ $prev == = ]]; then prev=${COMP_WORDS[COMP_CWORD - 2]}",
            "    fi",
            "    for ((i = 1; i < COMP_CWORD; i++)); do",
            "        case ${COMP_WORDS[i]} in",
            "            \(reference.valueSpellings.joined(separator: " | "))) ((i++)); [[ ${COMP_WORDS[i]} == = ]] && ((i++)) ;;",
            "            -*) ;;",
            "            *) if [[ -z $command ]]; then command=${COMP_WORDS[i]}; else ((given++)); fi ;;",
            "        esac",
            "    done",
            "    case \"$command:$prev\" in",
        ]
        let scopes: [(String, [CommandLineReference.Option])] =
            [("", reference.mainOptions)] + reference.commands.map { ($0.words[0], $0.options) }
        for (word, options) in scopes {
            for option in options where option.values != .none {
                let pattern = option.spellings.map { "\(word):\($0)" }.joined(separator: " | ")
                lines.append("        \(pattern)) \(reply(option.values)); return ;;")
            }
        }
        lines.append("    esac")
        lines.append("    local words='' options=''")
        lines.append("    case $command in")
        let commandWords = reference.commands.map { $0.words[0] }
        lines.append(
            "        '') words='\((commandWords + ["help"]).joined(separator: " "))' options='\(spellings(reference.mainOptions))' ;;"
        )
        lines.append("        help) ((given == 0)) && words='\(commandWords.joined(separator: " "))' ;;")
        for command in reference.commands {
            let words =
                command.arguments.isEmpty
                ? "" : "((given == 0)) && words='\(command.arguments.joined(separator: " "))'; "
            lines.append("        \(command.words[0])) \(words)options='\(spellings(command.options))' ;;")
        }
        lines += [
            "    esac",
            "    if [[ $cur == -* ]]; then",
            "        COMPREPLY=($(compgen -W \"$options\" -- \"$cur\"))",
            "    else",
            "        COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))",
            "    fi",
            "}",
            "complete -F _fixcast fixcast",
            "",
        ]
        return lines.joined(separator: "\n")
    }

    static func spellings(_ options: [CommandLineReference.Option]) -> String {
        options.flatMap(\.spellings).joined(separator: " ")
    }

    /// The COMPREPLY for a value.
    static func reply(_ values: OptionValues) -> String {
        switch values {
        case .none, .free: return "COMPREPLY=()"
        case .choices(let list): return "COMPREPLY=($(compgen -W '\(list.joined(separator: " "))' -- \"$cur\"))"
        case .file: return "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\"))"
        case .trips: return "COMPREPLY=($(compgen -W \"$(_fixcast_trips)\" -- \"$cur\"))"
        }
    }
}

extension CommandLineReference {
    /// Every spelling of every option that takes a value, in any command: the word after it is
    /// its value, not the command.
    var valueSpellings: [String] {
        var seen: [String] = []
        for option in mainOptions + commands.flatMap(\.options) where option.argument != nil {
            for spelling in option.spellings where !seen.contains(spelling) { seen.append(spelling) }
        }
        return seen
    }
}
