import FixcastAdapters
import FixcastApp
import FixcastCore
import FoundationEssentials

/// Where a command's position comes from: `--at`, `--place`, or gpsd — and then always the agent's
/// own fix wait (`Agent.position()` for `forecast`, `alerts` and `ahead`; the agent itself for `run`
/// and `now`), so the timeout, retries, gpsd's sentences and the last-known note are one code path.
struct PositionResolution {
    struct Resolved {
        var position: Position
        /// Set when a `--place` search named the position.
        var place: Place?
    }

    /// A command that cannot go on: its sentence is already on stderr.
    struct Exit: Error {
        let code: Int32
    }

    /// The start of `forecast`, `alerts` and `ahead`: the services, then the position, its notes on
    /// stderr. On failure the one sentence is printed and the exit code returned (2 for a
    /// configuration problem, 1 for no position).
    static func start(context: CommandContext, position: PositionChoice, offline: Bool) async -> Result<
        (Services, Resolved), Exit
    > {
        let services: Services
        do { services = try Services(settings: context.settings, environment: context.environment) } catch {
            Console.err(error.message + "\n")
            return .failure(Exit(code: ExitCode.usage))
        }
        let fixed: (position: Position?, place: Place?)
        switch await Self.fixed(position, offline: offline, services: services) {
        case .failure(let exit): return .failure(exit)
        case .success(let resolved): fixed = resolved
        }
        if let at = fixed.position {
            return .success((services, Resolved(position: at, place: fixed.place)))
        }
        // gpsd: `now`'s one-reading run, stopped where its reading would start; what the position
        // must say of itself (a last-known position's note) goes to stderr, as the daily array and
        // the alerts object have no errors list.
        let agent = Agent(
            settings: context.settings, options: Agent.Options(json: false, offline: offline, demoLabel: nil),
            services: services)
        guard let request = await agent.position() else { return .failure(Exit(code: ExitCode.failure)) }
        for note in request.notes { Console.err(note.message + "\n") }
        return .success((services, Resolved(position: request.position, place: nil)))
    }

    /// The fixed position of `--at` or `--place` (gpsd: nil and nil, the agent's to find). On failure
    /// its one sentence is printed and `Exit` carries exit 1.
    static func fixed(
        _ choice: PositionChoice, offline: Bool, services: Services
    ) async -> Result<(position: Position?, place: Place?), Exit> {
        let now = services.clock.now()
        switch choice {
        case .at(let at):
            return .success((.manual(at, at: now), nil))
        case .place(let name):
            do {
                let match = try await services.places.resolve(placeNamed: name, offline: offline)
                return .success((.manual(match.coordinate, at: now), match.asPlace))
            } catch {
                Console.err(error.message + "\n")
                return .failure(Exit(code: ExitCode.failure))
            }
        case .gpsd:
            return .success((nil, nil))
        }
    }
}
