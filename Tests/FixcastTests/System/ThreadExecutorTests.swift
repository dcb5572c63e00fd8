import FixcastAdapters
import Foundation
import Synchronization
import Testing

@testable import FixcastTestSupport

/// `ThreadExecutor`: the SQLite actor's serial executor, and `ThreadExecutor.tasks`, the executor every
/// fixcast task prefers so that nothing runs on Swift's global executor (whose libdispatch pool wakes
/// every second once used). Checked against the real threads: names from /proc/thread-self/comm.
@Suite(.scratch) struct ThreadExecutorTests {
    /// The name Linux keeps for the calling thread.
    static func threadName() -> String {
        ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func tasksThatPreferItRunOnItsThreadAndSoDoTheirChildren() async {
        let names = await Task(executorPreference: ThreadExecutor.tasks) { () async -> [String] in
            async let child = Self.threadName()
            let grouped = await withTaskGroup(of: String.self) { group in
                group.addTask { Self.threadName() }
                return await group.next() ?? ""
            }
            return [Self.threadName(), await child, grouped]
        }.value
        #expect(names == ["fixcast-tasks", "fixcast-tasks", "fixcast-tasks"])
    }

    @Test func defaultActorsCalledFromSuchATaskRunThereToo() async {
        actor Counter {
            var threadSeen: String = ""
            func touch() { threadSeen = ThreadExecutorTests.threadName() }
        }
        let counter = Counter()
        await Task(executorPreference: ThreadExecutor.tasks) { await counter.touch() }.value
        #expect(await counter.threadSeen == "fixcast-tasks")
    }

    /// The `.scratch` trait's promise (TestScratch.swift): a test body that awaited an actor while
    /// `fixcast-tasks` was running it goes on off that thread, so a blocking wait in the test cannot
    /// hold up the fixcast tasks it waits for (stop 39's CI failure in ReadingPublisherTests).
    @Test func aTestBodyDoesNotGoOnOnTheTasksThread() async {
        actor Busy {
            func hold() { usleep(300_000) }
            func quick() -> Int { 1 }
        }
        let busy = Busy()
        let holding = Task(executorPreference: ThreadExecutor.tasks) { await busy.hold() }
        usleep(50_000)  // `hold` is running on fixcast-tasks now; `quick` queues behind it, on that thread
        #expect(await busy.quick() == 1)
        #expect(Self.threadName() != "fixcast-tasks")
        await holding.value
    }

    @Test func sleepWaitsAtLeastItsTime() async {
        let start = ContinuousClock.now
        await Task(executorPreference: ThreadExecutor.tasks) { await ThreadExecutor.tasks.sleep(seconds: 0.05) }.value
        #expect(ContinuousClock.now - start >= .milliseconds(50))
    }

    @Test(.timeLimit(.minutes(1))) func cancellingASleepEndsItAtOnce() async {
        let start = ContinuousClock.now
        let sleeper = Task(executorPreference: ThreadExecutor.tasks) { await ThreadExecutor.tasks.sleep(seconds: 600) }
        try? await Task.sleep(for: .milliseconds(20))
        sleeper.cancel()
        await sleeper.value
        #expect(ContinuousClock.now - start < .seconds(30))
    }

    @Test func aSleepAlreadyCancelledDoesNotWait() async {
        let start = ContinuousClock.now
        let sleeper = Task(executorPreference: ThreadExecutor.tasks) {
            withUnsafeCurrentTask { $0?.cancel() }
            await ThreadExecutor.tasks.sleep(seconds: 600)
        }
        await sleeper.value
        #expect(ContinuousClock.now - start < .seconds(30))
    }

    @Test func timersFireInTheOrderTheyAreDueOnTheExecutorsThread() async {
        let fired = Mutex<[String]>([])
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let executor = ThreadExecutor(name: "fixcast-test-t", role: .tasks)
            executor.after(seconds: 0.06) {
                fired.withLock { $0.append("late on \(Self.threadName())") }
                done.resume()
            }
            executor.after(seconds: 0.02) { fired.withLock { $0.append("early") } }
            executor.execute { fired.withLock { $0.append("now") } }
        }
        #expect(fired.withLock { $0 } == ["now", "early", "late on fixcast-test-t"])
    }

    @Test func runBlockingReturnsTheTasksValue() {
        let value = ThreadExecutor.tasks.runBlocking { () async -> String in
            await ThreadExecutor.tasks.sleep(seconds: 0.01)
            return "done on \(Self.threadName())"
        }
        #expect(value == "done on fixcast-tasks")
    }

    /// The point of it all, through the binary: after a reading (an HTTP request, the store, the
    /// services' tasks) `fixcast run` has none of libdispatch's pool threads ("com.apple.root.…-qos…")
    /// and none of the epoll and timerfd descriptors of its manager thread, whose timer would wake the
    /// process every second for as long as it runs (bench/README.md, issue 10).
    @Test func runNeverStartsLibdispatchsWorkerPool() async throws {
        let home = TestPaths.temporaryDirectory("agent-threads")
        let server = try FixtureServer(routes: [
            "/v1/forecast": [.file(TestPaths.fixture("api/open-meteo-forecast.json"))]
        ])
        defer { server.stop() }
        let agent = try RunningFixcast(
            [
                "run", "--json", "--place", "Berlin", "--gpsd", "127.0.0.1:\(freeLoopbackPort())",
                "--db", home.appendingPathComponent("t.sqlite").path,
            ],
            env: ["FIXCAST_WEATHER_BASE_URL": server.baseURL, "FIXCAST_PLACES_PROVIDER": "offline"], home: home)
        #expect(agent.waitForLines(1, seconds: 30), "stderr: \(agent.stderr)")
        agent.signal(SIGUSR1)
        #expect(agent.waitForLines(2, seconds: 20))
        let pid = agent.process.processIdentifier
        let threads = ProcessThreads.of("\(pid)").map(\.name)
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        let kinds = fds.compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")
        }
        agent.signal(SIGTERM)
        #expect(agent.waitForExit(seconds: 20) == 0)
        #expect(threads.contains("fixcast-agent") && threads.contains("fixcast-tasks"), "threads: \(threads)")
        #expect(!threads.contains { $0.contains("qos") || $0.contains("overcommit") }, "threads: \(threads)")
        #expect(!kinds.isEmpty, "no descriptor of the agent could be read")
        #expect(!kinds.contains { $0.contains("eventpoll") || $0.contains("timerfd") }, "descriptors: \(kinds)")
    }
}
