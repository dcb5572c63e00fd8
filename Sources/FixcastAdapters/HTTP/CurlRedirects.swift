import FixcastCore

/// One GET with its redirects followed by hand: libcurl's own following (`CURLOPT_FOLLOWLOCATION`)
/// can limit protocols but not hosts, so each hop is one transfer and its `CURLINFO_REDIRECT_URL`
/// (the `Location` resolved against the request, as libcurl would follow it) is judged by
/// `RedirectRule` before anything is sent there. Each hop's errors name that hop's host, and the hops
/// share the one total timeout.
enum CurlRedirects {
    static func perform(
        _ request: HTTPRequest, checked: HTTPURLCheck.Checked, limits: CurlHTTPClient.Limits, userAgent: String,
        cancellation: TransferCancellation
    ) -> Result<HTTPResponse, HTTPError> {
        var hopRequest = request
        var hopChecked = checked
        var redirects = 0
        var hopLimits = limits
        let clock = ContinuousClock()
        let start = clock.now
        while true {
            let hop: CurlTransfer.Hop
            switch CurlTransfer.perform(
                hopRequest, checked: hopChecked, limits: hopLimits, userAgent: userAgent, cancellation: cancellation)
            {
            case .failure(let error): return .failure(error)
            case .success(let h): hop = h
            }
            guard (300...399).contains(hop.response.status), let next = hop.redirectURL else {
                return .success(hop.response)
            }
            let refused = HTTPError.redirectRefused(
                from: RedirectRule.shown(hopRequest.url), to: RedirectRule.shown(next))
            guard let nextChecked = try? HTTPURLCheck.check(next), RedirectRule.allows(from: checked, to: nextChecked)
            else {
                return .failure(refused)
            }
            guard redirects < limits.maxRedirects else {
                return .failure(.tooManyRedirects(limit: limits.maxRedirects))
            }
            let elapsed = start.duration(to: clock.now)
            let spentS = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            guard spentS < limits.totalTimeoutS else {
                return .failure(
                    .timedOut(host: nextChecked.authority, seconds: max(1, Int(limits.totalTimeoutS.rounded(.up)))))
            }
            hopLimits.totalTimeoutS = limits.totalTimeoutS - spentS
            redirects += 1
            hopRequest.url = next
            hopChecked = nextChecked
        }
    }
}
