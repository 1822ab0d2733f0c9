#!/usr/bin/env python3
"""Writes the small compiled asset catalogs (Assets.car) and PNG files the icon tests use.

Deterministic: run it again and the outputs are byte-identical. No Apple tool is involved;
the layout follows what Xcode's actool writes, as read from real Assets.car files (see
README.md here): a BOM store (big-endian container) holding CARHEADER, KEYFORMAT,
EXTENDED_METADATA and the FACETKEYS and RENDITIONS trees (little-endian payloads).

Usage: python3 Tests/Fixtures/AssetCatalog/make-fixtures.py   (writes next to itself)
"""
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))

# Rendition key attributes, in the order actool 14+ writes its KEYFORMAT (as seen in a real
# App Store build): the key of a rendition is one u16 per position.
KEY_FORMAT = [7, 13, 12, 15, 16, 26, 27, 9, 8, 25, 24, 4, 20, 21, 23, 22, 17, 1, 2, 10, 6]
ELEMENT, PART, DIM2, SCALE, IDIOM, SUBTYPE, IDENTIFIER = 1, 2, 9, 12, 15, 16, 17
PHONE, PAD, MARKETING, UNIVERSAL = 1, 2, 6, 0
ICON_PART, IMAGE_PART = 220, 181


def bom(variables, blocks, header_size):
    """A BOMStore: `blocks` are byte strings (ids from 1), `variables` (name, block id)."""
    out = bytearray(b"\0" * header_size)  # real stores pad the header to 512 bytes
    offsets = [(0, 0)]
    for b in blocks:
        offsets.append((len(out), len(b)))
        out += b
    vars_ = struct.pack(">I", len(variables))
    for name, bid in variables:
        vars_ += struct.pack(">IB", bid, len(name)) + name.encode()
    vars_offset = len(out)
    out += vars_
    index = struct.pack(">I", len(offsets)) + b"".join(struct.pack(">II", o, l) for o, l in offsets)
    index_offset = len(out)
    out += index + struct.pack(">I", 0)  # empty free list
    out[0:32] = b"BOMStore" + struct.pack(">IIIIII", 1, len(blocks), index_offset, len(index) + 4, vars_offset, len(vars_))
    return bytes(out)


class Store:
    def __init__(self, node_size):
        self.blocks = []
        self.node_size = node_size

    def add(self, data):
        self.blocks.append(bytes(data))
        return len(self.blocks)

    def tree(self, entries, max_leaf):
        """A B-tree of (key bytes, value bytes): leaves of at most `max_leaf` entries linked
        forward, under one branch node when there is more than one leaf."""
        pairs = [(self.add(v), self.add(k)) for k, v in entries]
        leaves = [pairs[i:i + max_leaf] for i in range(0, len(pairs), max_leaf)] or [[]]
        ids = [self.add(b"\0" * 12) for _ in leaves]  # reserved, filled below
        for n, (leaf, bid) in enumerate(zip(leaves, ids)):
            fwd = ids[n + 1] if n + 1 < len(ids) else 0
            back = ids[n - 1] if n > 0 else 0
            node = struct.pack(">HHII", 1, len(leaf), fwd, back) + b"".join(struct.pack(">II", v, k) for v, k in leaf)
            self.blocks[bid - 1] = node.ljust(self.node_size, b"\0")
        root = ids[0]
        if len(ids) > 1:
            # A branch: its values are the leaves; its keys repeat each leaf's last key.
            branch = struct.pack(">HHII", 0, len(ids), 0, 0) + b"".join(struct.pack(">II", bid, leaf[-1][1]) for bid, leaf in zip(ids, leaves))
            root = self.add(branch.ljust(self.node_size, b"\0"))
        return self.add(b"tree" + struct.pack(">IIII", 1, root, self.node_size, len(entries)) + b"\0")


