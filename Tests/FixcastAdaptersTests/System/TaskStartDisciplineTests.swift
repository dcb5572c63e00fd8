import Foundation
import Testing

@testable import FixcastTestSupport

/// Every task fixcast starts prefers `ThreadExecutor.tasks` (issue 19, item 9): a bare `Task { }`,
/// `Task(…)` or `Task.detached` runs on Swift's global executor, whose first job starts libdispatch's
/// once-a-second pool monitor for the rest of the process. Nothing but a reader of the code would see
/// it, so this test reads Sources (and the bench) and fails on one: start tasks with
/// `ThreadExecutor.tasks.startTask { … }`.
@Suite struct TaskStartDisciplineTests {
    /// The line in ThreadExecutor.swift that `startTask` is built on carries this mark.
    static let allowedMark = "// task-start: the one allowed"

    /// Each place in `source` that starts a task other than through `startTask`, as "line: text".
    static func taskStarts(in source: String) -> [String] {
        var found: [String] = []
        for (number, rawLine) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if rawLine.contains(allowedMark) { continue }
            let line = Array(codeOf(rawLine).utf8)
            var i = 0
            while let at = nextTaskToken(in: line, from: i) {
                i = at + 4
                // A type (`-> Task<T, Never> {`, `var t: Task<T, Never> {`) starts nothing.
                let before = String(decoding: line[..<at], as: UTF8.self).trimmingCharacters(in: .whitespaces)
                if before.hasSuffix("->") || before.hasSuffix(":") { continue }
                var j = i
                if j < line.count, line[j] == UInt8(ascii: "<") { j = skipGenericArguments(line, from: j) }
                while j < line.count, line[j] == UInt8(ascii: " ") { j += 1 }
                let rest = String(decoding: line[j...], as: UTF8.self)
                if rest.hasPrefix("{") || rest.hasPrefix("(") || rest.hasPrefix(".detached") || rest.hasPrefix(".init")
                {
                    found.append("\(number + 1): \(rawLine.trimmingCharacters(in: .whitespaces))")
                    break
                }
            }
        }
        return found
    }

    /// A line without its `//` comment and without the contents of its string literals.
    private static func codeOf(_ line: Substring) -> String {
        var out = ""
        var inString = false
        var previous: Character = " "
        for c in line {
            if inString {
                if c == "\"" && previous != "\\" {
                    inString = false
                    out.append(c)
                }
            } else if c == "\"" {
                inString = true
                out.append(c)
            } else if c == "/" && previous == "/" {
                out.removeLast()
                break
            } else {
                out.append(c)
            }
            previous = c
        }
        return out
    }

    /// The index of the next `Task` that is a whole identifier (not `withTaskGroup`, `UnsafeCurrentTask`,
    /// `TaskExecutor`, `.Task`).
    private static func nextTaskToken(in line: [UInt8], from start: Int) -> Int? {
        let word = Array("Task".utf8)
        var i = start
        while i + word.count <= line.count {
            if Array(line[i..<(i + word.count)]) == word {
                let before = i > 0 ? line[i - 1] : UInt8(ascii: " ")
                let after = i + word.count < line.count ? line[i + word.count] : UInt8(ascii: " ")
                if !isIdentifierByte(before), before != UInt8(ascii: "."), !isIdentifierByte(after) { return i }
            }
            i += 1
        }
        return nil
    }

    private static func isIdentifierByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
    }

    /// The index just past the `<…>` that starts at `start` (nested brackets counted).
    private static func skipGenericArguments(_ line: [UInt8], from start: Int) -> Int {
        var depth = 0
        var i = start
        while i < line.count {
            if line[i] == UInt8(ascii: "<") { depth += 1 }
            if line[i] == UInt8(ascii: ">") {
                depth -= 1
                if depth == 0 { return i + 1 }
            }
            i += 1
        }
        return i
    }

    @Test func theScannerFindsEveryWayToStartATaskOffTheExecutor() {
        #expect(Self.taskStarts(in: "let t = Task { await work() }").count == 1)
        #expect(Self.taskStarts(in: "Task(priority: .low) { }").count == 1)
        #expect(Self.taskStarts(in: "let t = Task<Int, Never> { 1 }").count == 1)
        #expect(Self.taskStarts(in: "let t = Task<Result<Place?, PlaceError>, Never> {").count == 1)
        #expect(Self.taskStarts(in: "Task.detached { }").count == 1)
        #expect(Self.taskStarts(in: "Task.init { }").count == 1)
        #expect(Self.taskStarts(in: "Task(executorPreference: ThreadExecutor.tasks) {").count == 1)
    }

    @Test func theScannerLeavesTypesHelpersAndCommentsAlone() {
        let fine = """
            private var tasks: [Task<Void, Never>] = []
            public func startTask<S: Sendable>(_ operation: sending @escaping () async -> S) -> Task<S, Never> {
            var current: Task<Void, Never> { pending }
            var timer: Task<Void, Never>?
            let t = ThreadExecutor.tasks.startTask { await work() }
            try Task.checkCancellation(); if Task.isCancelled { return }
            await withTaskGroup(of: Int.self) { group in }
            public final class ThreadExecutor: SerialExecutor, TaskExecutor {
            // a Task { } in a comment
            print("Task { } in a string")
            Task(executorPreference: self, operation: operation)  \(Self.allowedMark)
            """
        #expect(Self.taskStarts(in: fine).isEmpty, "\(Self.taskStarts(in: fine))")
    }

    @Test func sourcesStartTasksOnlyThroughStartTask() throws {
        var offenders: [String] = []
        for tree in ["Sources", "bench/Sources"] {
            let root = TestPaths.repoRoot.appendingPathComponent(tree)
            let files = try #require(FileManager.default.enumerator(atPath: root.path)).compactMap { $0 as? String }
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: root.appendingPathComponent(file).path, encoding: .utf8)
                offenders += Self.taskStarts(in: text).map { "\(tree)/\(file):\($0)" }
            }
            #expect(files.contains { $0.hasSuffix(".swift") }, "no Swift files under \(tree): the scan read nothing")
        }
        #expect(
            offenders.isEmpty,
            "start tasks with ThreadExecutor.tasks.startTask { … }:\n\(offenders.joined(separator: "\n"))")
    }
}
