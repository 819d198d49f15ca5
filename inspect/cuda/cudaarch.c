/* CUDA architecture rules, names and spellings; see cudaarch.h. */
#include "cudaarch.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numparse.h"
#include "strbuf.h"
#include "xalloc.h"

/* docs/formats/cuda-fatbin.md §12, from NVIDIA's CUDA GPUs page. Keys are normalised names. */
static const struct gpu_name {
	const char *key;
	int major, minor;
} gpu_names[] = {
	{ "gb10", 12, 1 }, { "dgxspark", 12, 1 },
	{ "rtx5090", 12, 0 }, { "rtx5080", 12, 0 }, { "rtx5070ti", 12, 0 }, { "rtx5070", 12, 0 },
	{ "rtx5060ti", 12, 0 }, { "rtx5060", 12, 0 }, { "rtx5050", 12, 0 },
	{ "rtxpro6000", 12, 0 }, { "rtxpro5000", 12, 0 }, { "rtxpro4500", 12, 0 },
	{ "rtxpro4000", 12, 0 }, { "rtxpro2000", 12, 0 },
	{ "thor", 11, 0 }, { "t5000", 11, 0 }, { "t4000", 11, 0 },
	{ "gb300", 10, 3 }, { "b300", 10, 3 },
	{ "gb200", 10, 0 }, { "b200", 10, 0 },
	{ "gh200", 9, 0 }, { "h200", 9, 0 }, { "h100", 9, 0 }, { "h800", 9, 0 },
	{ "l4", 8, 9 }, { "l40", 8, 9 }, { "l40s", 8, 9 }, { "rtx6000ada", 8, 9 },
	{ "rtx4090", 8, 9 }, { "rtx4080", 8, 9 }, { "rtx4070ti", 8, 9 }, { "rtx4070", 8, 9 },
	{ "rtx4060ti", 8, 9 }, { "rtx4060", 8, 9 }, { "rtx4050", 8, 9 },
	{ "orin", 8, 7 }, { "agxorin", 8, 7 }, { "orinnx", 8, 7 }, { "orinnano", 8, 7 },
	{ "a40", 8, 6 }, { "a10", 8, 6 }, { "a16", 8, 6 }, { "a2", 8, 6 },
	{ "rtxa6000", 8, 6 }, { "a6000", 8, 6 }, { "rtxa5000", 8, 6 }, { "a5000", 8, 6 },
	{ "rtxa4000", 8, 6 }, { "a4000", 8, 6 }, { "rtxa3000", 8, 6 }, { "rtxa2000", 8, 6 },
	{ "rtx3090ti", 8, 6 }, { "rtx3090", 8, 6 }, { "rtx3080ti", 8, 6 }, { "rtx3080", 8, 6 },
	{ "rtx3070ti", 8, 6 }, { "rtx3070", 8, 6 }, { "rtx3060ti", 8, 6 }, { "rtx3060", 8, 6 },
	{ "rtx3050", 8, 6 },
	{ "a100", 8, 0 }, { "a30", 8, 0 }, { "a800", 8, 0 },
	{ "t4", 7, 5 }, { "quadrortx", 7, 5 }, { "titanrtx", 7, 5 }, { "rtx2080ti", 7, 5 },
	{ "rtx2080", 7, 5 }, { "rtx2070", 7, 5 }, { "rtx2060", 7, 5 },
	{ "v100", 7, 0 }, { "gv100", 7, 0 }, { "titanv", 7, 0 },
	{ "xavier", 7, 2 }, { "agxxavier", 7, 2 }, { "xaviernx", 7, 2 },
	{ "tx2", 6, 2 },
	{ "p40", 6, 1 }, { "p4", 6, 1 }, { "titanxp", 6, 1 }, { "gtx1080ti", 6, 1 },
	{ "gtx1080", 6, 1 }, { "gtx1070", 6, 1 }, { "gtx1060", 6, 1 }, { "gtx1050", 6, 1 },
	{ "p100", 6, 0 },
	{ "tx1", 5, 3 }, { "nano", 5, 3 },
	{ "m40", 5, 2 }, { "m60", 5, 2 }, { "gtx980", 5, 2 }, { "gtx970", 5, 2 },
	{ "gtx750ti", 5, 0 }, { "m10", 5, 0 },
	{ "k80", 3, 7 }, { "k40", 3, 5 }, { "k20", 3, 5 },
};

