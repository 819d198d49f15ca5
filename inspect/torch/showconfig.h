/*
 * The text of torch.__config__.show() (= torch._C._show_config() = C++
 * at::show_config()) parsed into fields. Real pastes are indented, re-wrapped
 * by hand, cut short or in old formats (tests/fixtures/show_config/): every
 * line is kept, either in items (the "- ..." entries) or in unparsed.
 * No I/O here; the JSON form (report_config.c) is a contract, see
 * docs/ptinspect-config.1.
 */
#ifndef PT_SHOWCONFIG_H
#define PT_SHOWCONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "diag.h"

/* Input larger than this is refused: real texts are about 2 KB. */
#define SHOWCONFIG_MAX_LEN (4u * 1024 * 1024)

struct showconfig_kv {
	char *key;
	char *value;	/* verbatim, leading blanks kept, the separating ", " removed */
};

/* Every string is owned by the struct, NULL when the text did not say. */
struct showconfig {
	char **compilers;	/* "GCC 9.3", "clang 13.1.6", "MSVC 192930151", in order */
	size_t n_compilers;
	size_t a_compilers;
	char *cxx_version;	/* "201703" as printed */
	char *mkl;		/* "2024.2", the MKL version */
	char *mkldnn;		/* "v3.7.1", MKL-DNN / oneDNN */
	char *openmp;		/* "201511 (a.k.a. OpenMP 4.5)" */
	bool lapack;		/* "LAPACK is enabled" */
	bool nnpack;		/* "NNPACK is enabled" */
	char *cpu_capability;	/* "AVX2", "NO AVX" */
	char *cuda_runtime;	/* "12.8" */
	char *built_with_cuda_runtime;
	char *nvcc_flags;	/* the NVCC architecture flags text, wrapped lines joined */
	char **nvcc_sass;	/* "sm_80": real architectures, in order, unique */
	size_t n_nvcc_sass;
	size_t a_nvcc_sass;
	char **nvcc_ptx;	/* "compute_90": PTX embedded for JIT, in order, unique */
	size_t n_nvcc_ptx;
	size_t a_nvcc_ptx;
	char *arch_list;	/* the same as TORCH_CUDA_ARCH_LIST: "7.0;8.0;9.0+PTX" */
	char *cudnn;		/* as printed: "91.0.2" */
	char *cudnn_version;	/* decoded: "9.10.2" */
	char *cudnn_cuda;	/* "(built against CUDA 12.9)" -> "12.9" */
	char *built_with_cudnn;	/* as printed: "90.8" */
	char *built_with_cudnn_version;	/* decoded: "9.8" */
	char *magma;
	char *hip_runtime;
	char *miopen;
	char *xpu;		/* the text after "XPU" */
	struct showconfig_kv *settings;	/* "Build settings:", in order */
	size_t n_settings;
	size_t a_settings;
	char **items;		/* every "- ..." entry, wrapped lines joined, dash removed */
	size_t n_items;
	size_t a_items;
	char **unparsed;	/* every other non-blank line, verbatim */
	size_t n_unparsed;
	size_t a_unparsed;
	bool has_header;	/* "PyTorch built with:" seen */
	size_t n_known;		/* items that are entries torch prints (GCC, CUDA Runtime ...) */
};

/*
 * Whether the text is torch's configuration at all: its header, or at least
 * one entry torch prints. /etc/passwd is not.
 */
bool showconfig_is_config(const struct showconfig *c);

/*
 * Parse buf[0..len). Always fills *out (zeroed first); returns 0, or -1 when
 * the input is larger than SHOWCONFIG_MAX_LEN (PT_SEV_ERROR in diag, naming
 * file). Odd content is a PT_SEV_NOTE ("line 12: ...") and the line is kept in
 * unparsed. NUL bytes are read as '?'. Also read as people paste it: the
 * Python repr (one line, literal \n, maybe quoted: what the REPL shows for
 * torch.__config__.show()), lines hard-wrapped at a fixed width in the middle
 * of a word (continuations at the left margin), and two bullets on one line.
 */
int showconfig_parse(const uint8_t *buf, size_t len, struct showconfig *out, const char *file,
		     struct pt_diag *diag);

void showconfig_release(struct showconfig *c);

/* The value of a build setting, or NULL. */
const char *showconfig_setting(const struct showconfig *c, const char *key);

/*
 * Decode a cuDNN version as torch prints it. torch formats CUDNN_VERSION as
 * v/1000 "." v%1000/100 "." v%100, right for cuDNN 7/8 (8200 = 8.2.0) but
 * garbled for cuDNN 9's major*10000 scheme (91002 = 9.10.2 prints "91.0.2").
 * Returns a new string ("9.10.2"; two printed parts give "9.8"), or NULL when
 * s is not a version.
 */
char *showconfig_decode_cudnn(const char *s);

/*
 * sm_XY / compute_XY -> "X.Y" (sm_90a -> "9.0a", sm_120 -> "12.0") into out;
 * returns out, or NULL when name is not of that form.
 */
const char *showconfig_arch_dotted(const char *name, char *out, size_t n);

/* Read all of f (capped one byte past SHOWCONFIG_MAX_LEN) into a new string. 0 or -1. */
int showconfig_read_stream(FILE *f, char **out, size_t *len);

#endif
