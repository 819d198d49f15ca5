# Unit tests of ptgdb's pure-Python modules (dtypes, summarize, classify),
# run without GDB by tests/integration/gdbext/unit_py.sh.
import math
import struct
import unittest

from ptgdb import classify, dtypes, summarize


class DTypeDecoding(unittest.TestCase):
    def test_numbering_1_13_is_the_common_prefix(self):
        # ScalarType 0-17 are the same in every version (tensor-layout.md §3).
        t = dtypes.ScalarTypeTable()
        self.assertEqual(t.lookup(6)[1], "float32")
        self.assertEqual(t.lookup(15)[1], "bfloat16")
        self.assertEqual(t.lookup(17)[1], "quint2x4")
        self.assertEqual(t.lookup(18)[1], "ScalarType#18")  # ambiguous without the enum

    def test_enum_from_dwarf_decides_undefined_and_typemeta(self):
        enum = {n: i for i, n in enumerate(dtypes.ORDER_1_13)}
        enum.update(Undefined=18, NumOptions=19)
        t = dtypes.ScalarTypeTable(enum)
        self.assertEqual(t.lookup(18), (None, "undefined"))
        self.assertEqual(t.lookup(52800), (None, "TypeMeta#52800"))
        new = {n: i for i, n in enumerate(dtypes.ORDER_LATEST)}
        new.update(Undefined=46, NumOptions=47)
        t2 = dtypes.ScalarTypeTable(new)
        self.assertEqual(t2.lookup(23)[1], "float8_e5m2")
        self.assertEqual(t2.lookup(29)[1], "uint64")
        self.assertEqual(t2.lookup(46)[1], "undefined")

    def test_half_and_bfloat16(self):
        self.assertEqual(dtypes.BY_SCALAR["Half"].decode(struct.pack("<H", 0x3E00)), 1.5)
        self.assertEqual(dtypes.BY_SCALAR["Half"].decode(struct.pack("<H", 0x7BFF)), 65504.0)
        self.assertEqual(dtypes.BY_SCALAR["BFloat16"].decode(struct.pack("<H", 0xC040)), -3.0)

    def test_complex_parts(self):
        b = struct.pack("<ee", 1.0, -2.0)
        self.assertEqual(dtypes.BY_SCALAR["ComplexHalf"].decode(b), complex(1, -2))
        b = struct.pack("<dd", 0.5, 7.0)
        self.assertEqual(dtypes.BY_SCALAR["ComplexDouble"].decode(b), complex(0.5, 7))

    def test_float8_variants(self):
        e5m2 = dtypes.BY_SCALAR["Float8_e5m2"].decode
        self.assertEqual(e5m2(bytes([0x3C])), 1.0)          # same bits as half 0x3c00
        self.assertEqual(e5m2(bytes([0x7C])), math.inf)
        self.assertTrue(math.isnan(e5m2(bytes([0x7E]))))
        e4m3 = dtypes.BY_SCALAR["Float8_e4m3fn"].decode
        self.assertEqual(e4m3(bytes([0x38])), 1.0)
        self.assertEqual(e4m3(bytes([0x7E])), 448.0)         # max finite, no inf
        self.assertTrue(math.isnan(e4m3(bytes([0x7F]))))
        self.assertEqual(e4m3(bytes([0x01])), 2.0 ** -9)     # smallest subnormal
        fnuz = dtypes.BY_SCALAR["Float8_e4m3fnuz"].decode
        self.assertTrue(math.isnan(fnuz(bytes([0x80]))))     # the only NaN, no -0
        self.assertEqual(fnuz(bytes([0x40])), 1.0)           # bias 8
        e5fnuz = dtypes.BY_SCALAR["Float8_e5m2fnuz"].decode
        self.assertEqual(e5fnuz(bytes([0x40])), 1.0)         # bias 16
        self.assertEqual(e5fnuz(bytes([0x7F])), 57344.0)     # max exponent is finite
        e8m0 = dtypes.BY_SCALAR["Float8_e8m0fnu"].decode
        self.assertEqual(e8m0(bytes([127])), 1.0)
        self.assertTrue(math.isnan(e8m0(bytes([0xFF]))))

    def test_quantized_are_raw_integers(self):
        self.assertEqual(dtypes.BY_SCALAR["QInt8"].decode(bytes([0xFF])), -1)
        self.assertEqual(dtypes.BY_SCALAR["QUInt8"].decode(bytes([0xFF])), 255)
        self.assertEqual(dtypes.BY_SCALAR["QUInt4x2"].sub_byte_bits, 4)
        self.assertEqual(dtypes.raw_int(b"\x00\x00\x80\x3f"), 0x3F800000)

    def test_itemsizes(self):
        sizes = {d.name: d.itemsize for d in dtypes.BY_SCALAR.values()}
        self.assertEqual(sizes["complex32"], 4)
        self.assertEqual(sizes["complex128"], 16)
        self.assertEqual(sizes["uint64"], 8)