/* Lower case without spaces and dashes into key; NULL if it does not fit. */
static char *squash(const char *s, char *key, size_t n)
{
	size_t k = 0;

	for (; *s && k + 1 < n; s++) {
		if (*s == ' ' || *s == '-')
			continue;
		key[k++] = (char)tolower((unsigned char)*s);
	}
	key[k] = '\0';
	return *s ? NULL : key;
}

/* Past the vendor and product-line words: "nvidiageforcertx4090" → "rtx4090". */
static const char *strip_vendor(const char *p)
{
	if (!strncmp(p, "nvidia", 6))
		p += 6;
	if (!strncmp(p, "geforce", 7))
		p += 7;
	else if (!strncmp(p, "tesla", 5))
		p += 5;
	else if (!strncmp(p, "jetson", 6))
		p += 6;
	return p;
}

int cudaarch_model_cc(const char *model, struct cuda_cc *cc)
{
	char key[128];
	const char *p;
	size_t best = 0;

	if (!squash(model, key, sizeof(key)))
		return -1;
	p = strip_vendor(key);
	for (size_t i = 0; i < PT_ARRAY_SIZE(gpu_names); i++) {
		size_t l = strlen(gpu_names[i].key);

		if (l > best && !strncmp(p, gpu_names[i].key, l)) {
			best = l;
			cc->major = gpu_names[i].major;
			cc->minor = gpu_names[i].minor;
		}
	}
	return best ? 0 : -1;
}

/*
 * Every compute capability that exists: what NVIDIA has shipped (its CUDA
 * GPUs page, docs/formats/cuda-fatbin.md §12) and what nvcc targets (nvcc 13.0
 * --list-gpu-code adds sm_88; 10.1 is Jetson Thor as CUDA 12.8 and 12.9
 * numbered it, 11.0 since CUDA 13.0). --gpu refuses anything else. This is
 * the one list: the names above must each map to a capability here (a unit
 * test checks), and the report's labels come from it.
 */
static const struct cuda_cc_info known_ccs[] = {
	{ 1, 0, "Tesla", "GeForce 8800 GTX" },
	{ 1, 1, "Tesla", "GeForce 9800 GT" },
	{ 1, 2, "Tesla", "GeForce GT 240" },
	{ 1, 3, "Tesla", "GeForce GTX 280, Tesla C1060" },
	{ 2, 0, "Fermi", "GTX 480/580, Tesla C2050" },
	{ 2, 1, "Fermi", "GTX 460/560" },
	{ 3, 0, "Kepler", "GTX 680/770, Tesla K10" },
	{ 3, 2, "Kepler", "Jetson TK1" },
	{ 3, 5, "Kepler", "K20/K40, GTX 780/TITAN" },
	{ 3, 7, "Kepler", "K80" },
	{ 5, 0, "Maxwell", "GTX 750 Ti, Tesla M10" },
	{ 5, 2, "Maxwell", "GTX 970/980, M40/M60" },
	{ 5, 3, "Maxwell", "Jetson TX1/Nano" },
	{ 6, 0, "Pascal", "P100" },
	{ 6, 1, "Pascal", "GTX 1080/1070/1060, P40/P4" },
	{ 6, 2, "Pascal", "Jetson TX2" },
	{ 7, 0, "Volta", "V100" },
	{ 7, 2, "Volta", "Jetson Xavier" },
	{ 7, 5, "Turing", "T4/RTX 2080" },
	{ 8, 0, "Ampere", "A100/A30" },
	{ 8, 6, "Ampere", "A10/A40/RTX 3090" },
	{ 8, 7, "Ampere", "Jetson Orin" },
	{ 8, 8, NULL, NULL },
	{ 8, 9, "Ada", "L4/L40/RTX 4090" },
	{ 9, 0, "Hopper", "H100/H200/GH200" },
	{ 10, 0, "Blackwell", "B200/GB200" },
	{ 10, 1, "Blackwell", "Jetson Thor (CUDA 12.8/12.9 numbering)" },
	{ 10, 3, "Blackwell", "B300/GB300" },
	{ 11, 0, "Blackwell", "Jetson Thor" },
	{ 12, 0, "Blackwell", "RTX 5090/5080/5070, RTX PRO Blackwell" },
	{ 12, 1, "Blackwell", "GB10" },
};

size_t cudaarch_known_ccs(const struct cuda_cc_info **v)
{
	*v = known_ccs;
	return PT_ARRAY_SIZE(known_ccs);
}

