#!/bin/sh
# Rebuilds the Mach-O fixtures in this folder from src/ and the .tbd stubs in stubs/.
# The built binaries are committed so tests never need clang or lld; run this script
# when a source changes. Needs: clang (any recent, with Apple targets), ld64.lld-14
# (Debian package lld-14) for classic dyld-info binaries, and an ld64.lld that knows
# -fixup_chains (LLD >= 16, e.g. Debian's lld-19) for chained fixups. The Swift toolchain's
# ld64.lld refuses Apple platforms, so it cannot be used.
set -eu
cd "$(dirname "$0")"

CLANG=${CLANG:-clang}
LLD14=${LLD14:-ld64.lld-14}
LLD_CHAINED=${LLD_CHAINED:-}
if [ -z "$LLD_CHAINED" ]; then
    for c in ld64.lld-22 ld64.lld-19 ld64.lld-18 ld64.lld-17 ld64.lld-16 ld64.lld; do
        if command -v "$c" >/dev/null 2>&1 && "$c" --help 2>/dev/null | grep -q -- '-fixup_chains'; then
            LLD_CHAINED=$c; break
        fi
    done
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

CFLAGS="-O1 -Wno-format-security -fno-objc-arc -fno-stack-protector -fno-ident"
S=stubs
IOS_LIBS="$S/libSystem.tbd $S/libobjc.tbd $S/Foundation.tbd $S/UIKit.tbd $S/CoreLocation.tbd $S/AVFoundation.tbd"

# MyKit.framework/MyKit: arm64 iOS dylib with an @rpath install name.
$CLANG -target arm64-apple-ios15.0 $CFLAGS -c src/mykit.c -o "$tmp/mykit.o"
mkdir -p MyKit.framework
$LLD14 -arch arm64 -platform_version ios 15.0 17.0 -dylib \
    -install_name @rpath/MyKit.framework/MyKit -current_version 1.2.3 -compatibility_version 1.0 \
    -o MyKit.framework/MyKit "$tmp/mykit.o" $S/libSystem.tbd

# App: arm64 iOS executable, classic LC_DYLD_INFO_ONLY bind opcodes (lld 14 default),
# Photos weak-linked, an LC_RPATH, MyKit through @rpath.
$CLANG -target arm64-apple-ios15.0 $CFLAGS -c src/app.m -o "$tmp/app.o"
cp "$tmp/app.o" app.o  # the relocatable object too: no binds, ObjC classes from symbols
$LLD14 -arch arm64 -platform_version ios 15.0 17.0 -adhoc_codesign -o App \
    -rpath @executable_path/Frameworks "$tmp/app.o" $IOS_LIBS \
    -weak_library $S/Photos.tbd MyKit.framework/MyKit

# AppChained: the same program linked with LC_DYLD_CHAINED_FIXUPS.
if [ -n "$LLD_CHAINED" ] && $LLD_CHAINED -arch arm64 -platform_version ios 15.0 17.0 -fixup_chains -adhoc_codesign \
        -o "$tmp/AppChained" -rpath @executable_path/Frameworks "$tmp/app.o" $IOS_LIBS \
        -weak_library $S/Photos.tbd MyKit.framework/MyKit; then
    cp "$tmp/AppChained" AppChained
else
    echo "warning: no usable ld64.lld with -fixup_chains; AppChained not rebuilt" >&2
fi

# tool-x86_64: an x86_64 iOS Simulator executable (plain C). (lld 14 cannot link armv7
# objects and later lld versions dropped armv7, so 32-bit is covered by synthetic tests.)
$CLANG -target x86_64-apple-ios15.0-simulator $CFLAGS -c src/tool.c -o "$tmp/tool.o"
$LLD14 -arch x86_64 -platform_version ios-simulator 15.0 17.0 -o "$tmp/tool-x86_64" \
    "$tmp/tool.o" $S/libSystem.tbd

