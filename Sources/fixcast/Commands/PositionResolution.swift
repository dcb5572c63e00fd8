import FixcastAdapters
import FixcastApp
import FixcastCore
import FoundationEssentials

/// Where a one-shot command's position comes from: `--at`, `--place`, or gpsd (with the fix
/// timeout, retries and last-known fallback of the location provider).
struct PositionResolution {
    struct Resolved {
        var position: Position
        /// Set when a `--place` search named the position.
        var place: Place?
        var notes: [ReadingIssue]
    }

    enum Failure: Error {
        /// One sentence for stderr; exit 1.
        case noPosition(String, notes: [ReadingIssue])
    }

    /// A command that cannot go on: its sentence is already on stderr.
    struct Exit: Error {
        let code: Int32
    }

    /// The start of `forecast` and `alerts`: the services, then the position. On failure the one
    /// sentence is printed and the exit code returned (2 for a configuration problem, 1 for no position).
    static func start(context: CommandContext, position: PositionChoice, offline: Bool) async -> Result<
        (Services, Resolved), Exit
    > {
        let services: Services
        do { services = try Services(settings: context.settings, environment: context.environment) } catch {
            Console.err(error.message + "\n")
            return .failure(Exit(code: ExitCode.usage))
        }
        switch await resolve(position, offline: offline, context: context, services: services) {
        case .failure(.noPosition(let message, _)):
            Console.err(message + "\n")
            return .failure(Exit(code: ExitCode.failure))
        case .success(let resolved):
            return .success((services, resolved))
        }
    }

    /// The agent's fixed position (`run` and `now` with `--at` or `--place`; gpsd otherwise: nil and
    /// nil). On failure its one sentence is printed and `Exit` carries exit 1.
    static func fixed(
        _ choice: PositionChoice, offline: Bool, context: CommandContext, services: Services
    ) async -> Result<(position: Position?, place: Place?), Exit> {
        guard choice.isFixed else { return .success((nil, nil)) }
        switch await resolve(choice, offline: offline, context: context, services: services) {
        case .failure(.noPosition(let message, _)):
            Console.err(message + "\n")
            return .failure(Exit(code: ExitCode.failure))
        case .success(let resolved):
            return .success((resolved.position, resolved.place))
        }
    }

    static func resolve(
        _ choice: PositionChoice, offline: Bool, context: CommandContext, services: Services
    ) async -> Result<Resolved, Failure> {
        let now = services.clock.now()
        switch choice {
        case .at(let at):
            return .success(Resolved(position: .manual(at, at: now), place: nil, notes: []))
        case .place(let name):
            do {
                let match = try await services.places.resolve(placeNamed: name, offline: offline)
                return .success(Resolved(position: .manual(match.coordinate, at: now), place: match.asPlace, notes: []))
            } catch {
                return .failure(.noPosition(error.message, notes: []))
            }
        case .gpsd:
            break
        }
        let provider = LocationProvider(
            settings: context.settings.gps, address: context.gpsd, store: services.store, clock: services.clock)
        let outcome = await provider.currentPosition()
        // For `status`: what this run dropped as implausible joins the store's totals (best effort).
        try? await services.store?.addRejectedFixes(outcome.rejectedFixes)
        if let position = outcome.position {
            return .success(Resolved(position: position, place: nil, notes: outcome.issues))
        }
        let message = outcome.error?.message ?? "gps: no position could be had; start gpsd or pass --at LAT,LON."
        return .failure(.noPosition(message, notes: outcome.issues))
    }
}
