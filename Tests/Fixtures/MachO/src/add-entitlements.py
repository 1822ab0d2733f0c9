# Adds an entitlements blob (CSMAGIC_EMBEDDED_ENTITLEMENTS, slot 5) to the code signature of a
# thin arm64 Mach-O signed ad hoc by lld, and grows __LINKEDIT to match. The CodeDirectory's
# hash of the entitlements slot is not updated: the fixture is read, never run.
import struct, sys

path, xml = sys.argv[1], sys.argv[2].encode()
data = bytearray(open(path, 'rb').read())
magic, _, _, _, ncmds, _, _, _ = struct.unpack_from('<IiiIIIII', data, 0)
assert magic == 0xfeedfacf, 'not a thin 64-bit Mach-O'
off, sig_cmd, linkedit = 32, None, None
for _ in range(ncmds):
    cmd, size = struct.unpack_from('<II', data, off)
    if cmd == 0x1d:
        sig_cmd = off
    elif cmd == 0x19 and data[off + 8:off + 24].rstrip(b'\0') == b'__LINKEDIT':
        linkedit = off
    off += size
dataoff, datasize = struct.unpack_from('<II', data, sig_cmd + 8)
sb = bytes(data[dataoff:dataoff + datasize])
_, _, count = struct.unpack_from('>III', sb, 0)
blobs = []
for k in range(count):
    btype, boff = struct.unpack_from('>II', sb, 12 + 8 * k)
    blen = struct.unpack_from('>I', sb, boff + 4)[0]
    blobs.append((btype, sb[boff:boff + blen]))
blobs.append((5, struct.pack('>II', 0xfade7171, 8 + len(xml)) + xml))
offset = 12 + 8 * len(blobs)
index, body = b'', b''
for btype, blob in blobs:
    index += struct.pack('>II', btype, offset + len(body))
    body += blob
superblob = struct.pack('>III', 0xfade0cc0, offset + len(body), len(blobs)) + index + body
superblob += b'\0' * ((-len(superblob)) % 16)
out = data[:dataoff] + superblob
struct.pack_into('<II', out, sig_cmd + 8, dataoff, len(superblob))
fileoff = struct.unpack_from('<Q', out, linkedit + 40)[0]
filesize = len(out) - fileoff
struct.pack_into('<QQ', out, linkedit + 32, (filesize + 0x3fff) & ~0x3fff, fileoff)
struct.pack_into('<Q', out, linkedit + 48, filesize)
open(path, 'wb').write(out)
