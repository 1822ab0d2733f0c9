import Foundation

/// A minimal but complete `project.pbxproj` with one application target, for rule examples
/// about projects. `settings` become the target's build settings in Debug and Release;
/// `debugSettings` replace or add to them in Debug only.
public func exampleProject(target: String = "App", productType: String = "com.apple.product-type.application",
                           settings: [String: String], debugSettings: [String: String] = [:], sources: [String] = []) -> String {
    func lines(_ s: [String: String]) -> String {
        s.sorted { $0.key < $1.key }.map { "\t\t\t\t\($0.key) = \"\($0.value)\";" }.joined(separator: "\n")
    }
    let body = lines(settings)
    let debugBody = lines(settings.merging(debugSettings) { _, debug in debug })
    // Source files, relative to the project folder, compiled by the target's Sources phase.
    let ids = sources.indices.map { String(format: "%023d", $0 + 1) }
    let refs = zip(ids, sources).map { id, path in
        "\t\tF\(id) = {isa = PBXFileReference; path = \"\(path)\"; sourceTree = SOURCE_ROOT; };\n\t\tB\(id) = {isa = PBXBuildFile; fileRef = F\(id); };"
    }.joined(separator: "\n")
    let phase = sources.isEmpty ? "" : "\t\tS0000000000000000000001 = {isa = PBXSourcesBuildPhase; files = (\(ids.map { "B" + $0 }.joined(separator: ", "))); };\n"
    let phases = sources.isEmpty ? "" : "S0000000000000000000001"
    let groupChildren = ids.map { "F" + $0 }.joined(separator: ", ")
    return """
    // !$*UTF8*$!
    {
    \tarchiveVersion = 1;
    \tobjectVersion = 56;
    \tobjects = {
    \t\tP0000000000000000000001 = {isa = PBXProject; buildConfigurationList = L0000000000000000000001; mainGroup = G0000000000000000000001; targets = (T0000000000000000000001); };
    \t\tG0000000000000000000001 = {isa = PBXGroup; children = (\(groupChildren)); sourceTree = "<group>"; };
    \(refs)
    \(phase)
    \t\tL0000000000000000000001 = {isa = XCConfigurationList; buildConfigurations = (C0000000000000000000001); defaultConfigurationName = Release; };
    \t\tC0000000000000000000001 = {isa = XCBuildConfiguration; buildSettings = {}; name = Release; };
    \t\tT0000000000000000000001 = {isa = PBXNativeTarget; buildConfigurationList = L0000000000000000000002; buildPhases = (\(phases)); name = \(target); productName = \(target); productType = "\(productType)"; };
    \t\tL0000000000000000000002 = {isa = XCConfigurationList; buildConfigurations = (C0000000000000000000002, C0000000000000000000003); defaultConfigurationName = Release; };
    \t\tC0000000000000000000002 = {
    \t\t\tisa = XCBuildConfiguration;
    \t\t\tbuildSettings = {
    \(debugBody)
    \t\t\t};
    \t\t\tname = Debug;
    \t\t};
    \t\tC0000000000000000000003 = {
    \t\t\tisa = XCBuildConfiguration;
    \t\t\tbuildSettings = {
    \(body)
    \t\t\t};
    \t\t\tname = Release;
    \t\t};
    \t};
    \trootObject = P0000000000000000000001;
    }

    """
}
