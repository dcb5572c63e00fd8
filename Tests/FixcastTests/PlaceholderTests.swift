import Testing
@testable import Fixcast

@Test func httpErrorReasonsNameTheHost() {
    #expect(HTTPError.connectionRefused(host: "127.0.0.1:9").reason.contains("127.0.0.1:9"))
}
