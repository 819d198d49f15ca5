# Torch-like text for tensor values: which elements to read, and how to print them.
# Pure Python (no gdb import): tests/unit/gdbext tests it without GDB.
# Rules follow torch/_tensor_str.py (1.13): summarise when numel > threshold,
# keeping `edgeitems` at each end of every dimension longer than 2*edgeitems;
# one float format for all shown elements (int mode '1.', fixed '{:.4f}',
# scientific '{:.4e}'); complex as real and imaginary formats side by side.
# Unlike torch, everything is on one line.
import itertools
import math

from . import dtypes

DEFAULT_THRESHOLD = 1000
DEFAULT_EDGEITEMS = 3
# A summarised print shows at most this many elements: torch's rule alone keeps
# every index of a dimension of at most 2*edgeitems elements, so a broadcast view
# such as torch.zeros(1).expand([2]*22) (4 M elements, strides 0) would otherwise
# be printed whole. 10000 leaves every summary of up to 5 dimensions (6**5 = 7776
# elements at the default edgeitems) as torch prints it.
SUMMARY_LIMIT = 10000
ELLIPSIS = None   # marks a `...` position in an index list
GAP = object()    # a `...` among the parts _walk() hands to its node function


def dim_indices(size, summarize, edgeitems):
    """Indices shown along one dimension, with ELLIPSIS where elements are left out."""
    if summarize and size > 2 * edgeitems:
        return list(range(edgeitems)) + [ELLIPSIS] + list(range(size - edgeitems, size))
    return list(range(size))


def _dim_iter(size, summarize, edgeitems):
    """dim_indices() without building the lists (a large --edge costs nothing)."""
    if summarize and size > 2 * edgeitems:
        return itertools.chain(range(edgeitems), (ELLIPSIS,), range(size - edgeitems, size))
    return range(size)


def _walk(sizes, summarize, edgeitems, limit, leaf, node):
    """The print order of a tensor, shared by shown_indices() and render() so they
    agree on where a print stops. leaf(index tuple) gives one element's part;
    node(list of parts, GAP for "...") a dimension's. With limit, at most that
    many elements are shown: once it is reached, every dimension still open ends
    with one "...".
    The work is O(elements shown x dimensions), never O(numel)."""
    left = [limit if limit is not None else -1]

    def walk(prefix, d):
        parts = []
        for i in _dim_iter(sizes[d], summarize, edgeitems):
            if left[0] == 0 or i is ELLIPSIS:
                if not parts or parts[-1] is not GAP:
                    parts.append(GAP)
                if left[0] == 0:
                    break
            elif d + 1 == len(sizes):
                parts.append(leaf(tuple(prefix + [i])))
                left[0] -= 1
            else:
                parts.append(walk(prefix + [i], d + 1))
        return node(parts)
    return walk([], 0)


def shown_indices(sizes, summarize, edgeitems, limit=None):
    """Index tuples of every element printed, in print order (row-major); at most
    `limit` of them (None: no limit)."""
    out = []
    if sizes and all(s > 0 for s in sizes):
        _walk(sizes, summarize, edgeitems, limit, out.append, lambda parts: None)
    elif not sizes:
        out.append(())
    return out


def shown_limit(summarize):
    """The most elements a print shows: SUMMARY_LIMIT when summarising, else no
    limit (an unsummarised tensor has at most pt-threshold or FULL_LIMIT)."""
    return SUMMARY_LIMIT if summarize else None


def should_summarize(numel, threshold):
    return numel > threshold


class FloatFormatter:
    """torch._tensor_str._Formatter for floating values (precision 4)."""

    def __init__(self, values):
        finite = [abs(v) for v in values if math.isfinite(v) and v != 0]
        self.int_mode = all(v == math.ceil(v) for v in finite)
        self.sci = False
        if finite:
            lo, hi = min(finite), max(finite)
            if self.int_mode:
                self.sci = hi / lo > 1000.0 or hi > 1.0e8
            else:
                self.sci = hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4

    def format(self, v):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        if self.sci:
            return "{:.4e}".format(v)
        if self.int_mode:
            return "{:.0f}.".format(v)
        return "{:.4f}".format(v)


class ComplexFormatter:
    def __init__(self, values):
        self.re = FloatFormatter([v.real for v in values])
        self.im = FloatFormatter([v.imag for v in values])

    def format(self, v):
        im = self.im.format(v.imag) + "j"
        if im[0] in "+-":
            return self.re.format(v.real) + im
        return self.re.format(v.real) + "+" + im


class _Plain:
    def __init__(self, fn):
        self.format = fn


def formatter(kind, values):
    """A formatter for all the shown values of one tensor (torch formats them together)."""
    if kind == dtypes.FLOAT:
        return FloatFormatter(values)
    if kind == dtypes.COMPLEX:
        return ComplexFormatter(values)
    if kind == dtypes.BOOL:
        return _Plain(lambda v: "True" if v else "False")
    if kind == dtypes.RAW:
        return _Plain(hex)
    return _Plain(str)


def raw_formatter():
    """--raw: each element's bytes as one little-endian integer in hex."""
    return _Plain(hex)


def render(sizes, values, fmt, summarize, edgeitems, limit=None):
    """Nested, one-line text. values: {index tuple: value} for
    shown_indices(sizes, summarize, edgeitems, limit)."""
    if not sizes:
        return fmt.format(values[()])
    if any(s == 0 for s in sizes):
        return "[]"
    return _walk(sizes, summarize, edgeitems, limit,
                 lambda idx: fmt.format(values[idx]),
                 lambda parts: "[" + ", ".join("..." if p is GAP else p
                                               for p in parts) + "]")


def format_list(items, limit=100):
    """[a, b, c] with at most `limit` items, then '...'."""
    items = list(items)
    shown = [str(x) for x in items[:limit]]
    if len(items) > limit:
        shown.append("...")
    return "[" + ", ".join(shown) + "]"


def tensor_text(body, dtype, sizes, strides, offset, device, extra=()):
    """The whole print: tensor(BODY, dtype=..., shape=[..], strides=[..], offset=N, device=..)."""
    parts = [body, "dtype=" + dtype, "shape=" + format_list(sizes, 64),
             "strides=" + format_list(strides, 64)]
    if offset:
        parts.append("offset=%d" % offset)
    parts.append("device=" + device)
    parts.extend(extra)
    return "tensor(" + ", ".join(parts) + ")"


def element_offsets(indices, strides, offset):
    """Element offsets (in elements, from the storage start) of index tuples."""
    return [offset + sum(i * s for i, s in zip(idx, strides)) for idx in indices]


def sub_byte_location(idx, sizes, bits):
    """(byte offset from the data start, bit shift) of a packed sub-byte element,
    for a contiguous tensor packed along its last dimension."""
    per = 8 // bits
    if not sizes:
        return 0, 0
    cols = sizes[-1]
    row = 0
    for d in range(len(sizes) - 1):
        row = row * sizes[d] + idx[d]
    j = idx[-1]
    return row * ((cols + per - 1) // per) + j // per, (j % per) * bits
