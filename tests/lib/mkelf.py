#!/usr/bin/env python3
# Copied from the project's review material (tools/mkelf.py of the reliability review, 2026-11);
# used by the hardening tests to craft hostile ELF files.
"""Craft minimal ELF shared objects for robustness tests (no section headers
unless asked). Usage from Python: mkelf(path, needed=[...], ...)."""
import struct

DT_NULL, DT_NEEDED, DT_STRTAB, DT_STRSZ, DT_SONAME, DT_RPATH, DT_RUNPATH = 0, 1, 5, 10, 14, 15, 29
DT_VERNEED, DT_VERNEEDNUM, DT_FLAGS_1 = 0x6ffffffe, 0x6fffffff, 0x6ffffffb
PT_LOAD, PT_DYNAMIC, PT_INTERP, PT_NOTE = 1, 2, 3, 4


def mkelf(path, needed=(), soname=None, rpath=None, runpath=None, bits=64, be=False,
          machine=62, etype=3, extra_dyn=(), raw_needed_offsets=(), strsz_override=None,
          strtab_override=None, interp=None, verneed=None, verneednum=None, shdrs=None,
          dyn_count_override=None):
    e = '>' if be else '<'
    strtab = bytearray(b'\0')
    offs = {}

    def add(s):
        if isinstance(s, str):
            s = s.encode('utf-8', 'surrogateescape')
        if s in offs:
            return offs[s]
        o = len(strtab)
        strtab.extend(s + b'\0')
        offs[s] = o
        return o

    dyn = []
    for n in needed:
        dyn.append((DT_NEEDED, add(n)))
    for o in raw_needed_offsets:
        dyn.append((DT_NEEDED, o))
    if soname is not None:
        dyn.append((DT_SONAME, add(soname)))
    if rpath is not None:
        dyn.append((DT_RPATH, add(rpath)))
    if runpath is not None:
        dyn.append((DT_RUNPATH, add(runpath)))
    dyn.extend(extra_dyn)
    if bits == 64:
        ehsz, phsz, dynsz = 64, 56, 16
    else:
        ehsz, phsz, dynsz = 52, 32, 8
    nph = 2 + (1 if interp else 0)
    ph_off = ehsz
    interp_off = ph_off + nph * phsz
    interp_b = (interp.encode() + b'\0') if interp else b''
    str_off = interp_off + len(interp_b)
    str_off = (str_off + 7) & ~7
    # verneed blob placed after strtab
    vn_blob = b''
    if verneed is not None:
        vn_blob = verneed(add, e)  # callback builds bytes using string table
    strb = bytes(strtab)
    vn_off = (str_off + len(strb) + 7) & ~7
    dyn_off = (vn_off + len(vn_blob) + 7) & ~7
    if verneed is not None:
        dyn.append((DT_VERNEED, vn_off))
        dyn.append((DT_VERNEEDNUM, verneednum if verneednum is not None else 1))
    dyn.append((DT_STRTAB, strtab_override if strtab_override is not None else str_off))
    dyn.append((DT_STRSZ, strsz_override if strsz_override is not None else len(strb)))
    dyn.append((DT_NULL, 0))
    dfmt = e + ('qQ' if bits == 64 else 'iI')
    dynb = b''.join(struct.pack(dfmt, t, v & ((1 << bits) - 1)) for t, v in dyn)
    total = dyn_off + len(dynb)
    sh_off = 0
    shb = b''
    if shdrs is not None:
        sh_off = (total + 7) & ~7
        shb = shdrs
        total = sh_off + len(shb)
    ident = b'\x7fELF' + bytes([2 if bits == 64 else 1, 2 if be else 1, 1, 0]) + b'\0' * 8
    if bits == 64:
        eh = ident + struct.pack(e + 'HHIQQQIHHHHHH', etype, machine, 1, 0, ph_off, sh_off, 0,
                                 ehsz, phsz, nph, 64, 0 if shdrs is None else len(shb) // 64, 0)
        ph = b''
        if interp:
            ph += struct.pack(e + 'IIQQQQQQ', PT_INTERP, 4, interp_off, interp_off, interp_off,
                              len(interp_b), len(interp_b), 1)
        ph += struct.pack(e + 'IIQQQQQQ', PT_LOAD, 5, 0, 0, 0, total, total, 0x1000)
        ph += struct.pack(e + 'IIQQQQQQ', PT_DYNAMIC, 6, dyn_off, dyn_off, dyn_off,
                          dyn_count_override * 16 if dyn_count_override else len(dynb),
                          len(dynb), 8)
    else:
        eh = ident + struct.pack(e + 'HHIIIIIHHHHHH', etype, machine, 1, 0, ph_off, sh_off, 0,
                                 ehsz, phsz, nph, 40, 0 if shdrs is None else len(shb) // 40, 0)
        ph = b''
        if interp:
            ph += struct.pack(e + 'IIIIIIII', PT_INTERP, interp_off, interp_off, interp_off,
                              len(interp_b), len(interp_b), 4, 1)
        ph += struct.pack(e + 'IIIIIIII', PT_LOAD, 0, 0, 0, total, total, 5, 0x1000)
        ph += struct.pack(e + 'IIIIIIII', PT_DYNAMIC, dyn_off, dyn_off, dyn_off, len(dynb),
                          len(dynb), 6, 4)
    buf = bytearray(total)
    buf[0:len(eh)] = eh
    buf[ph_off:ph_off + len(ph)] = ph
    if interp:
        buf[interp_off:interp_off + len(interp_b)] = interp_b
    buf[str_off:str_off + len(strb)] = strb
    buf[vn_off:vn_off + len(vn_blob)] = vn_blob
    buf[dyn_off:dyn_off + len(dynb)] = dynb
    if shb:
        buf[sh_off:sh_off + len(shb)] = shb
    with open(path, 'wb') as f:
        f.write(buf)
    return dict(str_off=str_off, strsz=len(strb), dyn_off=dyn_off, total=total)


if __name__ == '__main__':
    import sys
    mkelf(sys.argv[1], needed=sys.argv[2:])