const struct cuda_cc_info *cudaarch_cc_info(struct cuda_cc cc)
{
	for (size_t i = 0; i < PT_ARRAY_SIZE(known_ccs); i++)
		if (known_ccs[i].major == cc.major && known_ccs[i].minor == cc.minor)
			return &known_ccs[i];
	return NULL;
}

void cudaarch_cc_neighbours(struct cuda_cc cc, const struct cuda_cc_info **below,
			    const struct cuda_cc_info **above)
{
	size_t n = PT_ARRAY_SIZE(known_ccs);
	int want = cc.major * 10 + cc.minor;

	*below = *above = NULL;
	for (size_t i = 0; i < n; i++) {
		int k = known_ccs[i].major * 10 + known_ccs[i].minor;

		if (k < want)
			*below = &known_ccs[i];
		else if (k > want && !*above)
			*above = &known_ccs[i];
	}
}

const char *cudaarch_gpu_names(struct cuda_cc cc)
{
	const struct cuda_cc_info *i = cudaarch_cc_info(cc);

	return i ? i->names : NULL;
}

/* "8.6" / "86" / "120" (digits only or with one dot) into cc. */
static int parse_number(const char *s, struct cuda_cc *cc)
{
	size_t n = strlen(s);
	const char *dot = strchr(s, '.');

	if (n == 0 || strspn(s, "0123456789.") != n)
		return -1;
	if (dot) {
		uint64_t ma, mi;

		if (pt_dec_u64(s, n, 99, &ma) != dot - s || dot == s ||
		    pt_dec_u64_all(dot + 1, strlen(dot + 1), 9, &mi) < 0)
			return -1;
		cc->major = (int)ma;
		cc->minor = (int)mi;
		return 0;
	}
	/* Without a dot the last digit is the minor: 86 → 8.6, 120 → 12.0 (the fatbin's arch). */
	if (n < 2 || n > 3)
		return -1;
	uint64_t v;

	pt_dec_scan(s, n, UINT64_MAX, &v);
	cc->major = (int)(v / 10);
	cc->minor = (int)(v % 10);
	return 0;
}

static int parse_gpu(const char *s, struct cuda_cc *cc);

int cudaarch_parse_gpu(const char *s, struct cuda_cc *cc)
{
	if (parse_gpu(s, cc) != 0)
		return -1;
	return cudaarch_cc_info(*cc) ? 0 : -2;
}

static int parse_gpu(const char *s, struct cuda_cc *cc)
{
	char key[64];
	char *p = squash(s, key, sizeof(key));

	/* An empty name is no GPU (and gcc -O3 -Wstring-compare wants that path gone). */
	if (!p || !*p)
		return -1;
	if (!strncmp(p, "sm_", 3) || !strncmp(p, "sm", 2) || !strncmp(p, "compute_", 8)) {
		p += p[0] == 'c' ? 8 : p[2] == '_' ? 3 : 2;
		/* sm_90a, compute_100f: the variant says nothing about the GPU. */
		size_t l = strlen(p);
		if (l > 0 && (p[l - 1] == 'a' || p[l - 1] == 'f'))
			p[l - 1] = '\0';
		return strchr(p, '.') ? -1 : parse_number(p, cc);
	}
	if (isdigit((unsigned char)*p))
		return parse_number(p, cc);
	p = (char *)strip_vendor(p);
	for (size_t i = 0; i < PT_ARRAY_SIZE(gpu_names); i++) {
		if (!strcmp(p, gpu_names[i].key)) {
			cc->major = gpu_names[i].major;
			cc->minor = gpu_names[i].minor;
			return 0;
		}
	}
	return -1;
}

const char *cudaarch_target_name(const struct cuda_target *t, char *buf, size_t n)
{
	const char *pre;
	char v[2] = { t->variant, '\0' };

	switch (t->kind) {
	case FATBIN_KIND_ELF: pre = "sm_"; break;
	case FATBIN_KIND_PTX: pre = "compute_"; break;
	case FATBIN_KIND_LTO: pre = "lto_"; break;
	default:
		pt_fmt_trunc(buf, n, "kind%u_%u%s", t->kind, t->arch, v);
		return buf;
	}
	pt_fmt_trunc(buf, n, "%s%u%s", pre, t->arch, v);
	return buf;
}

