/* fuzz-links: ptinspect_lib */
/*
 * libFuzzer target: the fat binary walker (fatbin_parse) and the payload
 * inspector over arbitrary bytes, and, when the bytes are an ELF file, the
 * whole-file scan (cuda_scan over elfobj_open_mem) with --verify.
 */
#include <stddef.h>
#include <stdint.h>

#include "elfobj.h"
#include "fatbin.h"
#include "fatbin_scan.h"
#include "fatbin_unpack.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fatbin_entries l = { 0 };
	struct fatbin_unpack_info info;
	struct pt_diag d;
	struct elfobj o;
	const char *why;

	pt_diag_init(&d);
	fatbin_parse(data, size, &l, "fuzz", &d);
	fatbin_entries_release(&l);
	fatbin_unpack_inspect(FATBIN_KIND_ELF, data, size, &info, &why);
	fatbin_unpack_inspect(FATBIN_KIND_PTX, data, size, &info, &why);
	if (size >= 4 && data[0] == 0x7f) {
		if (elfobj_open_mem(&o, "fuzz", data, size, &d) == 0) {
			struct cuda_scan s;
			struct cuda_verify v;

			cuda_scan(&o, 0, &s, &d);
			cuda_scan_verify(&o, &s, &v, &d);
			cuda_verify_release(&v);
			cuda_scan_release(&s);
		}
		elfobj_release(&o);
	}
	pt_diag_release(&d);
	return 0;
}
