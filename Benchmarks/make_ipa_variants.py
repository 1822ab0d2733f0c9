#!/usr/bin/env python3
"""Writes COUNT small, distinct .ipa files for the batch benchmark: each an app with a real
Mach-O executable and an embedded framework (committed test fixtures), its own bundle
identifier and version, and a mix of permissions, ATS settings and privacy manifests, so
every file has different bytes and the store gets varied rows.

Usage: make_ipa_variants.py OUT_FOLDER COUNT [--seed S]
"""
import argparse, os, random, zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "Tests", "Fixtures", "MachO")

def plist(body):
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n'
            + body + '\n</dict>\n</plist>\n').encode()

PERMISSIONS = [
    ("NSCameraUsageDescription", "Scan the code on your ticket."),
    ("NSLocationWhenInUseUsageDescription", "Show the stops near you."),
    ("NSMicrophoneUsageDescription", "Record a voice note for your order."),
    ("NSPhotoLibraryUsageDescription", "Attach a photo to your report."),
    ("NSContactsUsageDescription", "Invite a friend from your contacts."),
]

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("count", type=int)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    app = open(os.path.join(FIXTURES, "App"), "rb").read()
    kit = open(os.path.join(FIXTURES, "MyKit.framework", "MyKit"), "rb").read()
    os.makedirs(a.out, exist_ok=True)
    for i in range(a.count):
        body = (f"<key>CFBundleIdentifier</key><string>com.example.fleet{i}</string>"
                f"<key>CFBundleExecutable</key><string>Demo</string>"
                f"<key>CFBundleShortVersionString</key><string>{1 + i % 7}.{i % 10}</string>"
                f"<key>CFBundleVersion</key><string>{i}</string>"
                f"<key>MinimumOSVersion</key><string>{13 + i % 5}.0</string>")
        for key, text in rng.sample(PERMISSIONS, rng.randint(0, 3)):
            body += f"<key>{key}</key><string>{text}</string>"
        if i % 4 == 0:
            body += "<key>NSAppTransportSecurity</key><dict><key>NSAllowsArbitraryLoads</key><true/></dict>"
        elif i % 4 == 1:
            body += ("<key>NSAppTransportSecurity</key><dict><key>NSExceptionDomains</key><dict><key>legacy.example.com</key>"
                     "<dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict></dict></dict>")
        path = os.path.join(a.out, f"App{i:05d}.ipa")
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("Payload/Demo.app/Info.plist", plist(body))
            z.writestr("Payload/Demo.app/Demo", app)
            z.writestr("Payload/Demo.app/en.lproj/Localizable.strings", f'"hello" = "Hello {i}";\n')
            if i % 2 == 0:
                z.writestr("Payload/Demo.app/PrivacyInfo.xcprivacy", plist(
                    "<key>NSPrivacyTracking</key>" + ("<true/><key>NSPrivacyTrackingDomains</key><array><string>ads.example.net</string></array>"
                                                       if i % 6 == 0 else "<false/>")))
            if i % 3 == 0:
                z.writestr("Payload/Demo.app/Frameworks/MyKit.framework/Info.plist", plist(
                    "<key>CFBundleIdentifier</key><string>com.example.mykit</string><key>CFBundleExecutable</key><string>MyKit</string>"
                    f"<key>CFBundleShortVersionString</key><string>2.{i % 4}</string>"))
                z.writestr("Payload/Demo.app/Frameworks/MyKit.framework/MyKit", kit)

if __name__ == "__main__":
    main()
