/* fuzz-links: ptinspect_lib */
/*
 * libFuzzer target: a dynamic symbol table from hostile sections. The input
 * is cut into .dynsym, .dynstr, .gnu.version, .gnu.version_d,
 * .gnu.version_r and .gnu.hash by the lengths in its first 12 bytes; every
 * symbol is looked up in the result. The whole input is also read as
 * relocation entries (RELA and REL) against that many symbols.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "dynsym.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dynsym_sections s = { 0 };
	const uint8_t *p = data + 12;
	size_t left = size > 12 ? size - 12 : 0, len[6];
	const uint8_t **ptr[6] = { &s.dynsym, &s.dynstr, &s.versym, &s.verdef, &s.verneed, &s.gnu_hash };
	size_t *lp[6] = { &s.dynsym_len, &s.dynstr_len, &s.versym_len, &s.verdef_len, &s.verneed_len,
			  &s.gnu_hash_len };
	struct dynsym t;
	struct pt_diag d;

	if (size < 12)
		return 0;
	for (int i = 0; i < 6; i++) {
		len[i] = (size_t)(data[2 * i] | data[2 * i + 1] << 8);
		if (len[i] > left)
			len[i] = left;
		*ptr[i] = len[i] ? p : NULL;
		*lp[i] = len[i];
		p += len[i];
		left -= len[i];
	}
	s.big_endian = data[0] & 1;
	{
		bool used[64] = { false };

		dynsym_mark_relocs(data, size, true, s.big_endian, used, data[1] % 65);
		dynsym_mark_relocs(data, size, false, s.big_endian, used, data[1] % 65);
	}
	pt_diag_init(&d);
	if (dynsym_init(&t, &s, "fuzz", &d) == 0) {
		for (size_t i = 1; i < t.n_syms && i < 4096; i++) {
			struct dynsym_sym y;

			dynsym_get(&t, i, &y);
			dynsym_find(&t, y.name, dynsym_hash(y.name), NULL);
			dynsym_find(&t, y.name, dynsym_hash(y.name), "V1");
		}
		dynsym_release(&t);
	}
	pt_diag_release(&d);
	return 0;
}
