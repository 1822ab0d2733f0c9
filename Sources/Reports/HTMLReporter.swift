import Foundation
import Findings

/// One self-contained HTML file (no network, no external assets) to read or forward: counts by
/// severity and by area, the findings of each bundle with where, why, evidence and fix, filters
/// by severity, rule and bundle (also from the address: `report.html#severity=error`), and the
/// bundles of each input.
public enum HTMLReporter: Reporter {
    public static let identifier = "html"
    public static let summary = "one self-contained HTML file with filters"

    public static func render(_ input: ReportInput, options: ReportOptions = ReportOptions()) -> String {
        let rules = Dictionary(input.rules.map { ($0.identifier, $0) }, uniquingKeysWith: { a, _ in a })
        let all = input.scans.flatMap(\.findings)
        var html = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Preflight report</title>
        <style>\(style)</style></head><body>
        <header><h1>Preflight report</h1><p class="tool">\(e(input.tool.name)) \(e(input.tool.version)) — \(e(input.scans.map(\.input).joined(separator: ", ")))</p></header>

        """
        // Summary: severities, then areas.
        html += "<section id=\"summary\"><div class=\"counts\">"
        for s in Severity.allCases.reversed() {
            let n = all.filter { $0.severity == s }.count
            html += "<div class=\"count \(s.rawValue)\"><span class=\"n\" id=\"count-\(s.rawValue)\">\(n)</span> \(s.rawValue)\(n == 1 ? "" : "s")</div>"
        }
        html += "</div>"
        var byArea: [String: [Severity: Int]] = [:]
        for f in all { byArea[rules[f.rule]?.area ?? "other", default: [:]][f.severity, default: 0] += 1 }
        if !byArea.isEmpty {
            html += "<table class=\"areas\"><thead><tr><th>area</th><th>errors</th><th>warnings</th><th>notes</th></tr></thead><tbody>"
            for area in byArea.keys.sorted() {
                let c = byArea[area] ?? [:]
                html += "<tr><td>\(e(area))</td><td>\(c[.error] ?? 0)</td><td>\(c[.warning] ?? 0)</td><td>\(c[.note] ?? 0)</td></tr>"
            }
            html += "</tbody></table>"
        }
        html += "</section>\n"
        // Filters.
        let ruleIDs = Set(all.map(\.rule)).sorted()
        let bundles = Set(all.map { $0.bundle ?? "" }).sorted()
        html += "<section id=\"filters\"><label>severity <select id=\"f-severity\"><option value=\"\">all</option>"
        html += Severity.allCases.reversed().map { "<option>\($0.rawValue)</option>" }.joined()
        html += "</select></label> <label>rule <select id=\"f-rule\"><option value=\"\">all</option>"
        html += ruleIDs.map { "<option>\(e($0))</option>" }.joined()
        html += "</select></label> <label>bundle <select id=\"f-bundle\"><option value=\"\">all</option>"
        html += bundles.map { "<option value=\"\(e($0))\">\(e($0.isEmpty ? "(the input)" : $0))</option>" }.joined()
        html += "</select></label> <span id=\"shown\"></span></section>\n"
        // Findings by input and bundle.
        html += "<section id=\"findings\">"
        if all.isEmpty { html += "<p class=\"none\">No findings.</p>" }
        for scan in input.scans where !scan.findings.isEmpty {
            if input.scans.count > 1 { html += "<h2>\(e(scan.input))</h2>" }
            var byBundle: [String: [Finding]] = [:]
            for f in scan.findings { byBundle[f.bundle ?? "", default: []].append(f) }
            for bundle in byBundle.keys.sorted() {
                html += "<div class=\"bundle\" data-bundle=\"\(e(bundle))\"><h3>\(e(bundle.isEmpty ? "The input as a whole" : bundle))</h3>"
                for f in byBundle[bundle] ?? [] { html += finding(f, rule: rules[f.rule]) }
                html += "</div>"
            }
        }
        html += "</section>\n"
        let suppressed = input.scans.flatMap(\.suppressed)
        if !suppressed.isEmpty {
            html += "<section id=\"suppressed\"><h2>Suppressed by the configuration</h2><ul>"
            for s in suppressed {
                html += "<li><code>\(e(s.finding.rule))</code>\(s.finding.bundle.map { " in \(e($0))" } ?? ""): \(e(s.reason))</li>"
            }
            html += "</ul></section>\n"
        }
        // What was scanned.
        html += "<section id=\"inspect\"><h2>Bundles</h2><table><thead><tr><th>bundle</th><th>kind</th><th>identifier</th><th>path</th><th>findings</th></tr></thead><tbody>"
        for scan in input.scans {
            for b in scan.bundles {
                let n = scan.findings.filter { $0.bundle == b.name || $0.alsoInBundles.contains(b.name) }.count
                html += "<tr><td>\(e(b.name))</td><td>\(e(b.kind))</td><td>\(e(b.identifier ?? "—"))</td><td><code>\(e(b.path.isEmpty ? "." : b.path))</code></td><td>\(n)</td></tr>"
            }
        }
        html += "</tbody></table></section>\n<script>\(script)</script>\n</body></html>\n"
        return html
    }

    static func finding(_ f: Finding, rule: RuleInfo?) -> String {
        var place = f.file.map { $0 + (f.line.map { ":\($0)" } ?? "") + (f.column.map { ":\($0)" } ?? "") } ?? ""
        if !f.alsoInBundles.isEmpty { place += (place.isEmpty ? "" : " · ") + "also " + f.alsoInBundles.sorted().joined(separator: ", ") }
        var out = "<article class=\"finding \(f.severity.rawValue)\" data-severity=\"\(f.severity.rawValue)\" data-rule=\"\(e(f.rule))\" data-bundle=\"\(e(f.bundle ?? ""))\">"
        out += "<div class=\"head\"><span class=\"sev\">\(f.severity.rawValue)</span> <span class=\"rule\">\(e(rule?.name ?? f.rule))</span> <code>\(e(f.rule))</code></div>"
        out += "<p class=\"msg\">\(e(f.message))</p>"
        if !place.isEmpty { out += "<p class=\"where\">\(e(place))</p>" }
        if !f.evidence.isEmpty {
            out += "<ul class=\"evidence\">" + f.evidence.map { ev -> String in
                switch ev {
                case .file(let path, let line): return "<li><code>\(e(path + (line.map { ":\($0)" } ?? "")))</code></li>"
                case .symbol(let binary, let symbol): return "<li><code>\(e(binary))</code> uses <code>\(e(symbol))</code></li>"
                }
            }.joined() + "</ul>"
        }
        if let fix = f.fix { out += "<p class=\"fix\"><strong>Fix:</strong> \(e(fix))</p>" }
        return out + "</article>"
    }

    static func e(_ text: String) -> String { MarkupEscaping.escape(text) }

    static let style = """
    body{font:14px/1.45 -apple-system,system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:0 20px 40px;color:#1d1d1f}
    h1{margin:24px 0 4px}.tool{color:#666;margin:0 0 16px}code{font:12px ui-monospace,monospace;background:#f2f2f5;padding:1px 4px;border-radius:4px}
    .counts{display:flex;gap:12px;margin:8px 0 16px}.count{padding:10px 16px;border-radius:8px;background:#f5f5f7}.count .n{font-size:22px;font-weight:600;margin-right:4px}
    .count.error{background:#fdecea}.count.warning{background:#fff6e0}.count.note{background:#eaf3fd}
    table{border-collapse:collapse;margin:8px 0 16px}th,td{border-bottom:1px solid #e5e5ea;padding:4px 10px;text-align:left}
    #filters{position:sticky;top:0;background:#fff;padding:10px 0;border-bottom:1px solid #e5e5ea}#filters label{margin-right:12px}#shown{color:#666}
    .bundle h3{margin:20px 0 8px}.finding{border-left:4px solid #aaa;padding:6px 12px;margin:8px 0;background:#fafafa;border-radius:4px}
    .finding.error{border-color:#d70015}.finding.warning{border-color:#c77c02}.finding.note{border-color:#0a64d8}
    .sev{text-transform:uppercase;font-size:11px;font-weight:700}.rule{font-weight:600}.msg{margin:4px 0}.where{color:#555;margin:2px 0;font-family:ui-monospace,monospace;font-size:12px}
    .fix{margin:4px 0}.evidence{margin:2px 0 4px;padding-left:18px}.hidden{display:none}
    """

    static let script = """
    (function(){
      var s=document.getElementById('f-severity'),r=document.getElementById('f-rule'),b=document.getElementById('f-bundle');
      var params=new URLSearchParams(location.hash.slice(1));
      [['severity',s],['rule',r],['bundle',b]].forEach(function(p){if(params.has(p[0]))p[1].value=params.get(p[0]);});
      function apply(){
        var shown=0;
        document.querySelectorAll('.finding').forEach(function(f){
          var ok=(!s.value||f.dataset.severity===s.value)&&(!r.value||f.dataset.rule===r.value)&&(!b.value||f.dataset.bundle===b.value);
          f.classList.toggle('hidden',!ok);if(ok)shown++;
        });
        document.querySelectorAll('.bundle').forEach(function(g){g.classList.toggle('hidden',!g.querySelector('.finding:not(.hidden)'));});
        document.getElementById('shown').textContent=shown+' shown';
        document.body.dataset.shown=shown;
      }
      [s,r,b].forEach(function(x){x.addEventListener('change',apply);});
      apply();
    })();
    """
}
