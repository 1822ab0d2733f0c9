#!/usr/bin/env python3
"""Builds a large synthetic .ipa for benchmarks: an app, app extensions and dozens of
embedded frameworks, each with a real Mach-O (a committed test fixture) grown to a realistic
size, Info.plists, privacy manifests, localizations and asset payloads.

Usage: make_large_ipa.py OUT.ipa [--frameworks N] [--binary-mb M] [--assets-mb A] [--seed S]
Deterministic for a given seed, so the input is reproducible.
"""
import argparse, os, random, zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "Tests", "Fixtures", "MachO")

def info_plist(identifier, executable, package_type, extra=""):
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>CFBundleIdentifier</key><string>{identifier}</string>
  <key>CFBundleExecutable</key><string>{executable}</string>
  <key>CFBundlePackageType</key><string>{package_type}</string>
  <key>CFBundleShortVersionString</key><string>3.2.1</string>
  <key>CFBundleVersion</key><string>321</string>
  <key>MinimumOSVersion</key><string>15.0</string>
{extra}
</dict>
</plist>
""".encode()

MANIFEST = b"""<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict>
<key>NSPrivacyTracking</key><false/>
<key>NSPrivacyAccessedAPITypes</key><array><dict>
<key>NSPrivacyAccessedAPIType</key><string>NSPrivacyAccessedAPICategoryUserDefaults</string>
<key>NSPrivacyAccessedAPITypeReasons</key><array><string>CA92.1</string></array>
</dict></array>
</dict></plist>
"""

def fixture(name):
    for candidate in (name, "App"):
        p = os.path.join(FIXTURES, candidate)
        if os.path.isfile(p):
            return open(p, "rb").read()
    raise SystemExit(f"no Mach-O fixture in {FIXTURES}; run Tests/Fixtures/MachO/make-fixtures.sh")

def grown(base, size, rng):
    """The fixture followed by filler that compresses like real code (about 2:1)."""
    if len(base) >= size:
        return base
    n = size - len(base)
    half = n // 2
    return base + rng.randbytes(half) + bytes((i * 7) & 0x3f for i in range(n - half))

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--frameworks", type=int, default=40)
    ap.add_argument("--binary-mb", type=float, default=5.0)
    ap.add_argument("--app-binary-mb", type=float, default=60.0)
    ap.add_argument("--assets-mb", type=float, default=120.0)
    ap.add_argument("--languages", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    exe = fixture("App")
    dylib = fixture("MyKit.framework/MyKit")
    root = "Payload/Big.app/"
    with zipfile.ZipFile(a.out, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as z:
        z.writestr(root + "Info.plist", info_plist("com.example.big", "Big", "APPL",
                   "<key>NSCameraUsageDescription</key><string>Scan documents.</string>"))
        z.writestr(root + "Big", grown(exe, int(a.app_binary_mb * 1e6), rng))
        z.writestr(root + "PrivacyInfo.xcprivacy", MANIFEST)
        z.writestr(root + "embedded.mobileprovision", rng.randbytes(12000))
        for i in range(a.languages):
            z.writestr(root + f"l{i:02d}.lproj/InfoPlist.strings", b'"NSCameraUsageDescription" = "Scan documents.";\n')
            z.writestr(root + f"l{i:02d}.lproj/Localizable.strings", b"".join(b'"key%d" = "value %d";\n' % (k, k) for k in range(400)))
        # Assets are never read by Preflight but are inflated by unzip: a fair floor includes them.
        z.writestr(root + "Assets.car", rng.randbytes(int(a.assets_mb * 1e6 * 0.5)) + bytes(int(a.assets_mb * 1e6 * 0.5)))
        for ext in ("Share", "Widget", "Notifications", "Intents"):
            p = root + f"PlugIns/{ext}.appex/"
            z.writestr(p + "Info.plist", info_plist(f"com.example.big.{ext.lower()}", ext, "XPC!",
                       "<key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.share-services</string></dict>"))
            z.writestr(p + ext, grown(exe, int(a.binary_mb * 1e6), rng))
        for i in range(a.frameworks):
            name = f"Kit{i:02d}"
            p = root + f"Frameworks/{name}.framework/"
            z.writestr(p + "Info.plist", info_plist(f"com.example.{name.lower()}", name, "FMWK"))
            z.writestr(p + name, grown(dylib, int(a.binary_mb * 1e6), rng))
            z.writestr(p + "PrivacyInfo.xcprivacy", MANIFEST)
            z.writestr(p + f"{name}Resources.bundle/Info.plist", info_plist(f"com.example.{name.lower()}.res", "", "BNDL"))
            z.writestr(p + f"{name}Resources.bundle/image.png", rng.randbytes(200000))
    print(a.out, os.path.getsize(a.out), "bytes")

if __name__ == "__main__":
    main()
