/* Text and JSON of a parsed build configuration; see report_config.h. */
#include "report_config.h"

#include <string.h>

#include "jsonout.h"
#include "strbuf.h"
#include "term.h"
#include "xalloc.h"

const char *report_cxx_name(const char *v)
{
	static const struct { const char *num, *name; } t[] = {
		{ "199711", "C++98 (MSVC reports this without /Zc:__cplusplus)" },
		{ "201103", "C++11" }, { "201402", "C++14" }, { "201703", "C++17" },
		{ "202002", "C++20" }, { "202302", "C++23" },
	};

	for (size_t i = 0; v && i < PT_ARRAY_SIZE(t); i++)
		if (!strcmp(v, t[i].num))
			return t[i].name;
	return NULL;
}

json_t *report_config_json(const struct showconfig *c)
{
	json_t *j = json_object(), *bs = json_object();

	json_object_set_new(j, "compiler", pt_json_str(c->n_compilers ? c->compilers[0] : NULL));
	json_object_set_new(j, "compilers", pt_json_strv(c->compilers, c->n_compilers));
	json_object_set_new(j, "cxx_version", pt_json_str(c->cxx_version));
	json_object_set_new(j, "mkl", pt_json_str(c->mkl));
	json_object_set_new(j, "mkldnn", pt_json_str(c->mkldnn));
	json_object_set_new(j, "openmp", pt_json_str(c->openmp));
	json_object_set_new(j, "lapack", json_boolean(c->lapack));
	json_object_set_new(j, "nnpack", json_boolean(c->nnpack));
	json_object_set_new(j, "blas", pt_json_str(showconfig_setting(c, "BLAS_INFO")
						     ? showconfig_setting(c, "BLAS_INFO")
						     : showconfig_setting(c, "BLAS")));
	json_object_set_new(j, "cpu_capability", pt_json_str(c->cpu_capability));
	json_object_set_new(j, "cuda_runtime", pt_json_str(c->cuda_runtime));
	json_object_set_new(j, "built_with_cuda_runtime", pt_json_str(c->built_with_cuda_runtime));
	json_object_set_new(j, "nvcc_flags", pt_json_str(c->nvcc_flags));
	json_object_set_new(j, "nvcc_sass", pt_json_strv(c->nvcc_sass, c->n_nvcc_sass));
	json_object_set_new(j, "nvcc_ptx", pt_json_strv(c->nvcc_ptx, c->n_nvcc_ptx));
	json_object_set_new(j, "arch_list", pt_json_str(c->arch_list));
	json_object_set_new(j, "cudnn", pt_json_str(c->cudnn));
	json_object_set_new(j, "cudnn_version", pt_json_str(c->cudnn_version));
	json_object_set_new(j, "cudnn_cuda", pt_json_str(c->cudnn_cuda));
	json_object_set_new(j, "built_with_cudnn", pt_json_str(c->built_with_cudnn));
	json_object_set_new(j, "built_with_cudnn_version", pt_json_str(c->built_with_cudnn_version));
	json_object_set_new(j, "magma", pt_json_str(c->magma));
	json_object_set_new(j, "hip_runtime", pt_json_str(c->hip_runtime));
	json_object_set_new(j, "miopen", pt_json_str(c->miopen));
	json_object_set_new(j, "xpu", pt_json_str(c->xpu));
	/* A repeated key keeps its first position and its last value. */
	for (size_t i = 0; i < c->n_settings; i++)
		json_object_set_new(bs, c->settings[i].key, pt_json_str(c->settings[i].value));
	json_object_set_new(j, "build_settings", bs);
	json_object_set_new(j, "items", pt_json_strv(c->items, c->n_items));
	json_object_set_new(j, "unparsed", pt_json_strv(c->unparsed, c->n_unparsed));
	return j;
}

static void row(FILE *f, int indent, const char *label, const char *v)
{
	if (v && *v)
		fprintf(f, "%*s%-24s %s\n", indent, "", label, v);
}

