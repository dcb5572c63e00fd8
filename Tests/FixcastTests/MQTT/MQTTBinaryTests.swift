import Foundation
import Testing

@testable import FixcastTestSupport

/// The built `fixcast` against a real mosquitto: `mqtt test`, the outbox across kill -9, `status`.
@Suite(.serialized, .scratch)
struct MQTTBinaryTests {
    static func env(port: UInt16, device: String, _ more: [String: String] = [:]) -> [String: String] {
        var e = [
            "FIXCAST_MQTT_ENABLED": "true", "FIXCAST_MQTT_HOST": "127.0.0.1", "FIXCAST_MQTT_PORT": String(port),
            "FIXCAST_MQTT_DEVICE_ID": device,
        ]
        e.merge(more) { _, new in new }
        return e
    }

    /// Stop 38's finding: `mqtt test` left a retained `online` after a `run` had stopped, so Home
    /// Assistant showed the device available with nothing running. It now puts back what was kept, and
    /// leaves a running `run`'s `online` alone.
    @Test func mqttTestLeavesTheAvailabilityTopicAsItFoundIt() async throws {
        let home = TestPaths.temporaryDirectory()
        let broker = try MosquittoBroker()
        let topic = "fixcast/probe2/availability"
        func keep(_ payload: String) throws {
            _ = try MosquittoBroker.runTool(
                "/usr/bin/mosquitto_pub",
                [
                    "-h", "127.0.0.1", "-p", String(broker.port), "-q", "1", "-r", "-t", topic,
                    "-m", payload,
                ])
        }
        func kept() async throws -> [String] {
            let late = try TopicRecorder(broker: broker, topics: [topic])
            defer { late.stop() }
            await late.wait(timeout: 2) { !$0.payloads(on: topic).isEmpty }
            return late.payloads(on: topic)
        }
        // A run that stopped left its "offline".
        try keep("offline")
        let stopped = try CLIRunner.run(
            ["mqtt", "test"], env: Self.env(port: broker.port, device: "probe2"), home: home)
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(stopped.stdout.contains("then put back \"offline\" as it was"), "\(stopped.stdout)")
        #expect(try await kept() == ["offline"])
        // A running one keeps "online": the test leaves it.
        try keep("online")
        let running = try CLIRunner.run(
            ["mqtt", "test"], env: Self.env(port: broker.port, device: "probe2"), home: home)
        #expect(running.status == 0, "\(running.stderr)")
        #expect(running.stdout.contains("a running fixcast had it \"online\" already"), "\(running.stdout)")
        #expect(try await kept() == ["online"])
        #expect(running.stdout.split(separator: "\n").count == 1)
    }

