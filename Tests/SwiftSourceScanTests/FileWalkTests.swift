import Foundation
import XCTest
import Evidence
import SwiftParser
import SwiftSyntax
@testable import SwiftSourceScan

/// The one walk per file (`FileWalk`) shows each visitor what its own walk of the tree shows it.
final class FileWalkTests: XCTestCase {
    /// A file with every shape the shared walk treats apart: `#if` clauses (shipping and not),
    /// imports with attributes, closures, initializers, nested functions, and a fact for each visitor.
    static let source = """
    @preconcurrency import Foundation
    @_exported import Security
    import CommonCrypto
    import AVFoundation
    import os

    let appGroup = "group.com.example.app"

    struct Keys { static let aes = "0123456789abcdef" }

    final class Session {
        @AppStorage("apiToken") var storedToken = ""
        let defaults = UserDefaults(suiteName: appGroup)

        init() {
            let password = readPassword()
            UserDefaults.standard.set(password, forKey: "password")
            #if DEBUG
            NSLog("password: %@", password)
            #else
            print("signed in")
            #endif
        }

        func application(_ app: Any, didFinishLaunchingWithOptions options: [String: Any]?) -> Bool {
            try? AVAudioSession.sharedInstance().setCategory(.playAndRecord)
            let work = { (token: String) in print("token \\(token)") }
            work("t")
            return true
        }

        func encrypt(_ data: Data, key: String) {
            func inner() { _ = rand() }
            var out = [UInt8](repeating: 0, count: 64)
            var moved = 0
            _ = CCCrypt(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmDES), CCOptions(kCCOptionECBMode),
                        key, 8, nil, [UInt8](data), data.count, &out, out.count, &moved)
            inner()
        }

        func log(_ message: String) { NSLog("%@", message) }

        func readPassword() -> String { "" }
    }

    #if os(iOS)
    let query: [String: Any] = [kSecAttrAccessible as String: kSecAttrAccessibleAlways]
    #endif
    """

    func testOneWalkFindsWhatEachVisitorsOwnWalkFinds() throws {
        for context in [SourceScanContext(), SourceScanContext(platform: "iOS", swiftConditions: ["DEBUG"]),
                        SourceScanContext(platform: "macOS", swiftConditions: [])] {
            let shared = SwiftSourceScanner.scan(source: Self.source, path: "T.swift", catalog: .detection, limits: .default,
                                                 context: context)
            XCTAssertEqual(shared, separateWalks(context), "\(context)")
            XCTAssertFalse(shared.isEmpty)
        }
    }

    /// What the scanner gave before the visitors shared one walk: each visitor walking the tree on its own.
    private func separateWalks(_ context: SourceScanContext) -> [SourceUsage] {
        var text = Self.source
        let tree = text.withUTF8 { Parser.parse(source: $0, maximumNestingLevel: SwiftSourceScanner.maximumNestingLevel) }
        let lines = LineTable(text)
        let launch = LaunchRecordingVisitor(lines: lines)
        launch.walk(tree)
        let conditions = TargetConditions(platform: context.platform, conditions: context.swiftConditions)
        let usage = UsageVisitor(index: .standard, lines: lines, target: conditions)
        usage.scan(tree)
        let flow = FlowResolver(tree: tree, lines: lines)
        var facts: [SourceUsage] = []
        let security = SecurityVisitor(lines: lines, target: conditions)
        security.flow = flow
        facts += security.scan(tree)
        let logging = LoggingVisitor(lines: lines, target: conditions)
        logging.flow = flow
        facts += logging.scan(tree)
        facts += CryptoVisitor(lines: lines, target: conditions).scan(tree)
        facts += FlowVisitor(flow: flow, target: conditions).scan(tree)
        let visible = ModuleVisibility(imports: usage.imports, exported: context.exportedModules)
        return visible.filter(usage.results()) + launch.found + facts
    }
}
