import Foundation
import Artifacts
import Formats

public struct UIWebViewReferenceRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "uiwebview_reference",
        name: "UIWebView referenced",
        summary: "A binary references the UIWebView class, or a compiled storyboard or nib creates one, which App Store Connect no longer accepts.",
        rationale: """
        Apple stopped accepting apps that use `UIWebView` (new apps from April 2020, updates \
        from December 2020): the upload is rejected with ITMS-90809 ("Deprecated API Usage"). \
        Apple looks for references to the class, not for the word: Preflight reports a binary \
        that imports `_OBJC_CLASS_$_UIWebView` or lists it among its Objective-C class \
        references (including a subclass's superclass). A string that merely mentions the name \
        is not reported. A compiled storyboard (`.storyboardc`) or nib that instantiates a \
        `UIWebView` is reported too (the class names of its NIBArchive or keyed archive): the \
        binary then holds no reference, UIKit creates the view from the file. Move to `WKWebView`; when the reference is in a vendor SDK, update the \
        SDK — most removed it in 2020.
        """,
        area: .binary, severity: .error, tags: ["app-store", "deprecated-api"],
        references: ["https://developer.apple.com/news/?id=12232019b", "https://developer.apple.com/documentation/webkit/wkwebview"],
        itms: ["ITMS-90809"],
        triggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>")],
                        binaryFixtures: ["Example↓": "WebView"], kind: .app, note: "The app's own code creates a UIWebView."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>"),
                         "Frameworks/Legacy.framework/Info.plist": plistXML("<key>CFBundleExecutable</key><string>Legacy</string>")],
                        binaryFixtures: ["Example": "App", "Frameworks/Legacy.framework/Legacy↓": "WebView"],
                        kind: .app, note: "An embedded SDK still references it."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>")],
                        binaryFixtures: ["Example": "App", "Base.lproj/Main.storyboardc/Web.nib↓": "../Interface/UIWebView-NIBArchive.nib"],
                        kind: .app, note: "A compiled storyboard instantiates a UIWebView (a NIBArchive)."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>")],
                        binaryFixtures: ["Example": "App", "Browser.nib↓": "../Interface/UIWebView-keyed.nib"],
                        kind: .app, note: "A nib in the keyed-archive form."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>")],
                        binaryFixtures: ["Example": "App"], kind: .app),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>"),
                         "Frameworks/MyKit.framework/Info.plist": plistXML("<key>CFBundleExecutable</key><string>MyKit</string>")],
                        binaryFixtures: ["Example": "Ads", "Frameworks/MyKit.framework/MyKit": "MyKit.framework/MyKit"],
                        kind: .app, note: "Other UIKit classes are fine."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>")],
                        binaryFixtures: ["Example": "App", "Base.lproj/Main.storyboardc/Web.nib": "../Interface/WKWebView-NIBArchive.nib",
                                         "Browser.nib": "../Interface/WKWebView-keyed.nib"],
                        kind: .app, note: "Interface files with a WKWebView."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        var seen = Set<String>()
        for b in context.product.bundles {
            for bin in b.binaries where seen.insert(bin.path).inserted {
                guard let macho = bin.macho,
                      macho.slices.contains(where: { $0.importedObjCClasses.contains("UIWebView") || $0.objcClassRefs.contains("UIWebView") }) else { continue }
                out.append(finding("\(bin.path) references UIWebView, which App Store Connect rejects (ITMS-90809)",
                                   bundle: b.name, at: FileLocation(path: bin.path),
                                   fix: "Replace UIWebView with WKWebView; if the reference is in a third-party SDK, update it.",
                                   fingerprint: ["UIWebView"]))
            }
        }
        guard Readiness.builtKinds.contains(context.product.kind), let resources = context.product.resources else { return out }
        for b in context.product.bundles {
            for interface in b.interfaceFiles {
                for nib in resources.compiledNibFiles(interface) {
                    guard case .success(let classes) = resources.nibClassNames(nib), classes.contains("UIWebView") else { continue }
                    out.append(finding("\(nib) creates a UIWebView (the interface file instantiates the class), which App Store Connect rejects (ITMS-90809)",
                                       bundle: b.name, at: FileLocation(path: nib),
                                       fix: "Replace the web view in \(PathUtil.lastComponent(interface)) with a WKWebView (WebKit View in Interface Builder) and rebuild.",
                                       fingerprint: ["UIWebView", "nib", PathUtil.lastComponent(interface)]))
                    break
                }
            }
        }
        return out
    }
}
