import FoundationEssentials

/// The command line as `--help` describes it, in parts: each command's usage, description and
/// options, and the options every command takes. The man page and the shell completions are made
/// from this, and this is read from `HelpText` and the option tables (`CommandName.acceptedOptions`),
/// so what the man page says, what a shell completes and what `--help` prints cannot drift apart: a
/// new command or option appears in all three at once.
struct CommandLineReference: Sendable, Equatable {
    /// One option: how it is spelled, its value's name, what it does, what may follow it.
    struct Option: Sendable, Equatable {
        var spellings: [String]
        /// The value's name in help (`FILE`, `N|last`); nil for a switch.
        var argument: String?
        var description: String
        var values: OptionValues
        /// The option of the option table, nil for `--help` and `--version`.
        var name: OptionName?
    }

    /// One command (`mqtt test` has two words).
    struct Command: Sendable, Equatable {
        var name: CommandName
        var words: [String]
        var summary: String
        var usage: String
        var paragraphs: [String]
        var options: [Option]
        /// What may follow the command word itself (`test`, a shell); empty: nothing to offer.
        var arguments: [String]
    }

    var tagline: String
    var usage: String
    var commands: [Command]
    /// The options of the main help: the common ones, `--help` and `--version`.
    var mainOptions: [Option]
    /// The main help's closing paragraphs (where to read more), without the exit status.
    var closing: [String]
    /// What the exit codes mean, from the main help's `Exit status:` line.
    var exitStatus: String

    /// The reference of this build's command line.
    static let current = CommandLineReference(
        main: HelpText.main, commandHelp: { HelpText.forCommand($0) })

    init(main: String, commandHelp: (CommandName) -> String) {
        let mainPage = HelpPage(main)
        tagline = mainPage.paragraphs.first ?? ""
        usage = mainPage.usage
        var closing: [String] = []
        var exitStatus = ""
        for paragraph in mainPage.paragraphs.dropFirst() {
            let parts = paragraph.splitting(at: "Exit status: ")
            if !parts[0].isEmpty { closing.append(parts[0].trimmingCharacters(in: .whitespaces)) }
            if parts.count > 1 { exitStatus = parts[1] }
        }
        self.closing = closing
        self.exitStatus = exitStatus
        mainOptions = mainPage.options.map { Option($0, command: nil) }
        commands = CommandName.allCases.map { name in
            let page = HelpPage(commandHelp(name))
            let words = name.helpName.split(separator: " ").map(String.init)
            let arguments: [String]
            switch name {
            case .completions: arguments = CompletionShell.allCases.map(\.rawValue)
            default: arguments = Array(words.dropFirst())
            }
            return Command(
                name: name, words: words, summary: name.summary, usage: page.usage, paragraphs: page.paragraphs,
                options: page.options.map { Option($0, command: name) }, arguments: arguments)
        }
    }
}

extension CommandLineReference.Option {
    init(_ entry: HelpPage.OptionEntry, command: CommandName?) {
        spellings = entry.spellings
        argument = entry.argument
        description = entry.description
        name = entry.spellings.lazy.compactMap { OptionName(flag: $0) }.first
        values = entry.argument == nil ? .none : (name?.values(for: command) ?? .free)
    }

    /// The long spelling (`--output`), else the only one.
    var long: String { spellings.first { $0.hasPrefix("--") } ?? spellings[0] }
    /// The one-letter spelling (`-o`), if there is one.
    var short: String? { spellings.first { !$0.hasPrefix("--") } }
}

/// A help text taken apart at the places its layout marks: the `USAGE:` line, the paragraphs, the
/// `OPTIONS` block with one entry per line that starts with `  -` and its indented continuation
/// lines, and a `COMMANDS:` block (skipped: the commands come from `CommandName.summary`).
struct HelpPage: Sendable, Equatable {
    struct OptionEntry: Sendable, Equatable {
        var spellings: [String]
        var argument: String?
        var description: String
    }

    var usage = ""
    var paragraphs: [String] = []
    var options: [OptionEntry] = []

    init(_ text: String) {
        enum Block { case prose, options, commands }
        var block = Block.prose
        var paragraph: [String] = []
        func endParagraph() {
            if !paragraph.isEmpty { paragraphs.append(paragraph.joined(separator: " ")) }
            paragraph = []
        }
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(raw)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("USAGE: ") {
                endParagraph()
                usage = String(line.dropFirst("USAGE: ".count))
                block = .prose
            } else if line.hasPrefix("OPTIONS") && line.hasSuffix(":") {
                endParagraph()
                block = .options
            } else if line == "COMMANDS:" {
                endParagraph()
                block = .commands
            } else if trimmed.isEmpty {
                endParagraph()
                block = .prose
            } else if block == .commands {
                continue
            } else if block == .options, line.hasPrefix("  -") {
                options.append(Self.entry(line))
            } else if block == .options, line.hasPrefix("    "), !options.isEmpty {
                let more = options[options.count - 1].description
                options[options.count - 1].description = more.isEmpty ? trimmed : more + " " + trimmed
            } else {
                paragraph.append(trimmed)
            }
        }
        endParagraph()
    }

    /// `  -o, --output FILE    Write …`: spellings, then the value's name, then (after two spaces or
    /// on the next lines) the description.
    static func entry(_ line: String) -> OptionEntry {
        let body = Array(line.trimmingCharacters(in: .whitespaces))
        var head = String(body)
        var description = ""
        if let gap = body.indices.dropLast().first(where: { body[$0] == " " && body[$0 + 1] == " " }) {
            head = String(body[..<gap])
            description = String(body[gap...]).trimmingCharacters(in: .whitespaces)
        }
        var spellings: [String] = []
        var argument: String?
        // Spellings are separated by ", " (a value such as LAT,LON has a comma but no space).
        for part in head.splitting(at: ", ") {
            if let space = part.firstIndex(of: " ") {
                spellings.append(String(part[..<space]))
                argument = String(part[part.index(after: space)...])
            } else {
                spellings.append(part)
            }
        }
        return OptionEntry(spellings: spellings, argument: argument, description: description)
    }
}

extension String {
    /// The parts between occurrences of `separator`.
    func splitting(at separator: String) -> [String] {
        var parts: [String] = []
        var rest = Substring(self)
        while let start = rest.indices.first(where: { rest[$0...].hasPrefix(separator) }) {
            parts.append(String(rest[..<start]))
            rest = rest[rest.index(start, offsetBy: separator.count)...]
        }
        parts.append(String(rest))
        return parts
    }
}
