import Foundation
import XCTest
@testable import Artifacts
import Formats

/// The Tuist interpreter on manifests given as `ManifestValue` trees (no Swift parser here):
/// constants that expand exponentially or chain deeply are cut at the limits and reported.
final class TuistHostileManifestTests: XCTestCase {
    struct StubReader: ManifestExpressionReader {
        let file: ManifestFile
        func read(source: String, path: String, limits: ReaderLimits) throws -> ManifestFile { file }
    }

    static let at = SourcePosition(line: 1, column: 1)
    func v(_ kind: ManifestValue.Kind) -> ManifestValue { ManifestValue(kind, position: Self.at) }
    func call(_ name: String, _ args: [(String?, ManifestValue)]) -> ManifestValue {
        v(.call(name: name, base: nil, arguments: args.map { ManifestArgument(label: $0.0, value: $0.1) }))
    }

    /// A project with one app target whose Info.plist is `.dictionary(["Key": info])`.
    func project(info: ManifestValue, extra: [ManifestFile.Binding]) -> ManifestFile {
        let target = call(".target", [("name", v(.string("App"))), ("destinations", v(.member(".iOS"))),
                                      ("product", v(.member(".app"))), ("bundleId", v(.string("com.example.app"))),
                                      ("infoPlist", call(".dictionary", [(nil, v(.dictionary([ManifestEntry(key: v(.string("Key")), value: info)])))])),
                                      ("sources", v(.array([v(.string("App/**"))])))])
        let project = call("Project", [("name", v(.string("P"))), ("targets", v(.array([target])))])
        return ManifestFile(bindings: extra + [.init(name: "project", value: project)])
    }

    func load(_ file: ManifestFile, limits: ReaderLimits = .default) throws -> Product {
        let source = MemorySource(name: "t", text: ["Project.swift": "import ProjectDescription // read by the stub", "App/A.swift": ""])
        return try ProductLoader.load(source: source, kind: .folder, limits: limits, manifestReader: StubReader(file: file)).product
    }

    func testConstantsAndPlistValues() throws {
        let file = project(info: v(.identifier("reason")), extra: [.init(name: "reason", value: v(.string("Because.")))])
        let product = try load(file)
        XCTAssertEqual(product.problems, [])
        let app = try XCTUnwrap(product.bundle(named: "App"))
        XCTAssertEqual(app.infoValue("Key")?.node.string, "Because.")
        XCTAssertEqual(app.identifier, "com.example.app")
        XCTAssertEqual(app.sourceFiles, ["App/A.swift"])
    }

    /// An Info.plist computed by a helper is unknown (an unreadable file), not an empty one.
    func testComputedInfoPlistIsUnknown() throws {
        var file = project(info: v(.string("x")), extra: [])
        guard case .call(let n, let b, var args) = file.bindings[0].value.kind,
              case .array(var targets) = args.first(where: { $0.label == "targets" })!.value.kind,
              case .call(let tn, let tb, var targetArgs) = targets[0].kind else { return XCTFail() }
        let i = targetArgs.firstIndex { $0.label == "infoPlist" }!
        targetArgs[i].value = call(".extendingDefault", [("with", call("makeInfo", []))])
        targets[0].kind = .call(name: tn, base: tb, arguments: targetArgs)
        args[args.firstIndex { $0.label == "targets" }!].value = v(.array(targets))
        file.bindings[0].value.kind = .call(name: n, base: b, arguments: args)
        let app = try XCTUnwrap(try load(file).bundle(named: "App"))
        XCTAssertNil(app.infoPlist?.root)
        XCTAssertEqual(app.infoPlist?.error?.kind, .unsupported)
        XCTAssertTrue(app.infoPlist?.error?.reason.contains("`makeInfo(…)` cannot be read statically") ?? false, "\(String(describing: app.infoPlist))")
    }

    func testExponentialConstantsStopAtTheNodeLimit() throws {
        var bindings: [ManifestFile.Binding] = [.init(name: "c0", value: v(.array(Array(repeating: v(.string("x")), count: 10))))]
        for i in 1...9 {
            bindings.append(.init(name: "c\(i)", value: v(.array(Array(repeating: v(.identifier("c\(i - 1)")), count: 10)))))
        }
        var limits = ReaderLimits()
        limits.maxPlistObjects = 10_000
        let started = Date()
        let product = try load(project(info: v(.identifier("c9")), extra: bindings), limits: limits)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
        XCTAssertTrue(product.problems.contains { "\($0.kind)".contains("constants expand to more than 10000") }, "\(product.problems.prefix(3))")
        XCTAssertLessThanOrEqual(product.problems.count, ManifestScope.maxProblems)
        XCTAssertNotNil(product.bundle(named: "App"), "the rest loads")
    }