class Summaries(unittest.TestCase):
    def render(self, sizes, vals, kind=dtypes.FLOAT, threshold=1000, edge=3):
        numel = 1
        for s in sizes:
            numel *= s
        summ = summarize.should_summarize(numel, threshold)
        limit = summarize.shown_limit(summ)     # as printers._values_text
        idx = summarize.shown_indices(sizes, summ, edge, limit)
        values = {i: vals(i) for i in idx}
        fmt = summarize.formatter(kind, [values[i] for i in idx])
        return summarize.render(sizes, values, fmt, summ, edge, limit), len(idx)

    def test_int_mode_floats(self):
        text, _ = self.render([2, 3], lambda i: float(i[0] * 3 + i[1] + 1))
        self.assertEqual(text, "[[1., 2., 3.], [4., 5., 6.]]")

    def test_fixed_and_scientific(self):
        text, _ = self.render([3], lambda i: [0.5, -1.25, 3.0][i[0]])
        self.assertEqual(text, "[0.5000, -1.2500, 3.0000]")
        text, _ = self.render([2], lambda i: [1e-5, 1.0][i[0]])
        self.assertEqual(text, "[1.0000e-05, 1.0000e+00]")
        text, _ = self.render([2], lambda i: [1.0, 1e9][i[0]])   # int mode, but > 1e8
        self.assertEqual(text, "[1.0000e+00, 1.0000e+09]")

    def test_nonfinite_do_not_choose_the_format(self):
        text, _ = self.render([3], lambda i: [math.nan, -math.inf, 2.0][i[0]])
        self.assertEqual(text, "[nan, -inf, 2.]")

    def test_complex_sign_handling(self):
        text, _ = self.render([2], lambda i: [complex(1, -2.5), complex(3, 0)][i[0]],
                              dtypes.COMPLEX)
        self.assertEqual(text, "[1.-2.5000j, 3.+0.0000j]")

    def test_bool_and_zero_dim(self):
        text, _ = self.render([2], lambda i: [True, False][i[0]], dtypes.BOOL)
        self.assertEqual(text, "[True, False]")
        text, n = self.render([], lambda i: 3.5)
        self.assertEqual((text, n), ("3.5000", 1))

    def test_empty(self):
        text, n = self.render([0, 4], lambda i: 0.0)
        self.assertEqual((text, n), ("[]", 0))

    def test_summary_reads_only_edges(self):
        # 10^8 elements: only 3+3 per dimension are read (the 200 ms budget).
        text, n = self.render([10000, 10000], lambda i: i[0] * 10000 + i[1], dtypes.INT)
        self.assertEqual(n, 36)
        self.assertTrue(text.startswith("[[0, 1, 2, ..., 9997, 9998, 9999], [10000, "))
        self.assertIn("], ..., [", text)

    def test_small_dims_are_not_cut(self):
        text, n = self.render([2, 1001], lambda i: i[1], dtypes.INT, edge=3)
        self.assertEqual(n, 12)
        self.assertEqual(text, "[[0, 1, 2, ..., 998, 999, 1000], [0, 1, 2, ..., 998, 999, 1000]]")

    def test_broadcast_view_is_cut_at_the_limit(self):
        # B10: torch.zeros(1).expand([2]*22): every dimension is <= 2*edgeitems, so
        # torch's rule alone keeps all 4 M elements; the summary stops at the limit.
        sizes = [2] * 22
        text, n = self.render(sizes, lambda i: 0.0)
        self.assertEqual(n, summarize.SUMMARY_LIMIT)
        self.assertEqual(text.count("0."), summarize.SUMMARY_LIMIT)
        self.assertTrue(text.startswith("[" * 22 + "0., 0.], [0., 0.]], "))
        self.assertTrue(text.endswith("], ...], ...]"))
        self.assertEqual(text.count("["), text.count("]"))
        # Index tuples are the first SUMMARY_LIMIT in row-major order.
        idx = summarize.shown_indices(sizes, True, 3, summarize.SUMMARY_LIMIT)
        self.assertEqual(idx[0], (0,) * 22)
        self.assertEqual(idx[-1], tuple(int(b) for b in format(summarize.SUMMARY_LIMIT - 1, "022b")))

    def test_limit_cut_text(self):
        idx = summarize.shown_indices([2, 2, 2], True, 3, 5)
        self.assertEqual(idx, [(0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1), (1, 0, 0)])
        fmt = summarize.formatter(dtypes.INT, [])
        values = {k: k[0] * 4 + k[1] * 2 + k[2] for k in idx}
        self.assertEqual(summarize.render([2, 2, 2], values, fmt, True, 3, 5),
                         "[[[0, 1], [2, 3]], [[4, ...], ...]]")
        # The cut next to a summary's own "...": one "..." only.
        idx = summarize.shown_indices([10, 10], True, 3, 8)
        values = {k: k[0] * 10 + k[1] for k in idx}
        self.assertEqual(summarize.render([10, 10], values, fmt, True, 3, 8),
                         "[[0, 1, 2, ..., 7, 8, 9], [10, 11, ...], ...]")
        idx = summarize.shown_indices([10, 10], True, 3, 6)
        values = {k: k[0] * 10 + k[1] for k in idx}
        self.assertEqual(summarize.render([10, 10], values, fmt, True, 3, 6),
                         "[[0, 1, 2, ..., 7, 8, 9], ...]")
        # A limit reached on the very last element cuts nothing.
        idx = summarize.shown_indices([2, 2], True, 3, 4)
        values = {k: k[0] * 2 + k[1] for k in idx}
        self.assertEqual(summarize.render([2, 2], values, fmt, True, 3, 4), "[[0, 1], [2, 3]]")

    def test_limit_keeps_summaries_of_five_dimensions(self):
        # [7]*5 summarised keeps 6**5 = 7776 elements, as torch prints them.
        text, n = self.render([7] * 5, lambda i: 1.0)
        self.assertEqual(n, 6 ** 5)
        self.assertNotIn("], ...]", text.replace("], ..., [", ""))
        # --full (no summary) is never cut (at most FULL_LIMIT elements, printers.py).
        self.assertIsNone(summarize.shown_limit(False))

    def test_huge_edge_costs_what_is_shown(self):
        idx = summarize.shown_indices([10 ** 12], True, 10 ** 11, 3)
        self.assertEqual(idx, [(0,), (1,), (2,)])

    def test_threshold_is_numel(self):
        self.assertFalse(summarize.should_summarize(1000, 1000))
        self.assertTrue(summarize.should_summarize(1001, 1000))

    def test_tensor_text_fields(self):
        t = summarize.tensor_text("[1]", "int64", [1], [1], 0, "cpu")
        self.assertEqual(t, "tensor([1], dtype=int64, shape=[1], strides=[1], device=cpu)")
        t = summarize.tensor_text("[1]", "int64", [1], [4], 2, "cpu")
        self.assertIn("offset=2, device=cpu", t)

    def test_element_offsets_respect_strides_and_offset(self):
        self.assertEqual(summarize.element_offsets([(0, 0), (2, 1)], [4, 1], 1), [1, 10])

    def test_sub_byte_location(self):
        # quint4x2 [2, 3]: 2 bytes per row, low nibble first.
        self.assertEqual(summarize.sub_byte_location((1, 2), [2, 3], 4), (3, 0))
        self.assertEqual(summarize.sub_byte_location((0, 1), [2, 3], 4), (0, 4))
        self.assertEqual(summarize.sub_byte_location((4,), [5], 2), (1, 0))


