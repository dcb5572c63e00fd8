import FixcastCore

/// fixcast(1) in roff, made from the command line's reference (so from `--help` and the option
/// tables), the config schema (one environment variable per key) and the `--version` credits:
/// `fixcast --man-page` prints it, the Debian package ships it, and docs/fixcast.1 is a copy a test
/// compares with it.
enum ManPage {
    static func roff(_ reference: CommandLineReference) -> String {
        var page: [String] = [
            #".\" fixcast(1), made by `fixcast --man-page` from the --help texts; do not edit by hand."#,
            #".\" Regenerate with scripts/update-manpage.sh."#,
            ".TH FIXCAST 1 \"\" \"fixcast \(FixcastInfo.version)\" \"User Commands\"",
            // No hyphenation: the page is full of option and variable names, which must stay whole.
            ".nh",
            ".SH NAME",
            "fixcast \\- " + text(whatis(reference.tagline)),
            ".SH SYNOPSIS",
            ".B fixcast",
            ".I command",
            ".RI [ options ]",
            ".SH DESCRIPTION",
            "\\fBfixcast\\fR keeps the weather current wherever the GPS says it is: it follows gpsd, names the "
                + "place, fetches the weather and the official alerts, stores every reading and a thinned track "
                + "in an SQLite store, and can publish them to MQTT.",
            ".PP",
        ]
        page += reference.closing.map(text)
        page.append(".SH COMMANDS")
        let common = Set(reference.mainOptions.map(\.spellings))
        for command in reference.commands {
            page.append(".SS \"\(text(command.words.joined(separator: " ")))\"")
            page += [text(command.summary), ".PP"]
            page.append(usage(command.usage, words: command.words))
            for paragraph in command.paragraphs {
                page += [".PP", text(paragraph)]
            }
            let own = command.options.filter { !common.contains($0.spellings) }
            if !own.isEmpty {
                page += [".PP", "Options:"]
                page += own.flatMap(option)
            }
            // The common options it takes (`-h` alone, which `completions` lists, is not them).
            if command.options.contains(where: { common.contains($0.spellings) && $0.name != nil }) {
                page += [".PP", "And the options of every command (see \\fBOPTIONS\\fR)."]
            }
        }
        page.append(".SH OPTIONS")
        page.append("These options mean the same in every command, and may come before or after the command.")
        page += reference.mainOptions.flatMap(option)
        page += [
            ".SH ENVIRONMENT",
            ".TP", ".B FIXCAST_CONFIG",
            "The configuration file, when \\fB\\-\\-config\\fR is not given; \\fI/dev/null\\fR reads none "
                + "(only the defaults and the environment apply).",
            ".TP", ".B FIXCAST_DATA_DIR",
            "The folder of the bundled data (the place, alert-area and map tables), looked in before "
                + "share/fixcast beside the program (and in its parent folders), then each of "
                + "$XDG_DATA_DIRS/fixcast (default /usr/local/share and /usr/share), then /usr/share/fixcast.",
            ".TP", ".BR XDG_CONFIG_HOME \", \" XDG_DATA_HOME",
            "Where the user's configuration and store are looked for (default ~/.config and ~/.local/share).",
            ".TP", ".B NO_COLOR",
            "Set and not empty: no colour in the alerts' severities (no-color.org).",
            ".TP", ".B TERM",
            "\\fBdumb\\fR (an editor's shell buffer): no colour, and \\fBrun\\fR prints JSON lines instead of the live "
                + "screen.",
            ".PP",
            "Every configuration key can be set by an environment variable FIXCAST_\\fISECTION\\fR_\\fIKEY\\fR, "
                + "which the command-line options override:",
        ]
        // Left-aligned: the variable names are long words, and a justified line of two of them cannot be
        // adjusted (groff warns).
        page.append(".ad l")
        for section in ConfigSchema.sections {
            let names = ConfigSchema.keys.filter { $0.section == section }.map(\.environmentVariable)
            guard !names.isEmpty else { continue }
            page += [".TP", ".B [\(text(section))]", text(names.joined(separator: ", "))]
        }
        page.append(".ad b")
        page += [
            ".SH FILES",
            ".TP", ".I ~/.config/fixcast/config.toml",
            "The user's configuration (every key has a default; no file is fine). A relative path in it (storage.path, mqtt.ca_file, ahead.route) is from its own folder, and ~/ is the home folder.",
            ".TP", ".I /etc/fixcast/config.toml",
            "The system's configuration, read when the user has none; every key with its default, commented.",
            ".TP", ".I ~/.local/share/fixcast/fixcast.sqlite",
            "The store of readings and track; the service's is /var/lib/fixcast/fixcast.sqlite.",
            ".TP", ".I /usr/share/fixcast",
            "The bundled data: the offline place names (GeoNames), the MeteoAlarm warning areas and the"
                + " report's base map (Natural Earth).",
            ".SH EXIT STATUS",
        ]
        page.append(text(reference.exitStatus))
        page.append(".SH DATA CREDITS")
        let credits = VersionText.text.split(separator: "\n").dropFirst()
        for line in credits {
            page += [".PP", text(String(line))]
        }
        page += [".SH SEE ALSO", ".BR gpsd (8),", ".BR systemctl (1)", ""]
        return page.joined(separator: "\n")
    }

    /// The tagline without the program's name and the closing full stop, for the whatis line.
    static func whatis(_ tagline: String) -> String {
        var s = Substring(tagline)
        if let dash = s.firstIndex(of: "—") { s = s[s.index(after: dash)...] }
        while s.first == " " { s = s.dropFirst() }
        if s.last == "." { s = s.dropLast() }
        return String(s)
    }

    /// A usage line: `fixcast` and the command's words in bold, the rest as written.
    static func usage(_ line: String, words: [String]) -> String {
        let name = (["fixcast"] + words).joined(separator: " ")
        guard line.hasPrefix(name) else { return text(line) }
        return "\\fB" + text(name) + "\\fR" + text(String(line.dropFirst(name.count)))
    }

    /// An option as a tagged paragraph: its spellings in bold, its value's name in italics.
    static func option(_ option: CommandLineReference.Option) -> [String] {
        var tag = option.spellings.map { "\\fB" + text($0) + "\\fR" }.joined(separator: ", ")
        if let argument = option.argument { tag += " \\fI" + text(argument) + "\\fR" }
        return [".TP", tag, text(option.description)]
    }

    /// Text made safe for roff: a backslash printed as one, every hyphen a minus sign that pastes as
    /// `-` (options are copied from man pages), non-ASCII characters as groff's \[uXXXX], and a
    /// line that would start with a control character (`.` or `'`) guarded with \&.
    static func text(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case "\n", "\t": out += " "
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: continue
            case _ where scalar.isASCII: out.unicodeScalars.append(scalar)
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            }
        }
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }
}