# Fat: tool-x86_64 + App (arm64), written with a FAT_MAGIC header (no lipo on Linux).
python3 - "$tmp/tool-x86_64" App Fat <<'PY'
import struct, sys
x86, arm64, out = sys.argv[1], sys.argv[2], sys.argv[3]
slices = [(0x01000007, 3, open(x86, 'rb').read()), (0x0100000c, 0, open(arm64, 'rb').read())]
align = 14  # 2^14, as lipo does for arm
header = struct.pack('>II', 0xcafebabe, len(slices))
offset = 1 << align
entries, body = b'', b''
for cputype, subtype, data in slices:
    entries += struct.pack('>IIIII', cputype, subtype, offset, len(data), align)
    pad = (-len(data)) % (1 << align)
    body += data + b'\0' * pad
    offset += len(data) + pad
head = header + entries
open(out, 'wb').write(head + b'\0' * ((1 << align) - len(head)) + body)
PY
ls -l App AppChained Fat MyKit.framework/MyKit 2>/dev/null || true

# Ads: arm64 iOS executable that reads the advertising identifier (AdSupport) and links
# nothing of App Tracking Transparency.
$CLANG -target arm64-apple-ios15.0 $CFLAGS -c src/ads.m -o "$tmp/ads.o"
$LLD14 -arch arm64 -platform_version ios 15.0 17.0 -adhoc_codesign -o Ads \
    "$tmp/ads.o" $S/libSystem.tbd $S/libobjc.tbd $S/Foundation.tbd $S/UIKit.tbd $S/AdSupport.tbd

# Recorder: arm64 iOS executable in plain C that reaches the microphone and the photo
# library only through C functions (AudioQueueNewInput, UIImageWriteToSavedPhotosAlbum).
$CLANG -target arm64-apple-ios15.0 $CFLAGS -c src/recorder.c -o "$tmp/recorder.o"
$LLD14 -arch arm64 -platform_version ios 15.0 17.0 -adhoc_codesign -o Recorder \
    "$tmp/recorder.o" $S/libSystem.tbd $S/AudioToolbox.tbd $S/UIKitSaving.tbd

# Required-reason API fixtures: one arm64 iOS executable per NSPrivacyAccessedAPITypes
# category (src/required-reasons/), for required_reason_api_undeclared.
RR_LIBS="$S/libSystem.tbd $S/libsystem_kernel.tbd $S/libobjc.tbd $S/FoundationRequiredReasons.tbd $S/UIKitInput.tbd"
mkdir -p RequiredReasons
for name in filetimestamps boottime diskspace keyboards defaults; do
    $CLANG -target arm64-apple-ios15.0 $CFLAGS -c src/required-reasons/$name.m -o "$tmp/$name.o"
    $LLD14 -arch arm64 -platform_version ios 15.0 17.0 -adhoc_codesign -o RequiredReasons/$name \
        "$tmp/$name.o" $RR_LIBS
done

# Storage/keychain: stores an item with kSecAttrAccessibleAlways (keychain_accessible_always).
# Storage/kvstore: NSUbiquitousKeyValueStore and NSFileProtectionNone, unsigned entitlements;
# Storage/kvstore-entitled and Storage/kvstore-icloud: the same program whose ad-hoc signature
# carries entitlements, with and without a ubiquity-kvstore-identifier (a slot 5 blob added to
# the SuperBlob; the CodeDirectory's special-slot hash is not updated, which no reader checks).
ST_LIBS="$S/libSystem.tbd $S/libobjc.tbd $S/FoundationStorage.tbd $S/Security.tbd $S/CoreFoundationDictionary.tbd"
mkdir -p Storage
for name in keychain kvstore; do
    $CLANG -target arm64-apple-ios15.0 $CFLAGS -c src/storage/$name.m -o "$tmp/$name.o"
    $LLD14 -arch arm64 -platform_version ios 15.0 17.0 -adhoc_codesign -o Storage/$name "$tmp/$name.o" $ST_LIBS
