import FixcastApp
import FixcastCore

/// What a shell can offer after an option that takes a value: a fixed list, a file path, the trips in
/// the store, or nothing (a value only the person knows, such as a place name). The lists are the
/// parser's own types (`ExportFormat`, `UnitSystem`, `Language`), so a new format or language is
/// completed as soon as it parses.
enum OptionValues: Sendable, Equatable {
    /// A switch: nothing follows it.
    case none
    case choices([String])
    case file
    /// `last` or a trip number, as `fixcast trips --json` lists them.
    case trips
    /// A value to type (a host, a place, a date, a number).
    case free
}

extension OptionName {
    /// What follows this option on `command`'s line (`command` is there for an option whose value
    /// differs between commands). An option added later is a switch when `FlagArgument` lists it
    /// and a value to type otherwise, until it says more here.
    func values(for command: CommandName?) -> OptionValues {
        if FlagArgument.names.contains(flag) { return .none }
        switch self {
        case .config, .db, .output, .route: return .file
        case .units: return .choices(UnitSystem.allCases.map(\.rawValue))
        case .lang: return .choices(Language.allCases.map(\.rawValue))
        // export's formats; a --format of another command is its own (a value to type).
        case .format where command == .export: return .choices(ExportFormat.allCases.map(\.rawValue))
        case .trip: return .trips
        default: return .free
        }
    }
}
