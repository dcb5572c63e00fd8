/// Why a reading could not be printed, as the reducer needs it: whether anything was lost (a loss
/// is said once and the exit is 1), and which sentence says it.
public enum OutputLoss: Sendable, Hashable {
    /// stdout's reader went away (`| head -1`) or the terminal hung up: a stop that loses nothing
    /// anyone wanted.
    case readerGone
    /// stdout's reader is there but stopped reading, and the readings waiting for it reached their
    /// limit: they are stored, not printed.
    case readerStalled
    /// stdout refuses writes (a full disk, `/dev/full`, EIO); `errno` says why.
    case refused(errno: Int32)
}