class Classification(unittest.TestCase):
    def test_names(self):
        cases = {
            "at::Tensor": classify.TENSOR,
            "at::TensorBase": classify.TENSOR,
            "c10::TensorImpl": classify.TENSOR_IMPL,
            "at::QTensorImpl": classify.TENSOR_IMPL,
            "c10::intrusive_ptr<c10::TensorImpl, c10::UndefinedTensorImpl>":
                classify.INTRUSIVE_TENSOR,
            "c10::intrusive_ptr<c10::StorageImpl, c10::detail::intrusive_target_default_null_type<c10::StorageImpl> >":
                classify.STORAGE_IMPL,
            "c10::ArrayRef<long>": classify.ARRAY_REF,
            "c10::SmallVector<long, 5u>": classify.SMALL_VECTOR,
            "c10::optional<c10::Device>": classify.OPTIONAL,
            "std::optional<at::Tensor>": classify.OPTIONAL,
            "c10::Scalar": classify.SCALAR,
            "c10::DispatchKeySet": classify.DISPATCH_KEY_SET,
            "c10::impl::SizesAndStrides": classify.SIZES_AND_STRIDES,
        }
        for name, kind in cases.items():
            self.assertEqual(classify.classify(name), kind, name)

    def test_not_ours(self):
        for name in ("std::optional<int>", "c10::optional<std::string>", "at::TensorIterator",
                     "int", "", None, "c10::intrusive_ptr<c10::ivalue::Tuple>"):
            self.assertIsNone(classify.classify(name), name)

    def test_pointers(self):
        self.assertEqual(classify.classify_pointer("c10::TensorImpl"), classify.TENSOR_IMPL_PTR)
        self.assertIsNone(classify.classify_pointer("at::Tensor"))

    def test_vtable_names(self):
        line = ("vtable for c10::TensorImpl + 16 in section .data.rel.ro of "
                "/lib/x86_64-linux-gnu/libc10.so.1.13")
        self.assertEqual(classify.vtable_class(line), "c10::TensorImpl")
        self.assertIsNone(classify.vtable_class("main_arena + 96 in section .data"))
        self.assertTrue(classify.is_tensor_impl_class("at::QTensorImpl"))
        self.assertTrue(classify.is_tensor_impl_class(
            "at::OpaqueTensorImpl<at::native::ideep::tensor>"))
        self.assertTrue(classify.is_tensor_impl_class("at::functionalization::FunctionalTensorWrapper"))
        self.assertFalse(classify.is_tensor_impl_class("c10::StorageImpl"))
        self.assertFalse(classify.is_tensor_impl_class(None))


if __name__ == "__main__":
    unittest.main()
