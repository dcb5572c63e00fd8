import FoundationEssentials

/// The gps layer's failures, one sentence each naming gpsd, the address and what to do (component: gps).
public enum GPSError: UserFacingError, Hashable {
    /// gpsd refused or did not answer a connection; `detail` is libgps's reason when it gave one.
    case unreachable(address: String, detail: String?)
    /// Connected, but gpsd would not stream reports (`?WATCH` failed).
    case watchRefused(address: String)
    /// A working connection closed (gpsd stopped or restarted); the client reconnects by itself.
    case connectionLost(address: String)
    /// Connected, but no fix in any attempt and nothing stored to fall back on.
    case noFixInTime(address: String, attempts: Int, timeoutS: Double)
    /// The connection was lost, did not come back during the attempts, and nothing is stored.
    case lostBeforeFix(address: String, attempts: Int, timeoutS: Double)
    /// libgps could not be loaded (it is opened at the first connection, not linked).
    case libraryMissing(MissingLibrary)
    /// `gps.host` is a name that was not looked up within the connect timeout (a DNS or mDNS server
    /// that does not answer): not gpsd's fault, and starting it would not help.
    case nameNotResolved(address: String)

    public var component: Component { .gps }

    public var message: String {
        switch self {
        case .unreachable(let a, _):
            return "gps: gpsd at \(a) is not answering; start gpsd (systemctl start gpsd) or pass --at LAT,LON."
        case .watchRefused(let a):
            return
                "gps: gpsd at \(a) accepted the connection but would not stream fixes; restart gpsd (systemctl restart gpsd)."
        case .connectionLost(let a):
            return
                "gps: the connection to gpsd at \(a) was lost; fixcast reconnects by itself, check that gpsd is running (systemctl status gpsd)."
        case .noFixInTime(let a, let n, let t):
            return
                "gps: no fix from gpsd at \(a) after \(Self.tries(n, t)) and no position is stored; give the receiver a clear view of the sky or pass --at LAT,LON."
        case .lostBeforeFix(let a, let n, let t):
            return
                "gps: gpsd at \(a) went away and no fix came back within \(Self.tries(n, t)); check that gpsd is running (systemctl status gpsd) or pass --at LAT,LON."
        case .libraryMissing(let library):
            return "gps: \(library.clause), or pass --at LAT,LON."
        case .nameNotResolved(let a):
            return
                "gps: \(Self.hostNotLookedUp(a)) (the DNS or mDNS server does not answer); check it, or set gps.host to an address."
        }
    }

    /// "the host name of gpsd at gpspi.local:2947 could not be looked up in time": the error's and the
    /// last-known note's (`ReadingRequest.LastKnownReason.hostNotLookedUp`) one wording.
    static func hostNotLookedUp(_ address: String) -> String {
        "the host name of gpsd at \(address) could not be looked up in time"
    }

    /// "3 tries of 8 s"
    static func tries(_ n: Int, _ timeoutS: Double) -> String {
        "\(n) \(n == 1 ? "try" : "tries") of \(seconds(timeoutS))"
    }

    static func seconds(_ s: Double) -> String {
        if s == s.rounded(), let whole = Int(checked: s) { return "\(whole) s" }
        return "\(s) s"
    }

    /// The error for a wait that ended without a fix (and without a stored position).
    public init(_ failure: FixWaitFailure, address: String) {
        switch failure {
        case .unreachable: self = .unreachable(address: address, detail: nil)
        case .noFix(let n, let t): self = .noFixInTime(address: address, attempts: n, timeoutS: t)
        case .connectionLost(let n, let t): self = .lostBeforeFix(address: address, attempts: n, timeoutS: t)
        }
    }

    /// "40 s", "12 min", "3 h", "5 d": the largest unit that still reads naturally.
    public static func ageText(seconds s: Int) -> String {
        switch s {
        case ..<90: return "\(s) s"
        case ..<(90 * 60): return "\(s / 60) min"
        case ..<(48 * 3600): return "\(s / 3600) h"
        default: return "\(s / 86_400) d"
        }
    }
}
