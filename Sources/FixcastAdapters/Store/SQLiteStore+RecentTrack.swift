import FixcastCore
import FoundationEssentials

extension SQLiteStore {
    /// 2,000 points: 20 minutes of track at one point a second is 1,200; the bound keeps a store
    /// with a misconfigured interval from handing over a day's track.
    public static let recentTrackLimit = 2_000

    /// The track points received at or after `since`, oldest first, at most the newest
    /// `recentTrackLimit` (weather ahead learns the speed and the course from them).
    public func recentTrack(since: Date) throws(StorageError) -> [Fix] {
        var out: [Fix] = []
        do {
            try forEachTrackPoint(since: since, until: nil, by: .received) { fix in
                out.append(fix)
                if out.count > 2 * Self.recentTrackLimit { out.removeFirst(out.count - Self.recentTrackLimit) }
            }
        } catch let e as StorageError {
            throw e
        } catch {
            throw StorageError.corrupt(path: path, detail: "the track could not be read")
        }
        return Array(out.suffix(Self.recentTrackLimit))
    }
}

extension SQLiteStore: RecentTrackStore {}
