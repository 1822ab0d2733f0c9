import Foundation

/// Runs a program to its end and returns its status and its standard output and error together.
public enum Subprocess {
    public static func run(_ executable: URL, _ arguments: [String], in folder: URL? = nil,
                           environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        if let folder { p.currentDirectoryURL = folder }
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