def car(facets, renditions, thinning="", max_leaf=64, compact=False):
    """facets: [(name, identifier, part)]; renditions: [(identifier, part, idiom, scale, dim2, w, h, name)]."""
    s = Store(0 if compact else 4096)
    header = b"RATC" + struct.pack("<IIII", 802, 17, 0, len(renditions))
    header += b"@(#)PROGRAM:CoreUI  PROJECT:CoreUI-802\n".ljust(128, b"\0") + b"Preflight fixture".ljust(256, b"\0")
    header += bytes(16) + struct.pack("<IIII", 0, 2, 0, 0)
    keyfmt = b"tmfk" + struct.pack("<II", 0, len(KEY_FORMAT)) + b"".join(struct.pack("<I", t) for t in KEY_FORMAT)
    meta = b"META" + thinning.encode().ljust(256, b"\0") + b"15.0".ljust(256, b"\0") + b"ios".ljust(256, b"\0") + b"make-fixtures.py".ljust(256, b"\0")
    facet_entries = []
    for name, ident, part in sorted(facets):
        attrs = [(ELEMENT, 85), (PART, part), (IDENTIFIER, ident)]
        facet_entries.append((name.encode(), struct.pack("<HHH", 0, 0, len(attrs)) + b"".join(struct.pack("<HH", a, v) for a, v in attrs)))
    rendition_entries = []
    for ident, part, idiom, scale, dim2, w, h, name in renditions:
        values = {ELEMENT: 85, PART: part, IDIOM: idiom, SCALE: scale, DIM2: dim2, IDENTIFIER: ident}
        key = b"".join(struct.pack("<H", values.get(t, 0)) for t in KEY_FORMAT)
        csi = b"ISTC" + struct.pack("<IIIII", 1, 0, w, h, scale * 100) + b"BGRA" + struct.pack("<I", 0)
        csi += struct.pack("<IHH", 0, 12, 0) + name.encode().ljust(128, b"\0")
        csi += struct.pack("<IIII", 0, 1, 0, 0)  # bitmap list: no TLVs, no bitmap data
        rendition_entries.append((key, csi))
    rendition_entries.sort()
    ids = {
        "CARHEADER": s.add(header),
        "KEYFORMAT": s.add(keyfmt),
        "EXTENDED_METADATA": s.add(meta),
        "FACETKEYS": s.tree(facet_entries, max_leaf),
        "RENDITIONS": s.tree(rendition_entries, max_leaf),
    }
    order = ["CARHEADER", "RENDITIONS", "FACETKEYS", "KEYFORMAT", "EXTENDED_METADATA"]
    return bom([(n, ids[n]) for n in order], s.blocks, 32 if compact else 512)


def icon_set(ident, name, phone=True, pad=True, marketing=True):
    out = []
    if phone:
        out += [(ident, ICON_PART, PHONE, 2, 3, 120, 120, f"{name}-60@2x.png"), (ident, ICON_PART, PHONE, 3, 3, 180, 180, f"{name}-60@3x.png")]
    if pad:
        out += [(ident, ICON_PART, PAD, 1, 4, 76, 76, f"{name}-76.png"), (ident, ICON_PART, PAD, 2, 4, 152, 152, f"{name}-76@2x.png"),
                (ident, ICON_PART, PAD, 2, 5, 167, 167, f"{name}-83.5@2x.png")]
    if marketing:
        out += [(ident, ICON_PART, MARKETING, 1, 0, 1024, 1024, f"{name}-1024.png")]
    return out


LOGO = [(900, IMAGE_PART, UNIVERSAL, 2, 0, 88, 88, "logo@2x.png")]


