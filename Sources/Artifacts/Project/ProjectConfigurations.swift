import Foundation
import Formats

/// The build configurations of the project or a target, and which one is read.
extension ProjectLoading {
    struct ConfigurationList {
        var configurations: [(name: String, id: String)] = []
        var defaultName: String?
        var names: [String] { configurations.map(\.name) }
        func id(_ name: String) -> String? { configurations.first { $0.name == name }?.id }
    }

    func configurationList(of owner: String, bundle: String?) -> ConfigurationList {
        var list = ConfigurationList()
        guard let listID = graph.string(owner, "buildConfigurationList") else { return list }
        guard graph.isa(listID) == "XCConfigurationList" else {
            problems.append(graph.malformed("buildConfigurationList \(listID) is not an XCConfigurationList in 'objects'",
                                            at: owner, key: "buildConfigurationList", bundle: bundle))
            return list
        }
        list.defaultName = graph.string(listID, "defaultConfigurationName")
        for id in graph.ids(listID, "buildConfigurations") {
            guard graph.isa(id) == "XCBuildConfiguration", let name = graph.string(id, "name") else {
                problems.append(graph.malformed("build configuration \(id) is missing or not an XCBuildConfiguration with a name",
                                                at: listID, key: "buildConfigurations", bundle: bundle))
                continue
            }
            list.configurations.append((name, id))
        }
        return list
    }

    static func choose(_ requested: String?, in list: ConfigurationList) -> String? {
        if let requested, list.id(requested) != nil { return requested }
        if list.id("Release") != nil { return "Release" }
        if let d = list.defaultName, list.id(d) != nil { return d }
        return list.configurations.first?.name
    }
}
