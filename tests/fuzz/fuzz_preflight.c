/* fuzz-links: ptinspect_lib */
/*
 * libFuzzer target: preflight's parsers (pfparse.c) on the same bytes: nvcc
 * --version, a compiler's and a tool's --version, host_config.h,
 * version.txt, .gitmodules, cmake_minimum_required and option() names,
 * cudnn_version.h, `git submodule status`, `nvcc --dryrun`.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "pfparse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pf_gitmodules g;
	struct pf_substatus ss;
	struct pf_compiler c;
	struct pf_version v;
	struct pt_diag d;
	char build[32], **names;
	size_t n;
	int cuda, gmax, cmax;

	if (pf_nvcc_version(data, size, &cuda, build, sizeof(build)) == 0 && (cuda < 0 || cuda > 99090))
		__builtin_trap();
	pf_compiler_version(data, size, &c);
	pf_tool_version(data, size, &v);
	if (v.n > 3)
		__builtin_trap();
	pf_host_config(data, size, &gmax, &cmax);
	pf_version_txt(data, size, &v);
	pf_cudnn_version(data, size, &v);
	pf_header_version(data, size, "NCCL_MAJOR", "NCCL_MINOR", "NCCL_PATCH", &v);
	pf_cmake_min(data, size, &v);
	pf_submodule_status(data, size, &ss);
	for (size_t i = 0; i < ss.n; i++)
		if (!ss.v[i].path[0])
			__builtin_trap();
	pf_substatus_release(&ss);
	{
		char *path, *host;

		if (pf_nvcc_dryrun(data, size, &path, &host) == 0 && (!host || !host[0]))
			__builtin_trap();
		free(path);
		free(host);
	}
	pf_cmake_options(data, size, &names, &n);
	pf_names_release(names, n);
	pt_diag_init(&d);
	if (pf_gitmodules_parse(data, size, &g, "fuzz", &d) == 0) {
		for (size_t i = 0; i < g.n; i++)
			if (!g.v[i].name || !g.v[i].line)
				__builtin_trap();
		pf_gitmodules_release(&g);
	}
	pt_diag_release(&d);
	return 0;
}