void report_config_text(FILE *f, const struct showconfig *c, int indent, const struct pt_style *st)
{
	char buf[256];
	int col = st ? st->color : 0;

	for (size_t i = 0; i < c->n_compilers; i++)
		row(f, indent, i ? "" : "compiler", c->compilers[i]);
	if (c->cxx_version) {
		const char *n = report_cxx_name(c->cxx_version);

		pt_fmt_trunc(buf, sizeof(buf), "%s%s%s%s", c->cxx_version, n ? " (" : "", n ? n : "",
			 n ? ")" : "");
		row(f, indent, "C++ standard", buf);
	}
	row(f, indent, "build type", showconfig_setting(c, "BUILD_TYPE"));
	row(f, indent, "torch version", showconfig_setting(c, "TORCH_VERSION"));
	row(f, indent, "commit", showconfig_setting(c, "COMMIT_SHA"));
	row(f, indent, "BLAS", showconfig_setting(c, "BLAS_INFO") ? showconfig_setting(c, "BLAS_INFO")
								 : showconfig_setting(c, "BLAS"));
	row(f, indent, "LAPACK", c->lapack ? (showconfig_setting(c, "LAPACK_INFO")
					      ? showconfig_setting(c, "LAPACK_INFO") : "enabled")
					   : NULL);
	row(f, indent, "MKL", c->mkl);
	row(f, indent, "MKL-DNN/oneDNN", c->mkldnn);
	row(f, indent, "OpenMP", c->openmp);
	row(f, indent, "NNPACK", c->nnpack ? "enabled" : NULL);
	row(f, indent, "CPU capability", c->cpu_capability);
	row(f, indent, "CUDA runtime", c->cuda_runtime);
	row(f, indent, "built with CUDA runtime", c->built_with_cuda_runtime);
	if (c->n_nvcc_sass || c->n_nvcc_ptx) {
		struct pt_strbuf sb;

		pt_strbuf_init(&sb, 4096);
		for (size_t i = 0; i < c->n_nvcc_sass; i++)
			pt_strbuf_addf_trunc(&sb, "%s%s", i ? " " : "", c->nvcc_sass[i]);
		row(f, indent, "SASS", sb.len ? pt_strbuf_str(&sb) : "none");
		pt_strbuf_reset(&sb);
		for (size_t i = 0; i < c->n_nvcc_ptx; i++)
			pt_strbuf_addf_trunc(&sb, "%s%s", i ? " " : "", c->nvcc_ptx[i]);
		row(f, indent, "PTX", sb.len ? pt_strbuf_str(&sb) : "none");
		pt_strbuf_release(&sb);
		row(f, indent, "TORCH_CUDA_ARCH_LIST", c->arch_list);
	}
	if (c->cudnn) {
		if (c->cudnn_version && strcmp(c->cudnn_version, c->cudnn))
			pt_fmt_trunc(buf, sizeof(buf), "%s (printed as %s)", c->cudnn_version, c->cudnn);
		else
			pt_fmt_trunc(buf, sizeof(buf), "%s", c->cudnn);
		row(f, indent, "cuDNN", buf);
		row(f, indent, "cuDNN built against CUDA", c->cudnn_cuda);
	}
	if (c->built_with_cudnn) {
		if (c->built_with_cudnn_version && strcmp(c->built_with_cudnn_version, c->built_with_cudnn))
			pt_fmt_trunc(buf, sizeof(buf), "%s (printed as %s)", c->built_with_cudnn_version,
				 c->built_with_cudnn);
		else
			pt_fmt_trunc(buf, sizeof(buf), "%s", c->built_with_cudnn);
		row(f, indent, "built with cuDNN", buf);
	}
	row(f, indent, "Magma", c->magma);
	row(f, indent, "HIP runtime", c->hip_runtime);
	row(f, indent, "MIOpen", c->miopen);
	row(f, indent, "XPU", c->xpu);
	if (c->n_settings) {
		fprintf(f, "%*s%sbuild settings%s\n", indent, "", pt_c(col, PT_C_BOLD),
			pt_c(col, PT_C_RESET));
		for (size_t i = 0; i < c->n_settings; i++)
			fprintf(f, "%*s  %s=%s\n", indent, "", c->settings[i].key, c->settings[i].value);
	}
	if (c->n_unparsed) {
		fprintf(f, "%*s%snot understood (kept verbatim)%s\n", indent, "",
			pt_c(col, PT_C_YELLOW), pt_c(col, PT_C_RESET));
		for (size_t i = 0; i < c->n_unparsed; i++)
			fprintf(f, "%*s  %s\n", indent, "", c->unparsed[i]);
	}
}
