import FixcastAdapters
import FixcastCore
import FixcastText
import FoundationEssentials

/// MeteoAlarm: one feed per country, placed offline for each position (`MeteoAlarmFeedAlerts`).
extension AlertService {
    /// What refreshing one feed came to: the copy to place (nil when there is none fit to use) and,
    /// when asking failed or was held back, why (the copy is then stale).
    struct FeedRefresh: Sendable {
        var check: MeteoAlarmFeedCheck?
        var error: AlertError?
        /// A request was made (and answered): the unplaced count is worth recording.
        var asked: Bool
    }

    func feedAlerts(feed slug: String, at coordinate: Coordinate, offline: Bool)
        async -> AlertOutcome
    {
        let refresh: FeedRefresh
        if offline {
            let now = clock.now()
            guard let last = await loadFeedCheck(Self.feedKey(slug)), Self.fitToShow(last.checkedAt, now: now) else {
                return AlertOutcome(report: nil, error: .offline)
            }
            let fresh = policy.decide(feed: last, slug: slug, now: now) == .reuse
            refresh = FeedRefresh(check: last, error: nil, asked: false)
            return await place(refresh, key: Self.feedKey(slug), at: coordinate, stale: !fresh)
        }
        refresh = await refreshWhole(.meteoAlarmFeed(slug), at: coordinate)
        return await place(refresh, key: Self.feedKey(slug), at: coordinate, stale: refresh.error != nil)
    }

    /// One request per whole document (a country feed, a region ahead) at a time, wherever the
    /// callers are; nil fetcher: nothing to ask with.
    func refreshWhole(_ region: AlertRegion, at coordinate: Coordinate) async -> FeedRefresh {
        let fetch: @Sendable (String?, String?) async throws(AlertError) -> MeteoAlarmFeedAnswer
        let source = region.source
        switch region {
        case .meteoAlarmFeed(let slug):
            guard let meteoAlarm else { return FeedRefresh(check: nil, error: nil, asked: false) }
            fetch = { (modified, match) async throws(AlertError) in
                try await meteoAlarm.fetch(feed: slug, ifModifiedSince: modified, ifNoneMatch: match)
            }
        default:
            guard let regions else { return FeedRefresh(check: nil, error: nil, asked: false) }
            fetch = { (modified, match) async throws(AlertError) in
                try await regions.fetch(region, ifModifiedSince: modified, ifNoneMatch: match)
            }
        }
        let tag = Self.regionKey(region)
        if let current = feedsInFlight.near(coordinate, withinKm: .infinity, where: { $0 == tag }) {
            return await current.task.value
        }
        let request = feedsInFlight.start(tag: tag, at: coordinate) { _ in
            await self.refreshFeed(tag, name: Self.checkName(region), source: source, fetch: fetch)
        }
        let refresh = await request.task.value
        feedsInFlight.finish(request.id)
        return refresh
    }

    /// Asks for a whole document (stored under `key`, named `name` in its check) when the policy allows
    /// (`check_min` per document, `Expires`), with the stored copy's validators, and keeps the answer
    /// (or the revalidated copy after a 304); the source's back-off holds it back after 429/5xx.
    private func refreshFeed(
        _ key: String, name slug: String, source id: AlertSourceID,
        fetch: @Sendable (String?, String?) async throws(AlertError) -> MeteoAlarmFeedAnswer
    ) async -> FeedRefresh {
        let now = clock.now()
        let last = await loadFeedCheck(key)
        let standIn = last.flatMap { Self.fitToShow($0.checkedAt, now: now) ? $0 : nil }
        let ifModifiedSince: String?
        let ifNoneMatch: String?
        switch policy.decide(feed: last, slug: slug, now: now) {
        case .reuse:
            return FeedRefresh(check: last, error: nil, asked: false)
        case .ask(let modified, let match):
            ifModifiedSince = modified
            ifNoneMatch = match
        }
        let backoff = backoffs[id] ?? SavedBackoff(key: Self.backoffKey(id), state: state)
        if let until = await backoff.heldUntil(now: now) {
            return FeedRefresh(check: standIn, error: .backingOff(source: id, until: until), asked: false)
        }
        fetchCount += 1
        do {
            let answer = try await fetch(ifModifiedSince, ifNoneMatch)
            await backoff.recordSuccess()
            let body: String
            if let fresh = answer.body {
                body = fresh
            } else if let last {
                body = last.body  // 304: the stored feed stands, checked just now
            } else {
                return FeedRefresh(
                    check: nil,
                    error: .invalidResponse(
                        source: id, detail: "304 Not Modified for a feed fixcast does not hold"),
                    asked: true)
            }
            let check = MeteoAlarmFeedCheck(
                feed: slug, checkedAt: now, expires: answer.expires,
                lastModified: answer.lastModified ?? (answer.body == nil ? last?.lastModified : nil),
                etag: answer.etag ?? (answer.body == nil ? last?.etag : nil), body: body)
            if let tree = answer.tree { remember(tree, of: body, key: key) }
            await saveFeedCheck(check, key: key, isNew: last == nil)
            return FeedRefresh(check: check, error: nil, asked: true)
        } catch {
            if case .status(_, let code, _, let retryAfter) = error {
                await backoff.recordFailure(status: code, retryAfter: retryAfter, now: now)
            }
            return FeedRefresh(check: standIn, error: error, asked: true)
        }
    }

