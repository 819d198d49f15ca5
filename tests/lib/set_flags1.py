#!/usr/bin/python3
"""Set bits in DT_FLAGS_1 of an ELF64 little-endian file, in place.

GNU ld 2.40 ignores -z nodeflib ("warning: -z nodeflib ignored"), so loader
tests that need DF_1_NODEFLIB link with -z now (which creates DT_FLAGS_1) and
OR the bit in here. Usage: set_flags1.py FILE 0x800
"""
import struct
import sys

DT_NULL, DT_FLAGS_1, PT_DYNAMIC = 0, 0x6FFFFFFB, 2

path, bits = sys.argv[1], int(sys.argv[2], 0)
with open(path, "r+b") as f:
    data = bytearray(f.read())
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        sys.exit(f"{path}: not an ELF64 little-endian file")
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    for i in range(phnum):
        p_type, _, p_offset, _, _, p_filesz = struct.unpack_from("<IIQQQQ", data, phoff + i * phentsize)
        if p_type != PT_DYNAMIC:
            continue
        for off in range(p_offset, p_offset + p_filesz, 16):
            tag, val = struct.unpack_from("<qQ", data, off)
            if tag == DT_NULL:
                break
            if tag == DT_FLAGS_1:
                struct.pack_into("<Q", data, off + 8, val | bits)
                f.seek(0)
                f.write(data)
                sys.exit(0)
    sys.exit(f"{path}: no DT_FLAGS_1 entry (link with -Wl,-z,now)")
