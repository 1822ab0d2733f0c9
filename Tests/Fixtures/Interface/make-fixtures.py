#!/usr/bin/env python3
"""Writes compiled Interface Builder files for uiwebview_reference: the two forms ibtool
writes `.nib` files in (NIBArchive, and an NSKeyedArchiver binary property list), one
instantiating a UIWebView and one a WKWebView. Deterministic; run from anywhere:
python3 Tests/Fixtures/Interface/make-fixtures.py
"""
import os
import plistlib
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def varint(n):
    out = b""
    while True:
        b = n & 0x7F
        n >>= 7
        if n == 0:
            return out + bytes([b | 0x80])
        out += bytes([b])


def nib_archive(classes):
    """A NIBArchive with one object per class and no keys or values."""
    class_table = b"".join(varint(len(c) + 1) + varint(0) + c.encode() + b"\0" for c in classes)
    objects = b"".join(varint(i) + varint(0) + varint(0) for i in range(len(classes)))
    header_size = 10 + 8 + 32
    obj_off = header_size
    key_off = obj_off + len(objects)
    val_off = key_off
    cls_off = val_off
    header = b"NIBArchive" + struct.pack("<II", 1, 10) + struct.pack(
        "<8I", len(classes), obj_off, 0, key_off, 0, val_off, len(classes), cls_off)
    return header + objects + class_table


def keyed_archive(view_class):
    """An NSKeyedArchiver plist whose root object is of `view_class`."""
    return plistlib.dumps({
        "$version": 100000,
        "$archiver": "NSKeyedArchiver",
        "$top": {"IB.objectdata": plistlib.UID(1)},
        "$objects": ["$null", {"$class": plistlib.UID(2), "UIOpaque": True},
                     {"$classname": view_class, "$classes": [view_class, "UIView", "UIResponder", "NSObject"]}],
    }, fmt=plistlib.FMT_BINARY, sort_keys=True)


for name, data in [
    ("UIWebView-NIBArchive.nib", nib_archive(["UIViewController", "UIWebView", "UIView"])),
    ("WKWebView-NIBArchive.nib", nib_archive(["UIViewController", "WKWebView", "UIView"])),
    ("UIWebView-keyed.nib", keyed_archive("UIWebView")),
    ("WKWebView-keyed.nib", keyed_archive("WKWebView")),
]:
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)