done
for variant in entitled icloud; do
python3 - Storage/kvstore Storage/kvstore-$variant $variant <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], 'rb').read())
services = (b'\t<key>com.apple.developer.ubiquity-kvstore-identifier</key>\n\t<string>ABCDE12345.com.example.app</string>\n'
            if sys.argv[3] == 'entitled' else
            b'\t<key>com.apple.developer.icloud-services</key>\n\t<array><string>CloudKit</string></array>\n')
xml = (b'<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" '
       b'"http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0">\n<dict>\n'
       b'\t<key>application-identifier</key>\n\t<string>ABCDE12345.com.example.app</string>\n'
       b'\t<key>com.apple.developer.team-identifier</key>\n\t<string>ABCDE12345</string>\n' + services +
       b'</dict>\n</plist>\n')
ncmds = struct.unpack_from('<I', data, 16)[0]
off, sig_cmd, linkedit = 32, None, None
for _ in range(ncmds):
    cmd, size = struct.unpack_from('<II', data, off)
    if cmd == 0x1d: sig_cmd = off
    if cmd == 0x19 and data[off + 8:off + 24].rstrip(b'\0') == b'__LINKEDIT': linkedit = off
    off += size
dataoff, datasize = struct.unpack_from('<II', data, sig_cmd + 8)
magic, length, count = struct.unpack_from('>III', data, dataoff)
index = [struct.unpack_from('>II', data, dataoff + 12 + 8 * k) for k in range(count)]
blobs = data[dataoff + 12 + 8 * count:dataoff + length]
header_end = 12 + 8 * (count + 1)
entries = [(t, o + 8) for t, o in index]
ent_blob = struct.pack('>II', 0xfade7171, 8 + len(xml)) + xml
entries.append((5, header_end + len(blobs)))
new_length = header_end + len(blobs) + len(ent_blob)
sb = struct.pack('>III', magic, new_length, count + 1) + b''.join(struct.pack('>II', t, o) for t, o in entries) + blobs + ent_blob
sb += b'\0' * ((-len(sb)) % 16)
out = data[:dataoff] + sb
struct.pack_into('<II', out, sig_cmd + 8, dataoff, len(sb))
fileoff = struct.unpack_from('<Q', out, linkedit + 40)[0]
filesize = len(out) - fileoff
struct.pack_into('<Q', out, linkedit + 48, filesize)
struct.pack_into('<Q', out, linkedit + 32, (filesize + 0x3fff) & ~0x3fff)
open(sys.argv[2], 'wb').write(out)
PY
chmod +x Storage/kvstore-$variant
done

# Transit and TransitShare: plain-C executables whose C strings are http:// URLs, the app and
# share extension binaries of the ATS fixture .ipa (ATSFixtureIPATests).
for name in transit transit-share; do
    $CLANG -target arm64-apple-ios15.0 $CFLAGS -c "src/$name.c" -o "$tmp/$name.o"
done
$LLD14 -arch arm64 -platform_version ios 15.0 17.0 -adhoc_codesign -o Transit "$tmp/transit.o" $S/libSystem.tbd
$LLD14 -arch arm64 -platform_version ios 15.0 17.0 -adhoc_codesign -o TransitShare "$tmp/transit-share.o" $S/libSystem.tbd

# WebView: arm64 iOS executable that creates a UIWebView (ITMS-90809).
$CLANG -target arm64-apple-ios15.0 $CFLAGS -c src/webview.m -o "$tmp/webview.o"
$LLD14 -arch arm64 -platform_version ios 15.0 17.0 -adhoc_codesign -o WebView \
    "$tmp/webview.o" $S/libSystem.tbd $S/libobjc.tbd $S/Foundation.tbd $S/UIKitWebView.tbd

# Push: arm64 iOS executable that calls -[UIApplication registerForRemoteNotifications], with
# entitlements in its signature but no aps-environment (missing_push_entitlement, ITMS-90078).
$CLANG -target arm64-apple-ios15.0 $CFLAGS -c src/push.m -o "$tmp/push.o"
$LLD14 -arch arm64 -platform_version ios 15.0 17.0 -adhoc_codesign -o Push \
    "$tmp/push.o" $S/libSystem.tbd $S/libobjc.tbd $S/Foundation.tbd $S/UIKit.tbd
