#!/usr/bin/env python3
"""Writes the code-signing fixtures: provisioning profiles and re-signed copies of ../App.

Everything is built byte by byte and deterministically (no clock, no random numbers, no
openssl): the CMS structures are DER SignedData with the content, certificates and an empty
SignerInfos set, and the certificates are small X.509-shaped DER values whose subjects read
like Apple's ("Apple Distribution: ...", "Apple Development: ..."). Nothing here is a real
credential, and nothing verifies signatures: Preflight compares bytes and reads names.

Run from anywhere: python3 Tests/Fixtures/MachO/signing/make-fixtures.py
"""
import base64
import hashlib
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
APP = os.path.join(HERE, "..", "App")
TEAM = "ABCDE12345"
BUNDLE_ID = "com.example.demo"


# --- DER ---------------------------------------------------------------------------------

def tlv(tag, content):
    n = len(content)
    if n < 0x80:
        head = bytes([n])
    else:
        raw = n.to_bytes((n.bit_length() + 7) // 8, "big")
        head = bytes([0x80 | len(raw)]) + raw
    return bytes([tag]) + head + content


def seq(*parts):
    return tlv(0x30, b"".join(parts))


def set_(*parts):
    return tlv(0x31, b"".join(parts))


def oid(dotted):
    nums = [int(x) for x in dotted.split(".")]
    body = bytes([nums[0] * 40 + nums[1]])
    for n in nums[2:]:
        chunk = [n & 0x7F]
        n >>= 7
        while n:
            chunk.insert(0, 0x80 | (n & 0x7F))
            n >>= 7
        body += bytes(chunk)
    return tlv(0x06, body)


def integer(n):
    return tlv(0x02, n.to_bytes(max(1, (n.bit_length() + 8) // 8), "big"))


def utf8(s):
    return tlv(0x0C, s.encode())


def name(cn, ou):
    return seq(set_(seq(oid("2.5.4.3"), utf8(cn))), set_(seq(oid("2.5.4.11"), utf8(ou))))


def certificate(serial, subject_cn, issuer_cn, subject_ou=TEAM):
    rsa_sha256 = seq(oid("1.2.840.113549.1.1.11"), tlv(0x05, b""))
    validity = seq(tlv(0x17, b"240101000000Z"), tlv(0x17, b"990101000000Z"))
    key = seq(seq(oid("1.2.840.113549.1.1.1"), tlv(0x05, b"")), tlv(0x03, b"\x00" + bytes(16)))
    tbs = seq(tlv(0xA0, integer(2)), integer(serial), rsa_sha256, name(issuer_cn, "G3"), validity,
              name(subject_cn, subject_ou), key)
    return seq(tbs, rsa_sha256, tlv(0x03, b"\x00" + bytes(32)))


WWDR = "Apple Worldwide Developer Relations Certification Authority"
DIST = certificate(0x1001, f"Apple Distribution: Example Team ({TEAM})", WWDR)
DEV = certificate(0x1002, f"Apple Development: Jane Appleseed ({TEAM})", WWDR)
CA = certificate(0x0001, WWDR, "Apple Root CA", subject_ou="G3")  # issued DIST and DEV


def signed_data(certs, content=None):
    """CMS ContentInfo(SignedData): content attached when given (a profile), else detached."""
    encap = seq(oid("1.2.840.113549.1.7.1"), tlv(0xA0, tlv(0x04, content))) if content is not None \
        else seq(oid("1.2.840.113549.1.7.1"))
    sd = seq(integer(1), set_(seq(oid("2.16.840.1.101.3.4.2.1"))), encap, tlv(0xA0, b"".join(certs)), set_())
    return seq(oid("1.2.840.113549.1.7.2"), tlv(0xA0, sd))


# --- property lists --------------------------------------------------------------------

def xml(value, indent="\t"):
    if isinstance(value, bool):
        return "<true/>" if value else "<false/>"
    if isinstance(value, int):
        return f"<integer>{value}</integer>"
    if isinstance(value, str):
        return f"<string>{value}</string>"
    if isinstance(value, bytes):
        return f"<data>{base64.b64encode(value).decode()}</data>"
    if isinstance(value, tuple) and value[0] == "date":
        return f"<date>{value[1]}</date>"
    if isinstance(value, list):
        inner = "".join(f"\n{indent}\t{xml(v, indent + chr(9))}" for v in value)
        return f"<array>{inner}\n{indent}</array>"
    if isinstance(value, dict):
        inner = "".join(f"\n{indent}\t<key>{k}</key>\n{indent}\t{xml(v, indent + chr(9))}" for k, v in value.items())
        return f"<dict>{inner}\n{indent}</dict>"
    raise TypeError(value)


def plist(d):
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n'
            '<plist version="1.0">\n' + xml(d, "") + "\n</plist>\n").encode()


def profile(file, name, entitlements, certs, expires, devices=None, all_devices=False):
    d = {
        "AppIDName": "Demo",
        "ApplicationIdentifierPrefix": [TEAM],
        "CreationDate": ("date", "2024-01-15T10:00:00Z"),
        "Platform": ["iOS"],
        "DeveloperCertificates": certs,
        "Entitlements": entitlements,
        "ExpirationDate": ("date", expires),
        "Name": name,
    }
    if devices:
        d["ProvisionedDevices"] = devices
    if all_devices:
        d["ProvisionsAllDevices"] = True
    d.update({"TeamIdentifier": [TEAM], "TeamName": "Example Team",
              "UUID": "00000000-0000-4000-8000-" + hashlib.sha256(name.encode()).hexdigest()[:12], "Version": 1})
    with open(os.path.join(HERE, file), "wb") as f:
        f.write(signed_data([CA], content=plist(d)))


# --- Mach-O re-signing -------------------------------------------------------------------

def load_commands(b):
    ncmds, sizeofcmds = struct.unpack_from("<II", b, 16)
    off, out = 32, []
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<II", b, off)
        out.append((cmd, off, size))
        off += size
    return out


def blob(magic, payload):
    return struct.pack(">II", magic, 8 + len(payload)) + payload


def superblob(blobs):
    count = len(blobs)
    header = 12 + 8 * count
    index, body, off = b"", b"", header
    for slot, data in blobs:
        index += struct.pack(">II", slot, off)
        body += data
        off += len(data)
    return struct.pack(">III", 0xFADE0CC0, header + len(body), count) + index + body


def code_directory(code, identifier, team, special, flags):
    """CodeDirectory version 0x20400 with SHA-256 page hashes of `code` (4 KiB pages)."""
    ident = identifier.encode() + b"\0"
    team_b = team.encode() + b"\0" if team else b""
    fixed = 88
    n_special = len(special)
    pages = [code[i:i + 4096] for i in range(0, len(code), 4096)]
    ident_off = fixed
    team_off = ident_off + len(ident) if team else 0
    hash_off = fixed + len(ident) + len(team_b) + 32 * n_special
    hashes = b"".join(special[::-1]) + b"".join(hashlib.sha256(p).digest() for p in pages)
    body = struct.pack(">IIIIIIIBBBBIIIIQQQQ", 0x20400, flags, hash_off, ident_off, n_special, len(pages),
                       len(code), 32, 2, 0, 12, 0, 0, team_off, 0, 0, 0, 0x4000, 1)
    payload = body + ident + team_b + hashes
    return blob(0xFADE0C02, payload)


def resign(out, entitlements=None, certs=(), unsigned=False, corrupt=False, info_plist=None, resources=None):
    b = bytearray(open(APP, "rb").read())
    cmds = load_commands(b)
    sig = next(c for c in cmds if c[0] == 0x1D)
    dataoff, _ = struct.unpack_from("<II", b, sig[1] + 8)
    linkedit = next(c for c in cmds if c[0] == 0x19 and bytes(b[c[1] + 8:c[1] + 24]).rstrip(b"\0") == b"__LINKEDIT")
    le_fileoff = struct.unpack_from("<Q", b, linkedit[1] + 40)[0]
    if unsigned:
        ncmds, sizeofcmds = struct.unpack_from("<II", b, 16)
        _, off, size = sig
        end = 32 + sizeofcmds
        b[off:end] = b[off + size:end] + bytes(size)
        struct.pack_into("<II", b, 16, ncmds - 1, sizeofcmds - size)
        del b[dataoff:]
        struct.pack_into("<QQ", b, linkedit[1] + 48, len(b) - le_fileoff, 0)
        struct.pack_into("<Q", b, linkedit[1] + 32, (len(b) - le_fileoff + 0x3FFF) & ~0x3FFF)
        open(os.path.join(HERE, out), "wb").write(b)
        return
    del b[dataoff:]
    ent = blob(0xFADE7171, plist(entitlements)) if entitlements is not None else None
    requirements = struct.pack(">III", 0xFADE0C01, 12, 0)
    cms = blob(0xFADE0B01, signed_data(list(certs))) if certs else blob(0xFADE0B01, b"")
    special = [bytes(32)] * 5
    special[1] = hashlib.sha256(requirements).digest()
    if info_plist is not None:
        special[0] = hashlib.sha256(info_plist).digest()
    if resources is not None:
        special[2] = hashlib.sha256(resources).digest()
    if ent:
        special[4] = hashlib.sha256(ent).digest()
    # The CodeDirectory's size does not depend on the header fields hashed below, so lay out
    # the signature once to learn its size, fix the header, then hash the final bytes.
    for _ in range(2):
        cd = code_directory(bytes(b), "com.example.demo", TEAM if certs else None, special, 0 if certs else 2)
        blobs = [(0, cd), (2, requirements)] + ([(5, ent)] if ent else []) + [(0x10000, cms)]
        sb = superblob(blobs)
        size = (len(sb) + 15) & ~15
        struct.pack_into("<II", b, sig[1] + 8, dataoff, size)
        struct.pack_into("<Q", b, linkedit[1] + 48, dataoff + size - le_fileoff)
        struct.pack_into("<Q", b, linkedit[1] + 32, (dataoff + size - le_fileoff + 0x3FFF) & ~0x3FFF)
    sb = bytearray(sb + bytes(size - len(sb)))
    if corrupt:
        sb[0:4] = b"\xfa\xde\x0c\xc1"
    open(os.path.join(HERE, out), "wb").write(bytes(b) + bytes(sb))


APP_ID = f"{TEAM}.{BUNDLE_ID}"
RELEASE = {
    "application-identifier": APP_ID,
    "aps-environment": "production",
    "beta-reports-active": True,
    "com.apple.developer.associated-domains": ["applinks:example.com", "webcredentials:example.com"],
    "com.apple.developer.team-identifier": TEAM,
    "get-task-allow": False,
    "keychain-access-groups": [APP_ID],
}
DEBUG = {
    "application-identifier": APP_ID,
    "aps-environment": "development",
    "com.apple.developer.associated-domains": ["applinks:example.com"],
    "com.apple.developer.team-identifier": TEAM,
    "get-task-allow": True,
    "keychain-access-groups": [APP_ID],
}
HEALTH = dict(RELEASE, **{"com.apple.developer.healthkit": True, "com.apple.developer.healthkit.access": []})
OTHER_ID = dict(RELEASE, **{"application-identifier": f"{TEAM}.com.example.other", "keychain-access-groups": [f"{TEAM}.com.example.other"]})

DEVICES = ["00008030-001A2B3C4D5E6F70", "00008101-000A1B2C3D4E5F60"]
profile("appstore.mobileprovision", "Demo App Store", {
    "application-identifier": APP_ID,
    "aps-environment": "production",
    "beta-reports-active": True,
    "com.apple.developer.associated-domains": "*",
    "com.apple.developer.team-identifier": TEAM,
    "get-task-allow": False,
    "keychain-access-groups": [f"{TEAM}.*", "com.apple.token"],
}, [DIST], "2099-01-01T00:00:00Z")
profile("development.mobileprovision", "Demo Development", {
    "application-identifier": f"{TEAM}.*",
    "aps-environment": "development",
    "com.apple.developer.associated-domains": "*",
    "com.apple.developer.team-identifier": TEAM,
    "get-task-allow": True,
    "keychain-access-groups": [f"{TEAM}.*"],
}, [DEV], "2099-01-01T00:00:00Z", devices=DEVICES)
profile("adhoc-expired.mobileprovision", "Demo Ad Hoc", {
    "application-identifier": APP_ID,
    "aps-environment": "production",
    "com.apple.developer.team-identifier": TEAM,
    "get-task-allow": False,
    "keychain-access-groups": [f"{TEAM}.*"],
}, [DIST], "2025-01-14T10:00:00Z", devices=DEVICES)

resign("Release", RELEASE, [DIST, CA])
resign("Debug", DEBUG, [DEV, CA])
resign("HealthKit", HEALTH, [DIST, CA])
resign("OtherAppID", OTHER_ID, [DIST, CA])
resign("DevCertRelease", RELEASE, [DEV, CA])
resign("Unsigned", unsigned=True)
resign("BadSignature", RELEASE, [DIST, CA], corrupt=True)
# Sealed: binds Sealed-Info.plist (special slot 1) and Sealed-CodeResources (slot 3), as codesign
# does, for code_signature_seal_broken.
SEALED_INFO = open(os.path.join(HERE, "Sealed-Info.plist"), "rb").read()
SEALED_RESOURCES = open(os.path.join(HERE, "Sealed-CodeResources"), "rb").read()
resign("Sealed", RELEASE, [DIST, CA], info_plist=SEALED_INFO, resources=SEALED_RESOURCES)
