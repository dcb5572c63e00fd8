import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// The config file adapter against real files.
@Suite(.scratch) struct ConfigFileTests {
    func write(_ text: String, to path: String, mode: Int16 = 0o600) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }

    @Test func theXDGFileIsFoundAndApplied() throws {
        let xdg = TestPaths.temporaryDirectory("xdg").path
        try write("[gps]\nport = 4000\n", to: xdg + "/fixcast/config.toml")
        let loaded = try ConfigFile.load(
            explicitPath: nil, environment: ["XDG_CONFIG_HOME": xdg, "FIXCAST_GPS_HOST": "10.0.0.2"])
        #expect(loaded.filePath == xdg + "/fixcast/config.toml")
        #expect(loaded.settings.gps.port == 4000)
        #expect(loaded.settings.gps.host == "10.0.0.2")
    }

    @Test func fixcastConfigWinsOverXDGAndExplicitWinsOverBoth() throws {
        let dir = TestPaths.temporaryDirectory("lookup").path
        try write("[gps]\nport = 1\n", to: dir + "/xdg/fixcast/config.toml")
        try write("[gps]\nport = 2\n", to: dir + "/env.toml")
        try write("[gps]\nport = 3\n", to: dir + "/explicit.toml")
        let env = ["XDG_CONFIG_HOME": dir + "/xdg", "FIXCAST_CONFIG": dir + "/env.toml"]
        #expect(try ConfigFile.load(explicitPath: nil, environment: env).settings.gps.port == 2)
        #expect(try ConfigFile.load(explicitPath: dir + "/explicit.toml", environment: env).settings.gps.port == 3)
    }

    @Test func aMissingNamedFileIsAnErrorNamingIt() {
        let path = TestPaths.temporaryDirectory().path + "/nope.toml"
        do {
            _ = try ConfigFile.load(explicitPath: path, environment: [:])
            Issue.record("a missing --config file was accepted")
        } catch {
            #expect(
                error
                    == .unreadable(
                        path: path, detail: "no such file",
                        hint: "check the path given by --config, or copy \(ConfigError.example) there"))
            #expect(error.message.contains(path))
        }
    }

    @Test func aFolderIsNotAConfigFile() {
        let dir = TestPaths.temporaryDirectory().path
        #expect(throws: ConfigError.self) { _ = try ConfigFile.load(explicitPath: dir, environment: [:]) }
    }

    @Test func aFolderAtTheUsualPlaceIsToBeReplacedNotPointedAt() {
        // $XDG_CONFIG_HOME is a folder by rights: the advice is about the entry inside it.
        let xdg = TestPaths.temporaryDirectory("folder-xdg").path
        try? FileManager.default.createDirectory(
            atPath: xdg + "/fixcast/config.toml", withIntermediateDirectories: true)
        do {
            _ = try ConfigFile.load(explicitPath: nil, environment: ["XDG_CONFIG_HOME": xdg])
            Issue.record("a folder was read as the config file")
        } catch {
            #expect(error.message.contains("not a regular file"), "\(error.message)")
            #expect(error.message.contains("replace it with a config file"), "\(error.message)")
            #expect(!error.message.contains("point $XDG_CONFIG_HOME at"), "\(error.message)")
        }
        // Named by --config, the path itself is what to change.
        do {
            _ = try ConfigFile.load(explicitPath: xdg, environment: [:])
            Issue.record("a folder was read as the config file")
        } catch {
            #expect(error.message.contains("point --config at a config file"), "\(error.message)")
        }
    }

    @Test func anOversizedFileIsNotCalledUnreadable() throws {
        let path = TestPaths.temporaryDirectory().path + "/big.toml"
        try write(String(repeating: "# padding\n", count: 120_000), to: path)
        do {
            _ = try ConfigFile.load(explicitPath: path, environment: [:])
            Issue.record("a 1.2 MB file was read as the config file")
        } catch {
            #expect(error.message.contains("larger than 1 MiB"), "\(error.message)")
            #expect(error.message.contains("a few kB of TOML"), "\(error.message)")
            #expect(!error.message.contains("readable"), "\(error.message)")
            #expect(!error.message.contains("pass --config"), "--config was given: \(error.message)")
        }
    }

    @Test func devNullIsAnEmptyConfigAndOtherDevicesAreRefused() throws {
        // Named by --config or $FIXCAST_CONFIG, /dev/null means the defaults, and it wins over an XDG file.
        let xdg = TestPaths.temporaryDirectory("devnull-xdg").path
        try write("[gps]\nport = 4000\n", to: xdg + "/fixcast/config.toml")
        let env = ["XDG_CONFIG_HOME": xdg, "FIXCAST_CONFIG": "/dev/null"]
        let loaded = try ConfigFile.load(explicitPath: nil, environment: env)
        #expect(loaded.filePath == "/dev/null")
        #expect(loaded.settings.gps.port == Settings().gps.port)
        #expect(try ConfigFile.load(explicitPath: "/dev/null", environment: [:]).settings == Settings())
        // Another character device is not a config file.
        do {
            _ = try ConfigFile.load(explicitPath: "/dev/zero", environment: [:])
            Issue.record("/dev/zero was read as a config file")
        } catch {
            guard case .unreadable(let path, let detail, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path == "/dev/zero")
            #expect(detail == "not a regular file")
        }
    }

    @Test func aMissingOptionalFileFallsThrough() throws {
        let xdg = TestPaths.temporaryDirectory("empty-xdg").path
        let loaded = try ConfigFile.load(explicitPath: nil, environment: ["XDG_CONFIG_HOME": xdg])
        let etcExists = FileManager.default.fileExists(atPath: "/etc/fixcast/config.toml")
        #expect(loaded.filePath == (etcExists ? "/etc/fixcast/config.toml" : nil))
    }

    @Test func aSyntaxErrorNamesTheRealFileAndLine() {
        let path = TestPaths.temporaryDirectory().path + "/bad.toml"
        do {
            try write("[gps]\nport = 2947\nhost = nowhere\n", to: path)
            _ = try ConfigFile.load(explicitPath: path, environment: [:])
            Issue.record("accepted a bad file")
        } catch let error as ConfigError {
            #expect(error.origin == .file(path: path, line: 3))
            #expect(error.message.hasPrefix("config: \(path) line 3: "))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func anAPIKeyFileReadableByOthersIsWarnedAbout() throws {
        let path = TestPaths.temporaryDirectory().path + "/key.toml"
        try write("[weather]\napi_key = \"abc\"\n", to: path, mode: 0o644)
        #expect(try ConfigFile.load(explicitPath: path, environment: [:]).warnings.count == 1)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        #expect(try ConfigFile.load(explicitPath: path, environment: [:]).warnings.isEmpty)
    }

    /// Who else can read a config file that may hold a key: the world's bit always counts; the group's
    /// only for another group than this process's, and not for a file root gave to a group
    /// (`root:fixcast 0640`, the service's config), which an administrator chose.
    @Test func readableByOthersCountsTheWorldAndAForeignGroup() {
        func others(_ mode: mode_t, owner: uid_t = 1000, group: gid_t) -> Bool {
            ConfigFile.readableByOthers(mode: mode, owner: owner, group: group, ownGroup: 100)
        }
        #expect(others(0o644, group: 100))
        #expect(others(0o604, owner: 0, group: 100))
        #expect(others(0o640, group: 200), "another group can read it")
        #expect(!others(0o640, group: 100), "this process's own group")
        #expect(!others(0o640, owner: 0, group: 200), "root gave it to a group")
        #expect(!others(0o600, group: 200))
    }
}