const char *cudaarch_how_name(enum cuda_how h)
{
	switch (h) {
	case CUDA_RUN_SASS_EXACT: return "sass_exact";
	case CUDA_RUN_SASS_COMPAT: return "sass_compatible";
	case CUDA_RUN_PTX_JIT: return "ptx_jit";
	default: return "none";
	}
}

enum cuda_how cudaarch_how(const struct cuda_target *t, struct cuda_cc cc)
{
	uint32_t want = (uint32_t)(cc.major * 10 + cc.minor);
	uint32_t amaj = t->arch / 10, amin = t->arch % 10;

	if (t->kind == FATBIN_KIND_ELF) {
		/* "forward-compatible only with GPU architectures of the same major version". */
		if (t->variant == 'a')
			return t->arch == want ? CUDA_RUN_SASS_EXACT : CUDA_RUN_NONE;
		if (amaj != (uint32_t)cc.major || amin > (uint32_t)cc.minor)
			return CUDA_RUN_NONE;
		return t->arch == want ? CUDA_RUN_SASS_EXACT : CUDA_RUN_SASS_COMPAT;
	}
	if (t->kind == FATBIN_KIND_PTX) {
		/* ptxas 13.0 matrix, §11: `a` PTX only for its own target, `f` within its family. */
		if (t->variant == 'a')
			return t->arch == want ? CUDA_RUN_PTX_JIT : CUDA_RUN_NONE;
		if (t->variant == 'f')
			return amaj == (uint32_t)cc.major && amin <= (uint32_t)cc.minor ? CUDA_RUN_PTX_JIT
											 : CUDA_RUN_NONE;
		return t->arch <= want ? CUDA_RUN_PTX_JIT : CUDA_RUN_NONE;
	}
	return CUDA_RUN_NONE;
}

const char *cudaarch_ptx_min_driver(unsigned major, unsigned minor, char *buf, size_t n)
{
	/* §11 "Driver vs PTX ISA", NVIDIA's table; there is no ISA for CUDA 12.6. */
	static const struct { unsigned maj, min, cmaj, cmin; } t[] = {
		{ 6, 0, 9, 0 }, { 6, 1, 9, 1 }, { 6, 2, 9, 2 }, { 6, 3, 10, 0 }, { 6, 4, 10, 1 },
		{ 6, 5, 10, 2 }, { 8, 6, 12, 7 }, { 8, 7, 12, 8 }, { 8, 8, 12, 9 },
		{ 9, 0, 13, 0 }, { 9, 1, 13, 1 },
	};

	if (major == 7 && minor <= 8) {
		pt_fmt_trunc(buf, n, "11.%u", minor);
		return buf;
	}
	if (major == 8 && minor <= 5) {
		pt_fmt_trunc(buf, n, "12.%u", minor);
		return buf;
	}
	for (size_t i = 0; i < PT_ARRAY_SIZE(t); i++) {
		if (t[i].maj == major && t[i].min == minor) {
			pt_fmt_trunc(buf, n, "%u.%u", t[i].cmaj, t[i].cmin);
			return buf;
		}
	}
	if (major < 6) {
		pt_fmt_trunc(buf, n, "9.0");	/* older than any driver that runs CUDA 13 code */
		return buf;
	}
	return NULL;
}

static int kind_rank(unsigned kind)
{
	switch (kind) {
	case FATBIN_KIND_ELF: return 0;
	case FATBIN_KIND_PTX: return 1;
	case FATBIN_KIND_LTO: return 2;
	default: return 3;
	}
}

static int variant_rank(char v)
{
	return v == 'a' ? 1 : v == 'f' ? 2 : v ? 3 : 0;
}

static int target_cmp(const struct cuda_target *a, const struct cuda_target *b)
{
	int ka = kind_rank(a->kind), kb = kind_rank(b->kind);

	if (ka != kb)
		return ka - kb;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->arch != b->arch)
		return a->arch < b->arch ? -1 : 1;
	return variant_rank(a->variant) - variant_rank(b->variant);
}

void cudaarch_summary_add(struct cuda_summary *s, const struct fatbin_entry *e)
{
	cudaarch_summary_add_unit(s, e, 0);
}

