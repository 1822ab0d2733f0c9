#!/usr/bin/env python3
"""Builds a large .ipa for benchmarks: an app, app extensions and dozens of embedded
frameworks, Info.plists, privacy manifests, localizations and asset payloads.

Binaries are laid out like real ones: each is linked here by clang and ld64.lld-14 from a test
fixture's source plus a large `__TEXT,__const` payload (`.incbin`, with a global symbol every
2 KB), so its `__LINKEDIT` (symbol tables, bind info) and ad hoc code signature come at the end,
after the code, and a reader has to inflate the whole entry to reach them.
With --real-binaries WHEEL, the frameworks' executables are instead the real iOS Mach-O
dylibs of a PyPI wheel (linked by their publisher's toolchain), copied round robin.

Usage: make_large_ipa.py OUT.ipa [--frameworks N] [--binary-mb M] [--assets-mb A] [--seed S]
                         [--real-binaries pillow-…-iphoneos.whl]
Deterministic for a given seed, so the input is reproducible. Needs clang and ld64.lld-14.
"""
import argparse, os, random, subprocess, tempfile, zipfile

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

def filler(n, rng):
    """Bytes that compress like real code (about 2:1)."""
    half = n // 2
    return rng.randbytes(half) + bytes((i * 7) & 0x3f for i in range(n - half))

def linked(kind, size, rng, work):
    """An arm64 iOS executable (kind "exe", from src/app.m) or dylib ("dylib", src/mykit.c) of
    about `size` bytes, its payload before __LINKEDIT as a real linker lays it out."""
    src, stubs = os.path.join(FIXTURES, "src"), os.path.join(FIXTURES, "stubs")
    tag = f"{kind}-{size}"
    blob = os.path.join(work, tag + ".bin")
    with open(blob, "wb") as f:
        f.write(filler(size, rng))
    asm = [".section __TEXT,__const"]
    for i, off in enumerate(range(0, size, 2048)):
        asm += [f".globl _payload_{i}", f"_payload_{i}:", f'.incbin "{blob}", {off}, {min(2048, size - off)}']
    with open(os.path.join(work, tag + ".s"), "w") as f:
        f.write("\n".join(asm) + "\n")
    cc = ["clang", "-target", "arm64-apple-ios15.0", "-O1", "-fno-objc-arc", "-w", "-c"]
    subprocess.run(cc + [os.path.join(work, tag + ".s"), "-o", os.path.join(work, tag + ".payload.o")], check=True)
    code = os.path.join(src, "app.m" if kind == "exe" else "mykit.c")
    subprocess.run(cc + [code, "-o", os.path.join(work, tag + ".code.o")], check=True)
    out = os.path.join(work, tag)
    ld = ["ld64.lld-14", "-arch", "arm64", "-platform_version", "ios", "15.0", "17.0", "-adhoc_codesign", "-o", out,
          os.path.join(work, tag + ".code.o"), os.path.join(work, tag + ".payload.o"), os.path.join(stubs, "libSystem.tbd")]
    if kind == "exe":
        ld += [os.path.join(stubs, n) for n in ("libobjc.tbd", "Foundation.tbd", "UIKit.tbd", "CoreLocation.tbd", "AVFoundation.tbd")]
        ld += ["-weak_library", os.path.join(stubs, "Photos.tbd"), os.path.join(FIXTURES, "MyKit.framework", "MyKit")]
    else:
        ld += ["-dylib", "-install_name", f"@rpath/{tag}"]
    subprocess.run(ld, check=True)
    return open(out, "rb").read()

def wheel_binaries(path):
    """The Mach-O files of an iOS wheel, largest first."""
    with zipfile.ZipFile(path) as w:
        names = sorted((i for i in w.infolist() if i.filename.endswith(".so")), key=lambda i: -i.file_size)
        return [w.read(i) for i in names]

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--frameworks", type=int, default=40)
    ap.add_argument("--binary-mb", type=float, default=5.0)
    ap.add_argument("--app-binary-mb", type=float, default=60.0)
    ap.add_argument("--assets-mb", type=float, default=120.0)
    ap.add_argument("--languages", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--real-binaries", help="an iOS wheel whose Mach-O dylibs become the frameworks' executables")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    work = tempfile.mkdtemp()
    exe = linked("exe", int(a.app_binary_mb * 1e6), rng, work)
    appex = linked("exe", int(a.binary_mb * 1e6), rng, work) if a.binary_mb != a.app_binary_mb else exe
    dylibs = wheel_binaries(a.real_binaries) if a.real_binaries else [linked("dylib", int(a.binary_mb * 1e6), rng, work)]
    root = "Payload/Big.app/"
    with zipfile.ZipFile(a.out, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as z:
        z.writestr(root + "Info.plist", info_plist("com.example.big", "Big", "APPL",
                   "<key>NSCameraUsageDescription</key><string>Scan documents.</string>"))
        z.writestr(root + "Big", exe)
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
            z.writestr(p + ext, appex)
        for i in range(a.frameworks):
            name = f"Kit{i:02d}"
            p = root + f"Frameworks/{name}.framework/"
            z.writestr(p + "Info.plist", info_plist(f"com.example.{name.lower()}", name, "FMWK"))
            z.writestr(p + name, dylibs[i % len(dylibs)])
            z.writestr(p + "PrivacyInfo.xcprivacy", MANIFEST)
            z.writestr(p + f"{name}Resources.bundle/Info.plist", info_plist(f"com.example.{name.lower()}.res", "", "BNDL"))
            z.writestr(p + f"{name}Resources.bundle/image.png", rng.randbytes(200000))
    print(a.out, os.path.getsize(a.out), "bytes")

if __name__ == "__main__":
    main()