def png(width, height, color_type, trns=False, cgbi=False, clear_rows=0):
    """A real PNG of one colour, every row filter 0; colour type 2 (RGB) or 6 (RGBA). The first
    `clear_rows` rows are transparent: alpha 0 (RGBA), or black, the tRNS colour key (RGB)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    channels = {2: 3, 6: 4}[color_type]
    row = b"\0" + bytes([0x33, 0x66, 0x99, 0xFF][:channels]) * width
    clear = b"\0" + bytes([0, 0, 0, 0][:channels]) * width
    out = b"\x89PNG\r\n\x1a\n"
    if cgbi:
        out += chunk(b"CgBI", struct.pack(">I", 0x50002006))
    out += chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0))
    if trns:
        out += chunk(b"tRNS", struct.pack(">HHH", 0, 0, 0))
    out += chunk(b"IDAT", zlib.compress(clear * clear_rows + row * (height - clear_rows), 9)) + chunk(b"IEND", b"")
    return out


def filtered_png(size, transparent_last_pixel):
    """An RGBA gradient whose rows use the five PNG filters in turn (None, Sub, Up, Average,
    Paeth), so that a reader must undo each; opaque except, when asked, the very last pixel."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = []
    for y in range(size):
        row = bytearray()
        for x in range(size):
            alpha = 0x7F if transparent_last_pixel and (x, y) == (size - 1, size - 1) else 0xFF
            row += bytes([(x * 7 + y) & 0xFF, (x * y) & 0xFF, (255 - x - y) & 0xFF, alpha])
        rows.append(bytes(row))
    raw, prev, bpp = b"", bytes(size * 4), 4
    for y, row in enumerate(rows):
        kind, out = y % 5, bytearray()
        for i, v in enumerate(row):
            a = row[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 0: pred = 0
            elif kind == 1: pred = a
            elif kind == 2: pred = b
            elif kind == 3: pred = (a + b) // 2
            else:
                p_ = a + b - c
                pa, pb, pc = abs(p_ - a), abs(p_ - b), abs(p_ - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            out.append((v - pred) & 0xFF)
        raw += bytes([kind]) + bytes(out)
        prev = row
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def write(name, data, folder=HERE):
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


write("AppIcon-complete.car", car([("AppIcon", 100, ICON_PART), ("logo", 900, IMAGE_PART)], icon_set(100, "AppIcon") + LOGO))
write("AppIcon-no-marketing.car", car([("AppIcon", 100, ICON_PART)], icon_set(100, "AppIcon", marketing=False)))
write("AppIcon-pad-only.car", car([("AppIcon", 100, ICON_PART)], icon_set(100, "AppIcon", phone=False)))
write("AppIcon-phone-only.car", car([("AppIcon", 100, ICON_PART)], icon_set(100, "AppIcon", pad=False)))
# Small leaves: both trees get a branch node over linked leaves.
write("AppIcon-alternates.car", car([("AppIcon", 100, ICON_PART), ("Dark", 200, ICON_PART), ("Light", 300, ICON_PART)],
                                    icon_set(100, "AppIcon") + icon_set(200, "Dark", pad=False, marketing=False)
                                    + icon_set(300, "Light", marketing=False), max_leaf=3))
write("AppIcon-thinned.car", car([("AppIcon", 100, ICON_PART)], icon_set(100, "AppIcon", pad=False, marketing=False)[:1],
                                 thinning="carutil 802.000000, thinned <mode app> <idiom 1> <scale 2>"))
write("Images-only.car", car([("logo", 900, IMAGE_PART)], LOGO))

write("filters-opaque-64.png", filtered_png(64, False))
write("filters-last-pixel-64.png", filtered_png(64, True))
write("opaque-1024.png", png(1024, 1024, 2))
write("alpha-1024.png", png(1024, 1024, 6, clear_rows=8))
write("rgba-opaque-1024.png", png(1024, 1024, 6))
write("trns-1024.png", png(1024, 1024, 2, trns=True, clear_rows=8))
write("trns-unused-1024.png", png(1024, 1024, 2, trns=True))
write("opaque-120.png", png(120, 120, 2))
write("opaque-180.png", png(180, 180, 2))
write("opaque-152.png", png(152, 152, 2))
write("opaque-167.png", png(167, 167, 2))
write("alpha-120.png", png(120, 120, 6, clear_rows=2))
write("opaque-100.png", png(100, 100, 2))
write("cgbi-120.png", png(120, 120, 6, cgbi=True))

# Seeds of the FuzzAssetCatalog fuzz target: the same structures without the padding real
# stores carry (4 KiB tree nodes, a 512-byte header), so that mutations hit structure.
SEEDS = os.path.join(HERE, "..", "..", "..", "Fuzz", "Corpus", "FuzzAssetCatalog")
os.makedirs(SEEDS, exist_ok=True)
write("complete.car", car([("AppIcon", 100, ICON_PART), ("logo", 900, IMAGE_PART)], icon_set(100, "AppIcon") + LOGO, compact=True), SEEDS)
write("branches.car", car([("AppIcon", 100, ICON_PART), ("Dark", 200, ICON_PART)], icon_set(100, "AppIcon") + icon_set(200, "Dark", pad=False),
                          max_leaf=2, compact=True, thinning="thinned <idiom 1>"), SEEDS)
write("opaque.png", png(4, 4, 2), SEEDS)
write("trns.png", png(4, 4, 2, trns=True), SEEDS)
write("cgbi.png", png(4, 4, 6, cgbi=True), SEEDS)


def raw_png(w, h, ct, depth, rows, trns=None, plte=None):
    """A PNG whose IDAT holds filtered rows as they are, not deflated: the fuzz target feeds
    IDAT bytes to the transparency scan as if inflated (Formats has no zlib)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, ct, 0, 0, 0))
    if plte:
        out += chunk(b"PLTE", plte)
    if trns is not None:
        out += chunk(b"tRNS", trns)
    return out + chunk(b"IDAT", rows) + chunk(b"IEND", b"")


write("raw-rgba-filters.png", raw_png(2, 5, 6, 8, b"".join(bytes([f]) + bytes([f, 2, 3, 0xFF, 4, 5, 6, 0x80]) for f in range(5))), SEEDS)
write("raw-palette-2bit.png", raw_png(4, 2, 3, 2, b"\x00\x1b\x00\xe4", trns=b"\xff\x00", plte=b"\0\0\0\xff\xff\xff\x10\x10\x10\x20\x20\x20"), SEEDS)
write("raw-grey16-key.png", raw_png(2, 2, 0, 16, b"\x00\x00\x01\x00\x02\x01\x00\x00\x01\x00\x03", trns=b"\x00\x01"), SEEDS)