void cudaarch_summary_add_unit(struct cuda_summary *s, const struct fatbin_entry *e, size_t unit)
{
	struct cuda_target t = { e->kind, e->arch, e->variant };
	size_t lo = 0, hi = s->n;
	struct cuda_target_sum *x;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = target_cmp(&s->v[mid].t, &t);

		if (c == 0) {
			lo = mid;
			goto found;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	PT_GROW(s->v, s->n, s->alloc);
	memmove(&s->v[lo + 1], &s->v[lo], (s->n - lo) * sizeof(s->v[0]));
	s->n++;
	memset(&s->v[lo], 0, sizeof(s->v[0]));
	s->v[lo].t = t;
found:
	x = &s->v[lo];
	if (s->last_unit != unit + 1) {
		s->last_unit = unit + 1;
		s->n_units++;
	}
	if (x->last_unit != unit + 1) {
		x->last_unit = unit + 1;
		x->units++;
	}
	x->count++;
	x->stored += e->header_size + e->payload_size;
	x->uncompressed += e->comp != FATBIN_COMP_NONE ? e->uncompressed_size : e->payload_size;
	if (e->major > x->isa_major || (e->major == x->isa_major && e->minor > x->isa_minor)) {
		x->isa_major = e->major;
		x->isa_minor = e->minor;
	}
}

void cudaarch_summary_release(struct cuda_summary *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static const struct cuda_target_sum *find(const struct cuda_summary *s, unsigned kind,
					  uint32_t arch, char variant)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].t.kind == kind && s->v[i].t.arch == arch && s->v[i].t.variant == variant)
			return &s->v[i];
	return NULL;
}

char *cudaarch_arch_list(const struct cuda_summary *s, size_t *ptx_only)
{
	struct pt_strbuf sb;
	size_t lonely = 0;

	pt_strbuf_init(&sb, 1 << 16);
	for (size_t i = 0; i < s->n; i++) {
		const struct cuda_target *t = &s->v[i].t;

		if (t->kind == FATBIN_KIND_PTX && !find(s, FATBIN_KIND_ELF, t->arch, t->variant))
			lonely++;
		if (t->kind != FATBIN_KIND_ELF)
			continue;
		pt_strbuf_addf_trunc(&sb, "%s%u.%u%s%s", sb.len ? ";" : "", t->arch / 10, t->arch % 10,
			       t->variant == 'a' ? "a" : t->variant == 'f' ? "f" : "",
			       find(s, FATBIN_KIND_PTX, t->arch, t->variant) ? "+PTX" : "");
	}
	if (ptx_only)
		*ptx_only = lonely;
	return sb.buf ? pt_strbuf_detach(&sb) : pt_xstrdup("");
}

/*
 * 1 when x is not a few units' own: at least a tenth of them hold it. A
 * torch library's extra sm_90a is in 2 of 341 fat binaries; NVIDIA's
 * libraries build each kernel for its own set, where a target in a sixth of
 * them is still one the library was built for.
 */
static bool in_most(const struct cuda_summary *s, const struct cuda_target_sum *x)
{
	return x && x->units * 10 >= s->n_units;
}

char *cudaarch_arch_list_most(const struct cuda_summary *s, size_t *ptx_only, char **extra,
			      bool *no_majority)
{
	struct pt_strbuf sb, ex;
	size_t lonely = 0;
	bool any = false;

	*extra = NULL;
	*no_majority = false;
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].t.kind == FATBIN_KIND_ELF && in_most(s, &s->v[i]))
			any = true;
	if (!any) {
		for (size_t i = 0; i < s->n; i++)
			if (s->v[i].t.kind == FATBIN_KIND_ELF)
				*no_majority = true;
		return cudaarch_arch_list(s, ptx_only);
	}
	pt_strbuf_init(&sb, 1 << 16);
	pt_strbuf_init(&ex, 1 << 16);
	for (size_t i = 0; i < s->n; i++) {
		const struct cuda_target *t = &s->v[i].t;
		const struct cuda_target_sum *ptx;
		char name[32];

		if (t->kind != FATBIN_KIND_ELF && t->kind != FATBIN_KIND_PTX)
			continue;
		if (!in_most(s, &s->v[i])) {
			pt_strbuf_addf_trunc(&ex, "%s%s (%zu)", ex.len ? ", " : "",
					     cudaarch_target_name(t, name, sizeof(name)), s->v[i].units);
			continue;
		}
		if (t->kind == FATBIN_KIND_PTX) {
			if (!in_most(s, find(s, FATBIN_KIND_ELF, t->arch, t->variant)))
				lonely++;
			continue;
		}
		ptx = find(s, FATBIN_KIND_PTX, t->arch, t->variant);
		pt_strbuf_addf_trunc(&sb, "%s%u.%u%s%s", sb.len ? ";" : "", t->arch / 10, t->arch % 10,
				     t->variant == 'a' ? "a" : t->variant == 'f' ? "f" : "",
				     in_most(s, ptx) ? "+PTX" : "");
	}
	if (ptx_only)
		*ptx_only = lonely;
	if (ex.len)
		*extra = pt_strbuf_detach(&ex);
	else
		pt_strbuf_release(&ex);
	return sb.buf ? pt_strbuf_detach(&sb) : pt_xstrdup("");
}

