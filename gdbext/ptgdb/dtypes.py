# ScalarType table and element decoders: raw little-endian bytes -> Python values.
# Pure Python (no gdb import) so tests/unit/gdbext can test it without GDB.
# Names follow c10/core/ScalarType.h; numbering in docs/formats/tensor-layout.md §3.
import math
import struct

# kinds: how summarize formats the decoded values
FLOAT, COMPLEX, INT, BOOL, RAW = "float", "complex", "int", "bool", "raw"


class DType:
    """One ScalarType: torch name, bytes per element, kind, decoder(bytes) -> value."""

    def __init__(self, scalar, name, itemsize, kind, decode, sub_byte_bits=0):
        self.scalar = scalar          # enumerator name in c10::ScalarType
        self.name = name              # torch dtype name, as in `dtype=float32`
        self.itemsize = itemsize
        self.kind = kind
        self.decode = decode
        # quint4x2 / quint2x4 pack 8/bits elements per byte along the last
        # dimension (ATen/quantized/Quantizer.cpp get_sub_byte_tensor_size).
        self.sub_byte_bits = sub_byte_bits

    def __repr__(self):
        return "DType(%s)" % self.name


def _unpack(fmt):
    s = struct.Struct("<" + fmt)
    return lambda b: s.unpack(b)[0]


def decode_half(b):
    return struct.unpack("<e", b)[0]


def decode_bfloat16(b):
    # bfloat16 is the high half of a float32.
    return struct.unpack("<f", b"\0\0" + bytes(b))[0]


def decode_minifloat(byte, ebits, mbits, bias, variant):
    """Decode an 8-bit float. variant: 'ieee' (inf and NaN at max exponent),
    'fn' (no inf; NaN only when all exponent and mantissa bits are set),
    'fnuz' (no inf, no -0; 0x80 is the only NaN)."""
    sign = -1.0 if byte & 0x80 else 1.0
    exp = (byte >> mbits) & ((1 << ebits) - 1)
    man = byte & ((1 << mbits) - 1)
    emax = (1 << ebits) - 1
    if variant == "fnuz" and byte == 0x80:
        return math.nan
    if variant == "ieee" and exp == emax:
        return sign * math.inf if man == 0 else math.nan
    if variant == "fn" and exp == emax and man == (1 << mbits) - 1:
        return math.nan
    if exp == 0:
        return sign * man * 2.0 ** (1 - bias - mbits)
    return sign * (1 + man / (1 << mbits)) * 2.0 ** (exp - bias)


def _fp8(ebits, mbits, bias, variant):
    return lambda b: decode_minifloat(b[0], ebits, mbits, bias, variant)


def decode_e8m0(b):
    # Float8_e8m0fnu: exponent only, 0xff is NaN.
    return math.nan if b[0] == 0xFF else 2.0 ** (b[0] - 127)


def _complex(part, size):
    return lambda b: complex(part(b[:size]), part(b[size:2 * size]))


def raw_int(b):
    return int.from_bytes(bytes(b), "little")