    /// A broker that lets fixcast write its topics but not read them (a common ACL: `topic write
    /// fixcast/#`): mosquitto grants the subscription and withholds the retained `online` of the `run`
    /// that is running. The test took that for "nothing kept" and cleared the topic, so Home
    /// Assistant showed the running service unavailable after its next restart. Its own `online` does
    /// not come back either, so it knows it cannot read, and leaves `online`.
    @Test func mqttTestCannotClearWhatItCannotRead() async throws {
        let home = TestPaths.temporaryDirectory()
        let admin = (user: "admin", password: "test-only-pw")
        let broker = try MosquittoBroker(
            credentials: admin, acl: "topic write fixcast/#\n\nuser admin\ntopic readwrite #\n")
        let topic = "fixcast/probe3/availability"
        // The running service's retained "online" (written as admin, who may read it back).
        _ = try MosquittoBroker.runTool(
            "/usr/bin/mosquitto_pub",
            [
                "-h", "127.0.0.1", "-p", String(broker.port), "-q", "1", "-r", "-t", topic, "-m", "online",
                "-u", admin.user, "-P", admin.password,
            ])
        let result = try CLIRunner.run(
            ["mqtt", "test"], env: Self.env(port: broker.port, device: "probe3"), home: home)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("could not be read, so \"online\" stays"), "\(result.stdout)")
        let late = try TopicRecorder(broker: broker, topics: [topic], user: admin.user, password: admin.password)
        defer { late.stop() }
        await late.wait(timeout: 2) { !$0.payloads(on: topic).isEmpty }
        #expect(late.payloads(on: topic) == ["online"], "the running service's online is still kept")
    }

    @Test func mqttTestSaysWhatWorkedOrWhichStepFailed() async throws {
        let home = TestPaths.temporaryDirectory()
        let broker = try MosquittoBroker()
        let recorder = try TopicRecorder(broker: broker, topics: ["fixcast/#"])
        let ok = try CLIRunner.run(["mqtt", "test"], env: Self.env(port: broker.port, device: "probe1"), home: home)
        #expect(ok.status == 0)
        #expect(ok.stdout.hasPrefix("mqtt: connected to 127.0.0.1:\(broker.port)"))
        #expect(ok.stdout.contains("fixcast/probe1/availability"))
        // Nothing was kept there before: the test's "online" is cleared again (an empty retained message).
        #expect(ok.stdout.contains("cleared it again"), "\(ok.stdout)")
        await recorder.wait(timeout: 5) { $0.payloads(on: "fixcast/probe1/availability") == ["online", ""] }
        #expect(recorder.payloads(on: "fixcast/probe1/availability") == ["online", ""])
        recorder.stop()
        let late = try TopicRecorder(broker: broker, topics: ["fixcast/probe1/availability"])
        #expect(late.payloads(on: "fixcast/probe1/availability").isEmpty, "nothing retained is left behind")
        late.stop()

        let nothing = freeLoopbackPort()
        let down = try CLIRunner.run(["mqtt", "test"], env: Self.env(port: nothing, device: "probe1"), home: home)
        #expect(down.status == 1)
        #expect(down.stderr.hasPrefix("mqtt: nothing accepts connections at 127.0.0.1:\(nothing)"))
        #expect(down.stderr.split(separator: "\n").count == 1)

        // A host that drops the SYN (switched off, a firewall): the blocking connect waited out the
        // kernel's retries, about two minutes, before the test's own 10 s began.
        let blackhole = try UnansweredPort()
        let started = Date()
        let silent = try CLIRunner.run(
            ["mqtt", "test"], env: Self.env(port: blackhole.port, device: "probe1"), home: home, timeout: 120)
        let took = Date().timeIntervalSince(started)
        #expect(silent.status == 1, "\(silent.stderr)")
        #expect(took < 20, "took \(took) s: \(silent.stderr)")
        #expect(
            silent.stderr.hasPrefix("mqtt: nothing accepts connections at 127.0.0.1:\(blackhole.port)"),
            "\(silent.stderr)")
        #expect(silent.stderr.split(separator: "\n").count == 1, "\(silent.stderr)")

        let dns = try CLIRunner.run(
            ["mqtt", "test"],
            env: Self.env(port: broker.port, device: "probe1", ["FIXCAST_MQTT_HOST": "no-such-host.invalid"]),
            home: home)
        #expect(dns.status == 1)
        #expect(dns.stderr.hasPrefix("mqtt: the broker's host name"))

        let usage = try CLIRunner.run(["mqtt", "frobnicate"], home: home)
        #expect(usage.status == 2)
    }

    /// With no broker, `run` said "(Connection refused)" and `status` then "(The client is not currently
    /// connected)": the retry's bare library code replaced the first, telling cause in what status reads.
    @Test func statusGivesTheCauseRunGave() throws {
        let home = TestPaths.temporaryDirectory()
        let port = freeLoopbackPort()
        let db = home.appendingPathComponent("cause.sqlite").path
        let env = Self.env(port: port, device: "cause1")
        let agent = try RunningFixcast(
            ["run", "--at", "52.52,13.405", "--offline", "--json", "--db", db], env: env, home: home)
        #expect(agent.waitForLines(1, seconds: 30), "\(agent.stderr)")
        Thread.sleep(forTimeInterval: 3)  // a retry or two of the connection
        let status = try CLIRunner.run(["status", "--db", db, "--gpsd", "127.0.0.1:1"], env: env, home: home)
        agent.signal(SIGTERM)
        _ = agent.waitForExit()
        #expect(agent.stderr.contains("Connection refused"), "\(agent.stderr)")
        let line = status.stdout.split(separator: "\n").first { $0.hasPrefix("mqtt") }.map(String.init) ?? ""
        #expect(line.contains("Connection refused"), "\(line)")
        #expect(!line.contains("not currently connected"), "\(line)")
    }

    @Test func mqttTestOverTLSWithALogin() throws {
        let home = TestPaths.temporaryDirectory()
        let secret = "tls-pw-\(UUID().uuidString.prefix(8))"
        let broker = try MosquittoBroker(credentials: ("fleet", secret), tls: true)
        let ca = try #require(broker.caFile)
        let base = Self.env(
            port: broker.port, device: "tls1", ["FIXCAST_MQTT_TLS": "true", "FIXCAST_MQTT_USERNAME": "fleet"])

        var good = base
        good["FIXCAST_MQTT_CA_FILE"] = ca
        good["FIXCAST_MQTT_PASSWORD"] = secret
        let ok = try CLIRunner.run(["mqtt", "test"], env: good, home: home)
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stdout.contains("over TLS as fleet"))

        var wrong = good
        wrong["FIXCAST_MQTT_PASSWORD"] = "not-\(secret)"
        let refused = try CLIRunner.run(["mqtt", "test"], env: wrong, home: home)
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("mqtt: the broker at 127.0.0.1:\(broker.port) refused the login"))
        #expect(!refused.stderr.contains("mqtt.username is empty"))
        // A password without a user name is never sent (MQTT's CONNECT carries it only after one): the
        // refusal says so, or the person would look at the password.
        var noUser = good
        noUser["FIXCAST_MQTT_USERNAME"] = ""
        let anonymous = try CLIRunner.run(["mqtt", "test"], env: noUser, home: home)
        #expect(anonymous.status == 1)
        #expect(anonymous.stderr.contains("mqtt.username is empty, so no login"), "\(anonymous.stderr)")
        #expect(!anonymous.stderr.contains(secret))

        // The system CAs do not know the test CA: the handshake fails, and says so.
        var untrusted = good
        untrusted["FIXCAST_MQTT_CA_FILE"] = ""
        let tls = try CLIRunner.run(["mqtt", "test"], env: untrusted, home: home)
        #expect(tls.status == 1)
        #expect(tls.stderr.hasPrefix("mqtt: the TLS handshake with 127.0.0.1:\(broker.port) failed"), "\(tls.stderr)")

        for r in [ok, refused, tls] {
            #expect(!r.stdout.contains(secret) && !r.stderr.contains(secret))
        }
    }

    /// Readings made while the broker is down wait in the store; a run killed with -9 loses none;
    /// the next run delivers them all, in order, each once by id.
    @Test func readingsWaitThroughKill9AndTheNextRunDeliversThem() async throws {
        let home = TestPaths.temporaryDirectory()
        let secret = "pw-\(UUID().uuidString.prefix(8))"
        let db = home.appendingPathComponent("f.sqlite").path
        let port = freeLoopbackPort()
        let env = Self.env(port: port, device: "van9", ["FIXCAST_MQTT_PASSWORD": secret])
        var ids: [String] = []
        for _ in 0..<3 {
            let r = try CLIRunner.run(
                ["now", "--at", "52.52,13.405", "--offline", "--json", "--db", db], env: env, home: home)
            let obj = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
            ids.append(try #require(obj?["id"] as? String))
            #expect(!r.stdout.contains(secret) && !r.stderr.contains(secret))
        }
        #expect(ids == ["van9:1", "van9:2", "van9:3"])

        // A run with the broker still down, killed with -9 after its first reading.
        let killed = try RunningFixcast(
            ["run", "--at", "52.52,13.405", "--offline", "--json", "--db", db], env: env, home: home)
        #expect(killed.waitForLines(1, seconds: 30))
        killed.signal(SIGKILL)
        _ = killed.waitForExit()
        let obj =
            try JSONSerialization.jsonObject(with: Data((killed.stdoutLines.first ?? "{}").utf8)) as? [String: Any]
        ids.append(try #require(obj?["id"] as? String))

        let status = try CLIRunner.run(["status", "--json", "--db", db, "--gpsd", "127.0.0.1:1"], env: env, home: home)
        let mqtt =
            (try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])?["mqtt"]
            as? [String: Any]
        #expect(mqtt?["outbox"] as? Int == 4)
        #expect(mqtt?["enabled"] as? Bool == true)
        #expect(mqtt?["connected"] as? Bool == false)
        #expect(mqtt?["broker"] as? String == "127.0.0.1:\(port)")

        // The broker comes up on that port; the next run sends what waited, then its own reading.
        let broker = try MosquittoBroker(port: port)
        let recorder = try TopicRecorder(broker: broker, topics: ["fixcast/#"])
        let next = try RunningFixcast(
            ["run", "--at", "52.52,13.405", "--offline", "--json", "--db", db], env: env, home: home)
        #expect(next.waitForLines(1, seconds: 30))
        let own =
            (try JSONSerialization.jsonObject(with: Data((next.stdoutLines.first ?? "{}").utf8)) as? [String: Any])?[
                "id"] as? String
        ids.append(try #require(own))
        await recorder.wait(timeout: 20) { readingIDs($0.payloads(on: "fixcast/van9/reading")) == ids }
        #expect(readingIDs(recorder.payloads(on: "fixcast/van9/reading")) == ids)
        next.signal(SIGINT)
        #expect(next.waitForExit() == 0)
        await recorder.wait(timeout: 5) { $0.payloads(on: "fixcast/van9/availability").last == "offline" }
        #expect(recorder.payloads(on: "fixcast/van9/availability").last == "offline")
        recorder.stop()

        let after = try CLIRunner.run(["status", "--db", db, "--gpsd", "127.0.0.1:1"], env: env, home: home)
        #expect(
            after.stdout.contains("mqtt      127.0.0.1:\(port): not connected, 0 readings waiting"), "\(after.stdout)")
        // The password is in no output and nowhere in the store's files.
        for path in [db, db + "-wal"] {
            if let data = FileManager.default.contents(atPath: path) {
                #expect(!String(decoding: data, as: UTF8.self).contains(secret))
            }
        }
        #expect(!next.stderr.contains(secret) && !after.stdout.contains(secret))
    }
}