    /// A helper whose locals double a list 60 times (`x += x`) names no constant: the values
    /// visited are charged to the limit all the same.
    func testDoublingLocalsOfAHelperStopAtTheNodeLimit() throws {
        var locals: [ManifestFile.Binding] = [.init(name: "x", value: v(.array([v(.string("App/**"))])))]
        for _ in 0..<60 { locals.append(.init(name: "x", value: v(.concatenation([v(.identifier("x")), v(.identifier("x"))])))) }
        let helper = ManifestFile.Function(name: "sources", parameters: [], locals: locals, body: v(.identifier("x")))
        var file = project(info: v(.string("x")), extra: [])
        guard case .call(let n, let b, var args) = file.bindings[0].value.kind,
              case .array(var targets) = args[1].value.kind, case .call(let tn, let tb, var targetArgs) = targets[0].kind
        else { return XCTFail() }
        targetArgs[targetArgs.count - 1] = ManifestArgument(label: "sources", value: call("sources", []))
        targets[0].kind = .call(name: tn, base: tb, arguments: targetArgs)
        args[1].value.kind = .array(targets)
        file.bindings[0].value.kind = .call(name: n, base: b, arguments: args)
        file.functions = [helper]
        var limits = ReaderLimits()
        limits.maxPlistObjects = 10_000
        let started = Date()
        let product = try load(file, limits: limits)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
        XCTAssertTrue(product.problems.contains { "\($0.kind)".contains("expand to more than 10000") }, "\(product.problems.prefix(3))")
    }

    /// A value that tests itself (`let a = a.contains(.x)`, `let b = b ? 1 : 2`) ends at the
    /// depth limit instead of recursing.
    func testSelfReferentialConditionsEnd() throws {
        let a = v(.call(name: ".contains", base: v(.identifier("a")), arguments: [ManifestArgument(label: nil, value: v(.member(".x")))]))
        let b = v(.conditional(condition: v(.identifier("b")), then: v(.string("x")), else: v(.identifier("a"))))
        let product = try load(project(info: v(.identifier("b")), extra: [.init(name: "a", value: a), .init(name: "b", value: b)]))
        XCTAssertNotNil(product.bundle(named: "App"), "the rest loads")
        XCTAssertFalse(product.problems.isEmpty, "the value is reported as not readable")
    }

    func testDeepChainsStopAtTheDepthLimit() throws {
        var bindings: [ManifestFile.Binding] = [.init(name: "d0", value: v(.string("x")))]
        for i in 1...20_000 { bindings.append(.init(name: "d\(i)", value: v(.array([v(.identifier("d\(i - 1)"))])))) }
        let product = try load(project(info: v(.identifier("d20000")), extra: bindings))
        XCTAssertTrue(product.problems.contains { "\($0.kind)".contains("nested deeper than 256 levels") }, "\(product.problems.prefix(3))")
        // Cycles of constants end too.
        let cycle = try load(project(info: v(.identifier("a")), extra: [.init(name: "a", value: v(.identifier("b"))),
                                                                        .init(name: "b", value: v(.identifier("a")))]))
        XCTAssertFalse(cycle.problems.isEmpty)
    }

    func testManyConfigurationsAndTargetsStopAtTheSettingsBudget() throws {
        let base = v(.dictionary((0..<100).map { ManifestEntry(key: v(.string("S\($0)")), value: v(.string("v"))) }))
        let configs = v(.array((0..<500).map { call(".debug", [("name", call(".configuration", [(nil, v(.string("C\($0)")))]))]) }))
        var file = project(info: v(.string("x")), extra: [])
        guard case .call(let n, let b, var args) = file.bindings[0].value.kind else { return XCTFail() }
        args.append(ManifestArgument(label: "settings", value: call(".settings", [("base", base), ("configurations", configs)])))
        file.bindings[0].value.kind = .call(name: n, base: b, arguments: args)
        var limits = ReaderLimits()
        limits.maxPlistObjects = 20_000
        let product = try ProductLoader.load(source: MemorySource(name: "t", text: ["Project.swift": "import ProjectDescription", "App/A.swift": "",
                                                                                    "App/Info.plist": "<plist><dict/></plist>"]),
                                             kind: .folder, limits: limits, manifestReader: StubReader(file: file)).product
        XCTAssertTrue(product.problems.contains { "\($0.kind)".contains("max-plist-objects") }, "\(product.problems.prefix(3))")
    }
}