char *cudaarch_gencode(const struct cuda_summary *s)
{
	struct pt_strbuf sb;

	pt_strbuf_init(&sb, 1 << 16);
	for (size_t i = 0; i < s->n; i++) {
		const struct cuda_target *t = &s->v[i].t;
		char code[32];

		if (t->kind != FATBIN_KIND_ELF && t->kind != FATBIN_KIND_PTX && t->kind != FATBIN_KIND_LTO)
			continue;
		cudaarch_target_name(t, code, sizeof(code));
		pt_strbuf_addf_trunc(&sb, "%s-gencode arch=compute_%u%s,code=%s", sb.len ? " " : "", t->arch,
			       t->variant == 'a' ? "a" : t->variant == 'f' ? "f" : "", code);
	}
	return sb.buf ? pt_strbuf_detach(&sb) : pt_xstrdup("");
}

void cudaarch_apply_driver(struct cuda_verdict *v, int driver_cuda)
{
	char buf[16];
	const char *need;
	unsigned ma, mi;

	v->driver_cuda = driver_cuda;
	if (!driver_cuda || v->how != CUDA_RUN_PTX_JIT)
		return;
	need = cudaarch_ptx_min_driver(v->isa_major, v->isa_minor, buf, sizeof(buf));
	if (need && sscanf(need, "%u.%u", &ma, &mi) == 2 && (int)(ma * 1000 + mi * 10) <= driver_cuda)
		return;
	v->how = CUDA_RUN_NONE;
	v->jit_blocked = true;
	/* torch's warnings are then right: they are flagged only where they are false. */
	v->torch_range_warning = v->torch_cubin_warning = false;
}

void cudaarch_verdict(const struct cuda_summary *s, struct cuda_cc cc, struct cuda_verdict *v)
{
	uint32_t want = (uint32_t)(cc.major * 10 + cc.minor);
	bool sm_major = false;

	memset(v, 0, sizeof(*v));
	v->cc = cc;
	for (size_t i = 0; i < s->n; i++) {
		const struct cuda_target_sum *x = &s->v[i];
		enum cuda_how h = cudaarch_how(&x->t, cc);

		if (x->t.kind == FATBIN_KIND_ELF || x->t.kind == FATBIN_KIND_PTX) {
			if (!v->arch_min || x->t.arch < v->arch_min)
				v->arch_min = x->t.arch;
			if (x->t.arch > v->arch_max)
				v->arch_max = x->t.arch;
		}
		if (x->t.kind == FATBIN_KIND_ELF && x->t.arch / 10 == (uint32_t)cc.major)
			sm_major = true;
		if (h == CUDA_RUN_NONE)
			continue;
		if (x->t.kind == FATBIN_KIND_ELF) {
			/* The cubin closest to the device wins: the highest eligible arch. */
			if (h > v->how || (h == v->how && x->t.arch > v->sass.arch)) {
				v->how = h;
				v->sass = x->t;
			}
		} else if (x->t.kind == FATBIN_KIND_PTX) {
			if (!v->has_ptx || x->t.arch > v->ptx.arch ||
			    (x->t.arch == v->ptx.arch && x->t.variant && !v->ptx.variant)) {
				v->has_ptx = true;
				v->ptx = x->t;
				v->isa_major = x->isa_major;
				v->isa_minor = x->isa_minor;
			}
		}
	}
	if (v->how == CUDA_RUN_NONE && v->has_ptx)
		v->how = CUDA_RUN_PTX_JIT;
	if (v->how != CUDA_RUN_NONE && v->arch_max &&
	    (want < v->arch_min || want > v->arch_max))
		v->torch_range_warning = true;
	if (v->how != CUDA_RUN_NONE && !sm_major)
		v->torch_cubin_warning = true;
}