_ROWS = [
    # scalar, name, itemsize, kind, decoder
    ("Byte", "uint8", 1, INT, _unpack("B")),
    ("Char", "int8", 1, INT, _unpack("b")),
    ("Short", "int16", 2, INT, _unpack("h")),
    ("Int", "int32", 4, INT, _unpack("i")),
    ("Long", "int64", 8, INT, _unpack("q")),
    ("Half", "float16", 2, FLOAT, decode_half),
    ("Float", "float32", 4, FLOAT, _unpack("f")),
    ("Double", "float64", 8, FLOAT, _unpack("d")),
    ("ComplexHalf", "complex32", 4, COMPLEX, _complex(decode_half, 2)),
    ("ComplexFloat", "complex64", 8, COMPLEX, _complex(_unpack("f"), 4)),
    ("ComplexDouble", "complex128", 16, COMPLEX, _complex(_unpack("d"), 8)),
    ("Bool", "bool", 1, BOOL, lambda b: b[0] != 0),
    # Quantized types show their raw integers, never dequantized.
    ("QInt8", "qint8", 1, INT, _unpack("b")),
    ("QUInt8", "quint8", 1, INT, _unpack("B")),
    ("QInt32", "qint32", 4, INT, _unpack("i")),
    ("BFloat16", "bfloat16", 2, FLOAT, decode_bfloat16),
    ("QUInt4x2", "quint4x2", 1, INT, _unpack("B"), 4),
    ("QUInt2x4", "quint2x4", 1, INT, _unpack("B"), 2),
    # After 1.13 (tensor-layout.md §3): appended, earlier values unchanged.
    ("Bits1x8", "bits1x8", 1, RAW, raw_int),
    ("Bits2x4", "bits2x4", 1, RAW, raw_int),
    ("Bits4x2", "bits4x2", 1, RAW, raw_int),
    ("Bits8", "bits8", 1, RAW, raw_int),
    ("Bits16", "bits16", 2, RAW, raw_int),
    ("Float8_e5m2", "float8_e5m2", 1, FLOAT, _fp8(5, 2, 15, "ieee")),
    ("Float8_e4m3fn", "float8_e4m3fn", 1, FLOAT, _fp8(4, 3, 7, "fn")),
    ("Float8_e5m2fnuz", "float8_e5m2fnuz", 1, FLOAT, _fp8(5, 2, 16, "fnuz")),
    ("Float8_e4m3fnuz", "float8_e4m3fnuz", 1, FLOAT, _fp8(4, 3, 8, "fnuz")),
    ("UInt16", "uint16", 2, INT, _unpack("H")),
    ("UInt32", "uint32", 4, INT, _unpack("I")),
    ("UInt64", "uint64", 8, INT, _unpack("Q")),
] + [("UInt%d" % i, "uint%d" % i, 1, RAW, raw_int) for i in range(1, 8)] \
  + [("Int%d" % i, "int%d" % i, 1, RAW, raw_int) for i in range(1, 8)] + [
    ("Float8_e8m0fnu", "float8_e8m0fnu", 1, FLOAT, decode_e8m0),
    # Two fp4 values per byte; shown raw.
    ("Float4_e2m1fn_x2", "float4_e2m1fn_x2", 1, RAW, raw_int),
]

BY_SCALAR = {}
for _r in _ROWS:
    BY_SCALAR[_r[0]] = DType(*_r)

# Numbering when the DWARF c10::ScalarType enum is not available.
# BACKCOMPAT: torch 1.13 ends at QUInt2x4; Undefined = 18, NumOptions = 19.
ORDER_1_13 = [r[0] for r in _ROWS[:18]]
# 2.x main (2025-26 headers): Undefined = 46, NumOptions = 47.
ORDER_LATEST = [r[0] for r in _ROWS]


class ScalarTypeTable:
    """Maps data_type_.index_ to a DType, from the enumerators (name -> value)
    of c10::ScalarType when known, else from the values common to every version."""

    def __init__(self, enumerators=None):
        if enumerators:
            self.by_index = {v: n for n, v in enumerators.items()}
            self.undefined = enumerators.get("Undefined")
            self.num_options = enumerators.get("NumOptions")
        else:
            # Values 0-17 are the same from 1.13 to current main.
            self.by_index = dict(enumerate(ORDER_1_13))
            self.undefined = None
            self.num_options = None

    def lookup(self, index):
        """Return (DType or None, label). label is the torch name, 'undefined',
        or 'TypeMeta#n' for a TypeMeta that is not a ScalarType."""
        name = self.by_index.get(index)
        if name is not None and name in BY_SCALAR:
            return BY_SCALAR[name], BY_SCALAR[name].name
        if index == self.undefined or name == "Undefined":
            return None, "undefined"
        if self.num_options is not None and index >= self.num_options:
            return None, "TypeMeta#%d" % index
        return None, "ScalarType#%d" % index


def dtype_name(scalar):
    """Torch name for a ScalarType enumerator name ('Float' -> 'float32')."""
    d = BY_SCALAR.get(scalar)
    if d is not None:
        return d.name
    return "undefined" if scalar == "Undefined" else scalar