python3 src/add-entitlements.py Push '<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict><key>application-identifier</key><string>ABCDE12345.com.example.demo</string></dict></plist>'

# SimKit.framework/SimKit: arm64 iOS Simulator dylib (ITMS-90087 when shipped in a device app).
$CLANG -target arm64-apple-ios15.0-simulator $CFLAGS -c src/simkit.c -o "$tmp/simkit.o"
mkdir -p SimKit.framework
$LLD14 -arch arm64 -platform_version ios-simulator 15.0 17.0 -dylib \
    -install_name @rpath/SimKit.framework/SimKit -current_version 1.0 -compatibility_version 1.0 \
    -o SimKit.framework/SimKit "$tmp/simkit.o"

# BitKit.framework/BitKit: arm64 iOS dylib with a `__LLVM,__bundle` section (ITMS-90482).
$CLANG -target arm64-apple-ios15.0 $CFLAGS -c src/bitcode.c -o "$tmp/bitcode.o"
mkdir -p BitKit.framework
$LLD14 -arch arm64 -platform_version ios 15.0 17.0 -dylib \
    -install_name @rpath/BitKit.framework/BitKit -current_version 1.0 -compatibility_version 1.0 \
    -sectcreate __LLVM __bundle src/bitcode-bundle.bin \
    -o BitKit.framework/BitKit "$tmp/bitcode.o" $S/libSystem.tbd

# Armv7: a 32-bit-only iOS executable header (lld cannot link armv7): mach_header with
# cputype ARM / armv7, one LC_SEGMENT __TEXT and LC_VERSION_MIN_IPHONEOS 9.0 (missing_arm64).
python3 - Armv7 <<'PY'
import struct, sys
name16 = lambda s: s.encode().ljust(16, b'\0')
seg = struct.pack('<II16sIIIIiiII', 1, 56, name16('__TEXT'), 0x4000, 0x1000, 0, 0x1000, 5, 5, 0, 0)
vmin = struct.pack('<IIII', 0x25, 16, 9 << 16, 9 << 16)
cmds = seg + vmin
header = struct.pack('<IiiIIII', 0xfeedface, 12, 9, 2, 2, len(cmds), 0x00200085)
data = header + cmds
open(sys.argv[1], 'wb').write(data + b'\0' * (0x1000 - len(data)))
PY

# Hardening fixtures (src/hardening/): Hardened (stack protector, CC_MD5/CC_SHA1, rand),
# NoPIE (linked -no_pie, no function needing a canary) and Secrets (a GitHub and a Slack
# token among the C strings).
HCFLAGS="-O1 -Wno-format-security -fno-objc-arc -fno-ident"
$CLANG -target arm64-apple-ios15.0 $HCFLAGS -fstack-protector-strong -c src/hardening/hardened.c -o "$tmp/hardened.o"
$LLD14 -arch arm64 -platform_version ios 15.0 17.0 -adhoc_codesign -o Hardened "$tmp/hardened.o" $S/libSystemHardening.tbd
$CLANG -target arm64-apple-ios15.0 $HCFLAGS -fstack-protector-strong -c src/hardening/plain.c -o "$tmp/plain.o"
$LLD14 -arch arm64 -platform_version ios 15.0 17.0 -no_pie -adhoc_codesign -o NoPIE "$tmp/plain.o" $S/libSystemHardening.tbd
$CLANG -target arm64-apple-ios15.0 $HCFLAGS -fno-stack-protector -c src/hardening/secrets.c -o "$tmp/secrets.o"
$LLD14 -arch arm64 -platform_version ios 15.0 17.0 -adhoc_codesign -o Secrets "$tmp/secrets.o" $S/libSystemHardening.tbd
