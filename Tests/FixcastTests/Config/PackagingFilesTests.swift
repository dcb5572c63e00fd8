import FixcastCore
import FixcastText
import Foundation
import Testing

@testable import FixcastTestSupport

/// The Debian package's own files (packaging/, scripts/package-conffile.sh): its unit keeps the
/// hardening of config/fixcast.service, and its /etc/fixcast/config.toml documents every key at its
/// default with every key commented out.
@Suite(.scratch) struct PackagingFilesTests {
    static let packagedUnit = TestPaths.repoRoot.appendingPathComponent("packaging/fixcast.service").path

    static func directives(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
            .filter { !$0.hasPrefix("#") && $0.contains("=") }
    }

    /// Every directive of the source unit is in the package's, but for the user (a system user of the
    /// package's own, so the store keeps one owner) and the binary's path.
    @Test func thePackagedUnitKeepsEveryDirectiveOfTheSourceUnit() throws {
        let source = try Self.directives(ServiceUnitTests.unitPath)
        let packaged = try Self.directives(Self.packagedUnit)
        let differing: Set<String> = [
            "DynamicUser=yes", "ExecStart=/usr/local/bin/fixcast run --json",
            // The package has the man page too.
            "Documentation=https://github.com/fixcast/fixcast",
        ]
        for line in source where !differing.contains(line) {
            #expect(packaged.contains(line), "\(line)")
        }
        for line in [
            "Documentation=man:fixcast(1) https://github.com/fixcast/fixcast", "User=fixcast", "Group=fixcast",
            "ExecStart=/usr/bin/fixcast run --json", "StateDirectory=fixcast",
        ] {
            #expect(packaged.contains(line), "\(line)")
        }
        #expect(!packaged.contains("DynamicUser=yes"))
    }

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze"),
            "systemd-analyze is not installed"))
    func systemdAnalyzeVerifyReportsNothingOnThePackagedUnit() throws {
        let dir = TestPaths.temporaryDirectory("packaged-unit")
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("fixcast.service").path
        // verify checks that ExecStart's program exists, and the package is not installed here; nor,
        // perhaps, the fixcast user: root stands in for it.
        let text = try String(contentsOfFile: Self.packagedUnit, encoding: .utf8)
            .replacingOccurrences(of: "ExecStart=/usr/bin/fixcast", with: "ExecStart=/bin/true")
            .replacingOccurrences(of: "User=fixcast", with: "User=root").replacingOccurrences(
                of: "Group=fixcast", with: "Group=root")
        try text.write(toFile: copy, atomically: true, encoding: .utf8)
        // verify also runs `man fixcast` for Documentation=man:fixcast(1): the committed page stands in
        // for the installed one.
        let man1 = dir.appendingPathComponent("man/man1")
        try FileManager.default.createDirectory(at: man1, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: TestPaths.repoRoot.appendingPathComponent("docs/fixcast.1"),
            to: man1.appendingPathComponent("fixcast.1"))
        let result = try ShellRun.run(
            "/usr/bin/systemd-analyze", ["verify", copy], env: ["MANPATH": dir.appendingPathComponent("man").path])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty && result.stderr.isEmpty, "\(result.stdout)\(result.stderr)")
    }

    /// The conffile as the package ships it: read by fixcast it sets nothing (every key commented
    /// out, so the defaults apply), and with the keys uncommented it sets every key of the schema to
    /// its default.
    /// Every bundled data file falls under its source's licence paragraph in the copyright file, not
    /// under `Files: *` (fixcast's own, "all rights reserved"): basemap.bin had fallen through a
    /// pattern written for file names it never had. DEP-5 patterns are shell globs.
    @Test func everyBundledDataFileHasItsLicenceParagraph() throws {
        let copyright = try String(
            contentsOf: TestPaths.repoRoot.appendingPathComponent("packaging/copyright"), encoding: .utf8)
        let patterns = copyright.split(separator: "\n").filter { $0.hasPrefix("Files:") }
            .flatMap { $0.dropFirst("Files:".count).split(separator: " ").map(String.init) }
            .filter { $0 != "*" }
        let share = TestPaths.repoRoot.appendingPathComponent("share/fixcast")
        let files = try FileManager.default.contentsOfDirectory(atPath: share.path).filter { $0 != "README" }
        #expect(files.contains("basemap.bin") && files.contains("places.bin") && files.contains("alert-areas.bin"))
        for file in files {
            let path = "share/fixcast/" + file
            #expect(patterns.contains { fnmatch($0, path, 0) == 0 }, "\(path) falls under Files: *")
        }
    }

    /// README's from-source command installs every library development package scripts/install-deps.sh names
    /// (the C shims include <mosquitto.h> and <libxml/...>: without libmosquitto-dev and libxml2-dev
    /// `swift build` fails), and ca-certificates, which every default HTTPS endpoint needs.
    @Test func theReadmeFromSourceCommandInstallsEveryDevelopmentPackage() throws {
        let readme = try String(contentsOf: TestPaths.repoRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let deps = try String(
            contentsOf: TestPaths.repoRoot.appendingPathComponent("scripts/install-deps.sh"), encoding: .utf8)
        let devPackages = Set(
            deps.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "(" || $0 == ")" }).map(String.init)
                .filter { $0.hasPrefix("lib") && $0.hasSuffix("-dev") })  // libraries; not dpkg-dev, a tool
        #expect(
            devPackages.isSuperset(of: [
                "libgps-dev", "libcurl4-openssl-dev", "libsqlite3-dev", "libmosquitto-dev", "libxml2-dev",
            ]))
        let heading = try #require(readme.range(of: "From source, without the package"))
        let after = readme[heading.upperBound...]
        let fence = try #require(after.range(of: "```sh\n"))
        let end = try #require(after[fence.upperBound...].range(of: "```"))
        let commands = after[fence.upperBound..<end.lowerBound].replacingOccurrences(of: "\\\n", with: " ")
        let install = try #require(commands.split(separator: "\n").first { $0.contains("apt-get install") })
        let named = Set(install.split(separator: " ").map(String.init))
        for name in devPackages.union(["ca-certificates"]) {
            #expect(named.contains(name), "README's from-source apt-get install lacks \(name)")
        }
    }

    /// The package depends on ca-certificates: libcurl4 only recommends it, and without it every HTTPS
    /// request fails (a minimal image, an install without recommends).
    @Test func thePackageDependsOnCACertificates() throws {
        let script = try String(
            contentsOf: TestPaths.repoRoot.appendingPathComponent("scripts/package-deb.sh"), encoding: .utf8)
        let depends = script.split(separator: "\n").filter { $0.hasPrefix("Depends: ") }
        #expect(depends.count == 1)
        #expect(
            depends.allSatisfy {
                $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.contains("ca-certificates")
            }, "\(depends)")
    }

    /// Purge keeps the system user (its uid is not handed out again while files it owned may remain)
    /// and removes the store config/fixcast.service's dynamic user kept in /var/lib/private/fixcast
    /// (behind the /var/lib/fixcast symlink, which is all `rm -rf /var/lib/fixcast` removes).
    @Test func purgeKeepsTheUserAndRemovesTheDynamicUsersStore() throws {
        let postrm = try String(
            contentsOf: TestPaths.repoRoot.appendingPathComponent("packaging/postrm"), encoding: .utf8)
        let commands = postrm.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.hasPrefix("#") }
        for tool in ["deluser", "userdel", "delgroup", "groupdel"] {
            #expect(!commands.contains { $0.contains(tool) }, "postrm runs \(tool)")
        }
        #expect(commands.contains { $0.hasPrefix("rm -rf ") && $0.contains(" /var/lib/private/fixcast") })
        #expect(commands.contains { $0.hasPrefix("rm -rf ") && $0.contains(" /etc/fixcast") })
    }

    /// postinst makes the service's data folder and the unit's secrets file, each only when missing,
    /// and the secrets file root's alone before anything is written to it.
    @Test func postinstMakesTheDataFolderAndTheSecretsFileOnlyWhenMissing() throws {
        let postinst = try String(
            contentsOf: TestPaths.repoRoot.appendingPathComponent("packaging/postinst"), encoding: .utf8)
        #expect(postinst.contains("if [ ! -e /var/lib/fixcast ] && [ ! -L /var/lib/fixcast ]; then"))
        #expect(postinst.contains("install -d -o fixcast -g fixcast -m 0700 /var/lib/fixcast"))
        #expect(postinst.contains("[ ! -e /etc/fixcast/secrets ] && [ ! -L /etc/fixcast/secrets ]"))
        let umask = try #require(postinst.range(of: "umask 077"))
        let write = try #require(postinst.range(of: "> /etc/fixcast/secrets"))
        #expect(umask.upperBound < write.lowerBound)
        #expect(postinst.contains("chmod 0600 /etc/fixcast/secrets"))
    }

    /// The example configuration (and so the packaged conffile) gives the system file to the service's
    /// group for a secret, not chmod 600, which would keep the service's user out (exit 2).
    @Test func theConfigFileAdvisesGroupReadableForTheSystemFile() throws {
        let text = try String(
            contentsOf: TestPaths.repoRoot.appendingPathComponent("config/fixcast.toml"), encoding: .utf8)
        #expect(text.contains("chown root:fixcast /etc/fixcast/config.toml && sudo chmod 640 /etc/fixcast/config.toml"))
        #expect(!text.contains("chmod 600 this file"))
        #expect(text.contains("/etc/fixcast/secrets"))
    }

    @Test func thePackagedConfigFileCommentsEveryKeyAtItsDefault() throws {
        let script = TestPaths.repoRoot.appendingPathComponent("scripts/package-conffile.sh").path
        let made = try ShellRun.run("/bin/bash", [script])
        #expect(made.status == 0 && made.stderr.isEmpty, "\(made.stderr)")
        let path = "/etc/fixcast/config.toml"
        let asShipped = try ConfigLoader.load(
            file: ConfigFileText(path: path, text: made.stdout, readableByOthers: true), environment: [:])
        #expect(asShipped.settings == Settings())
        #expect(try TOMLSubset.parse(made.stdout).entries.isEmpty)

        let uncommented = made.stdout.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let text = String(line)
            guard text.hasPrefix("# "), let first = text.dropFirst(2).first, first.isLowercase, text.contains(" = ")
            else {
                return text
            }
            return String(text.dropFirst(2))
        }.joined(separator: "\n")
        let loaded = try ConfigLoader.load(
            file: ConfigFileText(path: path, text: uncommented, readableByOthers: true), environment: [:])
        #expect(loaded.settings == Settings())
        let keys = Set(try TOMLSubset.parse(uncommented).entries.map { "\($0.section).\($0.key)" })
        #expect(keys == Set(ConfigSchema.keys.map { "\($0.section).\($0.name)" }))
    }
}
