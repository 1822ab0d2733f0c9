// Library users get the model, rules and findings with `import PreflightKit`.
@_exported import Artifacts
@_exported import Findings
@_exported import Formats
@_exported import Reports
@_exported import Rules
