import FixcastCore
import FixcastText
import FoundationEssentials

/// NWS zones, for alerts ahead sent without geometry: asked once and kept a day.
extension AlertService {
    func loadZone(_ path: String) async -> (checkedAt: Date, footprint: AlertFootprint?)? {
        guard let state else { return zones[path] }
        guard let text = try? await state.state(Self.zoneKey(path)), let json = try? JSONValue.parse(text),
            let checkedAt = json["checked_at"]?.stringValue.flatMap(UTCTime.parse)
        else { return nil }
        return (checkedAt, json["footprint"].flatMap(AlertFootprint.init(json:)))
    }

    /// Asks for one zone and keeps what it said (also "no geometry", so it is not asked again today);
    /// nil when it could not be asked (back-off, a failure: asked again next time).
    func askZone(_ path: String, now: Date) async -> AlertFootprint?? {
        guard let regions else { return nil }
        let backoff = backoffs[.nws] ?? SavedBackoff(key: Self.backoffKey(.nws), state: state)
        if await backoff.heldUntil(now: now) != nil { return nil }
        fetchCount += 1
        let footprint: AlertFootprint?
        do {
            footprint = try await regions.zone(path)
            await backoff.recordSuccess()
        } catch {
            if case .status(_, let code, _, let retryAfter) = error {
                // A zone the service does not know (404) is kept as one without geometry, as an answer
                // is: asked again at every forecast, it would be asked for nothing all day.
                if code == 404 {
                    await backoff.recordSuccess()
                    return await keptZone(path, footprint: nil, now: now)
                }
                await backoff.recordFailure(status: code, retryAfter: retryAfter, now: now)
            }
            return nil
        }
        return await keptZone(path, footprint: footprint, now: now)
    }

    /// Keeps what a zone said for a day (`zoneKeepS`), in the store when there is one.
    /// Without a store, the zones stay in memory as the store keeps them (`keptZones`: the last day's,
    /// at most 500); the store's are trimmed after each pass.
    private func keptZone(_ path: String, footprint: AlertFootprint?, now: Date) async -> AlertFootprint?? {
        guard let state else {
            zones[path] = (now, footprint)
            let times = zones.map { (key: $0.key, time: Optional($0.value.checkedAt)) }
            for old in Self.keptZones.keysToDrop(times, now: now) { zones[old] = nil }
            return .some(footprint)
        }
        let json = JSONValue.object([
            ("checked_at", .string(UTCTime.format(now))), ("footprint", footprint?.json ?? .null),
        ])
        try? await state.setState(Self.zoneKey(path), json.serialized())
        return .some(footprint)
    }

    /// Drops the stored zones `keptZones` does not keep.
    func trimKeptZones(now: Date) async {
        await state?.trim(Self.keptZones, now: now, time: StateFamilyLimit.checkedAt)
    }
}
