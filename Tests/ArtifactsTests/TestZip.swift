import Foundation
import TestSupport

/// Archives for the loader tests: TestSupport's byte-level writer (every field can lie).
typealias TestZip = ZipWriter

let minimalInfoPlist = """
<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0">
<dict>
  <key>CFBundleIdentifier</key>
  <string>com.example.demo</string>
  <key>CFBundleExecutable</key>
  <string>Demo</string>
  <key>CFBundleShortVersionString</key>
  <string>1.2</string>
  <key>CFBundleVersion</key>
  <string>42</string>
  <key>MinimumOSVersion</key>
  <string>15.0</string>
</dict>
</plist>
"""