extension MQTTBinaryTests {
    /// A replayed drive (gpsfake): every reading `run --json` prints arrives on `.../reading` by its id.
    @Test func aReplayedDriveArrivesReadingByReading() async throws {
        let home = TestPaths.temporaryDirectory()
        let broker = try MosquittoBroker()
        let recorder = try TopicRecorder(broker: broker, topics: ["fixcast/#"])
        let fake = try GPSFake(log: TestPaths.fixture("gpsd/bu303-moving.log"))
        defer { fake.stop() }
        // Offline place names and no weather: this is about the readings reaching the broker.
        let env = Self.env(port: broker.port, device: "drive")
        let run = try RunningFixcast(
            [
                "run", "--json", "--offline", "--gpsd", "127.0.0.1:\(fake.port)", "--db",
                home.appendingPathComponent("f.sqlite").path,
            ],
            env: env, home: home)
        // The first fix makes a reading; SIGUSR1 (a manual refresh) makes two more mid-drive.
        #expect(run.waitForLines(1, seconds: 60), "stderr: \(run.stderr)")
        run.signal(SIGUSR1)
        #expect(run.waitForLines(2, seconds: 30), "stderr: \(run.stderr)")
        // Past the join window: a request within 2 s of a forced reading's start is that reading.
        try await Task.sleep(for: .milliseconds(2200))
        run.signal(SIGUSR1)
        #expect(run.waitForLines(3, seconds: 30), "stderr: \(run.stderr)")
        run.signal(SIGINT)
        _ = run.waitForExit()
        let printed = run.stdoutLines.compactMap { line -> String? in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String
        }
        #expect(printed.count >= 3)
        await recorder.wait(timeout: 15) {
            Set(readingIDs($0.payloads(on: "fixcast/drive/reading"))).isSuperset(of: printed)
        }
        let arrived = readingIDs(recorder.payloads(on: "fixcast/drive/reading"))
        #expect(Set(arrived).isSuperset(of: printed), "printed \(printed), arrived \(arrived)")
        #expect(arrived == arrived.sorted { Int($0.split(separator: ":")[1])! < Int($1.split(separator: ":")[1])! })
        recorder.stop()
    }
}

