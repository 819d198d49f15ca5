/* The symbol-version floor of an object: see verfloor.h. */
#include "verfloor.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "cmp.h"
#include "xalloc.h"

static const char *const family_names[VERFLOOR_N] = { "GLIBC", "GLIBCXX", "CXXABI", "GCC" };

const char *verfloor_family_name(enum verfloor_family f)
{
	return f < VERFLOOR_N ? family_names[f] : "?";
}

/* The number at *p (advancing it), or -1 when *p is not a digit. */
static long part(const char **p)
{
	long v = 0;

	if (**p < '0' || **p > '9')
		return -1;
	while (**p >= '0' && **p <= '9') {
		if (v < 100000000)
			v = v * 10 + (**p - '0');
		(*p)++;
	}
	return v;
}

int verfloor_cmp(const char *a, const char *b)
{
	const char *ua = strchr(a, '_'), *ub = strchr(b, '_');

	a = ua ? ua + 1 : a;
	b = ub ? ub + 1 : b;
	for (;;) {
		long x = part(&a), y = part(&b);

		if (x < 0 || y < 0) {
			/* A part that is not a number sorts after every number; two of them by name. */
			if (x >= 0)
				return -1;
			if (y >= 0)
				return 1;
			return strcmp(a, b);
		}
		if (x != y)
			return x < y ? -1 : 1;
		if (*a == '.' && *b == '.') {
			a++;
			b++;
			continue;
		}
		if (*a == '.')
			return 1;	/* 2.17.1 > 2.17 */
		if (*b == '.')
			return -1;
		return strcmp(a, b);
	}
}

const char *verfloor_arch_name(int machine, int cls, int data)
{
	switch (machine) {
	case EM_X86_64: return cls == ELFCLASS64 ? "x86_64" : NULL;
	case EM_386: return "i686";
	case EM_AARCH64: return "aarch64";
	case EM_PPC64: return data == ELFDATA2LSB ? "ppc64le" : "ppc64";
	case EM_S390: return "s390x";
	case EM_ARM: return "armv7l";
	case EM_RISCV: return "riscv64";
#ifdef EM_LOONGARCH
	case EM_LOONGARCH: return "loongarch64";
#endif
	default: return NULL;
	}
}

/* auditwheel leaves out the dynamic loader's requirements (elf_find_versioned_symbols). */
static bool skipped_file(const char *file)
{
	return !strncmp(file, "ld-linux", 8) || !strcmp(file, "ld64.so.2") || !strcmp(file, "ld64.so.1");
}

static bool is_musl(const struct elfobj *o)
{
	if (o->interp && strstr(o->interp, "ld-musl-"))
		return true;
	for (size_t i = 0; i < o->n_needed; i++)
		if (!strncmp(o->needed[i], "libc.musl-", 10))
			return true;
	return false;
}

void verfloor_compute(const struct elfobj *o, struct verfloor *f)
{
	size_t a = 0, n = 0;

	memset(f, 0, sizeof(*f));
	f->musl = is_musl(o);
	f->arch = verfloor_arch_name(o->machine, o->cls, o->data);
	for (size_t i = 0; i < o->n_verneed; i++) {
		const struct elf_verneed *vn = &o->verneed[i];

		if (!vn->file || skipped_file(vn->file))
			continue;
		for (size_t k = 0; k < vn->n; k++) {
			const char *v = vn->v[k].name;

			if (!v || !*v)
				continue;
			PT_GROW(f->versions, n, a);
			f->versions[n++] = pt_xstrdup(v);
			for (int fam = 0; fam < VERFLOOR_N; fam++) {
				size_t l = strlen(family_names[fam]);

				if (strncmp(v, family_names[fam], l) || v[l] != '_')
					continue;
				/* GLIBC_PRIVATE is no floor: it ties the file to one glibc build. */
				if (v[l + 1] < '0' || v[l + 1] > '9')
					continue;
				if (!f->max[fam] || verfloor_cmp(v, f->max[fam]) > 0) {
					free(f->max[fam]);
					free(f->max_file[fam]);
					f->max[fam] = pt_xstrdup(v);
					f->max_file[fam] = pt_xstrdup(vn->file);
				}
			}
		}
	}
	if (n > 1)
		qsort(f->versions, n, sizeof(*f->versions), pt_cmp_strp);
	/* unique */
	size_t u = 0;
	for (size_t i = 0; i < n; i++) {
		if (u && !strcmp(f->versions[u - 1], f->versions[i])) {
			free(f->versions[i]);
			continue;
		}
		f->versions[u++] = f->versions[i];
	}
	f->n_versions = u;
}

void verfloor_release(struct verfloor *f)
{
	for (int i = 0; i < VERFLOOR_N; i++) {
		free(f->max[i]);
		free(f->max_file[i]);
	}
	for (size_t i = 0; i < f->n_versions; i++)
		free(f->versions[i]);
	free(f->versions);
	memset(f, 0, sizeof(*f));
}