    /// The warnings of the feed copy (stored under `key`) that apply at `coordinate` (or cannot be
    /// placed), as a report.
    private func place(_ refresh: FeedRefresh, key: String, at coordinate: Coordinate, stale: Bool) async
        -> AlertOutcome
    {
        guard let check = refresh.check else { return AlertOutcome(report: nil, error: refresh.error) }
        let now = clock.now()
        var error = refresh.error
        let table: AlertAreaTable?
        switch areas.areaTable() {
        case .success(let t): table = t
        case .failure(let why):
            table = nil
            error = error ?? .areasUnavailable(detail: why.detail)
        }
        let tree: XMLElement
        do {
            tree = try feedTree(check, key: key)
        } catch {
            return AlertOutcome(report: nil, error: error)
        }
        let answer: MeteoAlarmFeedAlerts.Answer
        do {
            answer = try MeteoAlarmFeedAlerts.alerts(in: tree, at: coordinate, table: table, now: now)
        } catch {
            return AlertOutcome(report: nil, error: .invalidResponse(source: .meteoalarm, detail: error.detail))
        }
        if refresh.asked, table != nil { await recordUnplaced(answer.unplacedAreas, feed: check.feed) }
        // A warning reissued under a new identifier (the feed keeps only the newest version, and its
        // ids carry it: `….v3.0.SI` after `….v2.0.SI`) continues the one placed before under that one's
        // id, as the point sources' answers do: it is not news to `alerts.command` or MQTT again.
        let before = await loadCheck(.meteoalarm)
        let alerts = AlertIdentity.continuing(answer.alerts, from: before?.report.active ?? [])
        let report = AlertReport.fetched(alerts, source: .meteoalarm, fetchedAt: check.checkedAt, now: now)
        if before?.report != report || before?.coordinate != coordinate {
            await saveCheck(
                AlertCheck(
                    source: .meteoalarm, coordinate: coordinate, checkedAt: check.checkedAt, expires: nil,
                    lastModified: nil, report: report))
        }
        return AlertOutcome(report: stale ? report.aged(to: now, stale: true) : report, error: error)
    }

    /// A MeteoAlarm feed copy as its tree: the one read before when the copy is the same text, else
    /// read now (and kept for next time).
    func feedTree(_ check: MeteoAlarmFeedCheck, key: String) throws(AlertError) -> XMLElement {
        if let index = readFeeds.firstIndex(where: { $0.key == key }),
            readFeeds[index].body.utf8.elementsEqual(check.body.utf8)
        {
            let read = readFeeds.remove(at: index)
            readFeeds.append(read)
            return read.tree
        }
        feedsRead += 1
        let tree = try MeteoAlarmSource.feed(Array(check.body.utf8))
        remember(tree, of: check.body, key: key)
        return tree
    }

    /// Keeps a feed's tree as the one read from `body`, in place of the key's older one; the least
    /// recently used goes beyond `maxReadFeeds`.
    private func remember(_ tree: XMLElement, of body: String, key: String) {
        readFeeds.removeAll { $0.key == key }
        readFeeds.append((key, body, tree))
        if readFeeds.count > Self.maxReadFeeds { readFeeds.removeFirst(readFeeds.count - Self.maxReadFeeds) }
    }

    /// Whether a copy checked at `checkedAt` may still be shown (stale or offline): not from the future,
    /// not older than `maximumStaleAgeS`.
    static func fitToShow(_ checkedAt: Date, now: Date) -> Bool {
        let age = now.timeIntervalSince(checkedAt)
        return age >= 0 && age <= maximumStaleAgeS
    }

    /// Keeps this feed's count beside the other feeds' (a failing store only loses the count).
    private func recordUnplaced(_ count: Int, feed slug: String) async {
        guard let state else { return }
        var members: [(String, JSONValue)] = []
        if let text = try? await state.state(Self.unplacedAreasKey), let json = try? JSONValue.parse(text),
            let object = json.objectValue
        {
            members = object.filter { $0.0 != slug && MeteoAlarmFeeds.slugs.values.contains($0.0) }
        }
        members.append((slug, .int(count)))
        members.sort { $0.0 < $1.0 }
        try? await state.setState(Self.unplacedAreasKey, JSONValue.object(members).serialized())
    }

    /// The sum of every feed's unplaced geocodes as the store keeps them (`status`); 0 when none is kept.
    public static func unplacedAreas(stateText text: String?) -> Int {
        guard let text, let object = (try? JSONValue.parse(text))?.objectValue else { return 0 }
        return object.reduce(0) { sum, member in
            guard let d = member.1.doubleValue, d.isFinite, d >= 0, d <= 100_000 else { return sum }
            return sum + Int(d)
        }
    }
}
