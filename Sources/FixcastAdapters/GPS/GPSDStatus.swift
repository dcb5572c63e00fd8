import FixcastCore
import FoundationEssentials

/// What `fixcast status` shows about gpsd: whether it answers, the receiver it reads, and a fix
/// seen during a short look (nil when none came in that time; that is not an error).
public struct GPSDStatus: Sendable, Hashable {
    public var address: GPSDAddress
    public var reachable: Bool
    public var device: String?
    public var lastFix: Fix?
    /// Why gpsd is not reachable (nil when it is).
    public var error: GPSError?

    public init(
        address: GPSDAddress, reachable: Bool, device: String? = nil, lastFix: Fix? = nil, error: GPSError? = nil
    ) {
        self.address = address
        self.reachable = reachable
        self.device = device
        self.lastFix = lastFix
        self.error = error
    }

    /// Connects once, watches for up to `timeout` seconds, and returns at the first fix (gpsd
    /// announces its devices first) or when the time is up. Does not reconnect.
    public static func probe(
        address: GPSDAddress, timeout: Double = 2, clock: any WallClock = SystemClock()
    ) async -> GPSDStatus {
        // A back-off longer than the look: one connection attempt only.
        let client = GPSDClient(
            address: address, clock: clock, backoff: ReconnectBackoff(initialS: timeout + 60, maximumS: timeout + 60))
        client.start()
        let timer = ThreadExecutor.tasks.startTask {
            await ThreadExecutor.tasks.sleep(seconds: max(0, timeout))
            client.stop()
        }
        var status = GPSDStatus(address: address, reachable: false)
        look: for await batch in client.events {
            for event in batch {
                switch event {
                case .connected:
                    status.reachable = true
                case .device(let path):
                    status.device = path
                case .fix(let fix):
                    status.lastFix = fix
                    break look
                case .disconnected(let error):
                    if !status.reachable {
                        status.error = error
                        break look
                    }
                case .opened, .noFix, .satellites:
                    break
                }
            }
        }
        timer.cancel()
        client.stop()
        return status
    }

    /// `probe` from separate host and port (config `gps.host` / `gps.port`); a bad address is unreachable.
    public static func probe(host: String, port: Int, timeout: Double = 2) async -> GPSDStatus {
        let label = HostAddress.display(host: host, port: port)
        guard let address = try? GPSDAddress(host: host, port: port) else {
            return GPSDStatus(
                address: .local, reachable: false,
                error: .unreachable(address: label, detail: "not a valid address"))
        }
        return await probe(address: address, timeout: timeout)
    }
}