extension MQTTBinaryTests {
    /// The TLS broker goes away and a plain MQTT listener answers on its port: every TLS handshake
    /// fails. libmosquitto's own network thread ends at the first such failure (it takes TLS errors as
    /// fatal) and nothing would ever retry; fixcast's keeps trying with its back-off, says what fails
    /// (once), and delivers the waiting reading when the TLS broker is back.
    @Test func aFailedTLSHandshakeIsRetriedUntilTheBrokerIsBack() throws {
        let home = TestPaths.temporaryDirectory()
        let db = home.appendingPathComponent("f.sqlite").path
        let tlsBroker = try MosquittoBroker(tls: true)
        let ca = try #require(tlsBroker.caFile)
        let port = tlsBroker.port
        tlsBroker.stop()
        let plain = try MosquittoBroker(port: port)
        let env = Self.env(port: port, device: "tls2", ["FIXCAST_MQTT_TLS": "true", "FIXCAST_MQTT_CA_FILE": ca])
        let run = try RunningFixcast(
            ["run", "--at", "52.52,13.405", "--offline", "--json", "--db", db], env: env, home: home)
        #expect(run.waitForLines(1, seconds: 30), "stderr: \(run.stderr)")

        func mqttStatus() -> [String: Any]? {
            guard
                let r = try? CLIRunner.run(
                    ["status", "--json", "--db", db, "--gpsd", "127.0.0.1:1"], env: env, home: home)
            else { return nil }
            return (try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["mqtt"]
                as? [String: Any]
        }
        // A few handshakes fail against the plain listener (the first at once, then after 1 s and 2 s).
        Thread.sleep(forTimeInterval: 3.5)
        #expect(mqttStatus()?["connected"] as? Bool == false)
        #expect(mqttStatus()?["outbox"] as? Int == 1)

        plain.stop()
        try tlsBroker.start()
        let deadline = Date().addingTimeInterval(45)
        var delivered = false
        while Date() < deadline, !delivered {
            let s = mqttStatus()
            delivered = s?["connected"] as? Bool == true && s?["outbox"] as? Int == 0
            if !delivered { Thread.sleep(forTimeInterval: 0.5) }
        }
        #expect(delivered, "the reading never left the outbox after the TLS broker came back")
        run.signal(SIGINT)
        #expect(run.waitForExit() == 0)
        let said = run.stderr.components(separatedBy: "mqtt: the TLS handshake with 127.0.0.1:\(port) failed").count - 1
        #expect(said == 1, "stderr: \(run.stderr)")
        tlsBroker.stop()
    }
}
