import FixcastCore
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

@Test func httpErrorReasonsNameTheHost() {
    #expect(HTTPError.connectionRefused(host: "127.0.0.1:9").reason.contains("127.0.0.1:9"))
}
