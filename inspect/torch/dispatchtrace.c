/* TORCH_SHOW_DISPATCH_TRACE availability; see dispatchtrace.h. */
#include "dispatchtrace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xalloc.h"

static const char TRACE_TEXT[] = "], key=[";

int dispatchtrace_text_present(const unsigned char *buf, size_t len)
{
	return memmem(buf, len, TRACE_TEXT, sizeof(TRACE_TEXT) - 1) != NULL;
}

/* 1/0 for the file, -1 when unreadable. */
static int file_has_text(const char *path, struct pt_diag *diag)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), r = -1;
	struct stat st;
	void *m;

	if (fd < 0 || fstat(fd, &st) < 0 || st.st_size == 0) {
		pt_diag_add(diag, PT_SEV_NOTE, path, NULL, "cannot read: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	/* Mapped, not read: libtorch_cpu is 120 MB and only pages touched become resident. */
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m != MAP_FAILED) {
		r = dispatchtrace_text_present(m, (size_t)st.st_size);
		munmap(m, (size_t)st.st_size);
	}
	close(fd);
	return r;
}

static int version_at_least(const char *v, int maj, int min)
{
	int a = 0, b = 0;

	if (!v || sscanf(v, "%d.%d", &a, &b) < 1)
		return -1;
	return a > maj || (a == maj && b >= min);
}

int dispatchtrace_check(const struct showconfig *cfg, const char *torch_version, int debug,
			const char *lib, struct dispatchtrace *t, struct pt_diag *diag)
{
	const char *bt = cfg ? showconfig_setting(cfg, "BUILD_TYPE") : NULL;
	const char *flags = cfg ? showconfig_setting(cfg, "CXX_FLAGS") : NULL;
	const char *tv = torch_version ? torch_version
				       : cfg ? showconfig_setting(cfg, "TORCH_VERSION") : NULL;
	int ge27 = version_at_least(tv, 2, 7), ndebug = -1, has_flag, text = -1;

	memset(t, 0, sizeof(*t));
	has_flag = flags && strstr(flags, "-DHAS_TORCH_SHOW_DISPATCH_TRACE") != NULL;
	/* CMake's Release/RelWithDebInfo/MinSizeRel add -DNDEBUG outside CXX_FLAGS. */
	if (flags && strstr(flags, "-DNDEBUG"))
		ndebug = 1;
	else if (bt && (!strcmp(bt, "Release") || !strcmp(bt, "RelWithDebInfo") || !strcmp(bt, "MinSizeRel")))
		ndebug = 1;
	else if ((bt && !strcmp(bt, "Debug")) || debug == 1)
		ndebug = 0;
	if (lib)
		text = file_has_text(lib, diag);

	if (text == 0) {
		t->can_print = 0;
		t->why = pt_xasprintf("%s does not contain the trace text \"%s\": the printing code is "
				      "compiled out%s%s%s", lib, TRACE_TEXT, bt ? " (BUILD_TYPE=" : "",
				      bt ? bt : "", bt ? ")" : "");
	} else if (ndebug == 0) {
		t->can_print = 1;
		t->why = pt_xasprintf("NDEBUG is not defined (BUILD_TYPE=%s%s)", bt ? bt : "?",
				      debug == 1 ? ", torch.version.debug is True" : "");
	} else if (has_flag && ge27 == 1) {
		t->can_print = 1;
		t->why = pt_xstrdup("built with -DHAS_TORCH_SHOW_DISPATCH_TRACE (torch 2.7+)");
	} else if (ndebug == 1) {
		t->can_print = 0;
		t->why = pt_xasprintf("BUILD_TYPE=%s defines NDEBUG%s", bt ? bt : "?",
				      has_flag ? "; -DHAS_TORCH_SHOW_DISPATCH_TRACE needs torch 2.7+"
					       : " and -DHAS_TORCH_SHOW_DISPATCH_TRACE is not in CXX_FLAGS");
	} else if (text == 1) {
		/* From 2.6 the printer lives in libtorch whatever NDEBUG was: not proof. */
		t->can_print = -1;
		t->why = pt_xasprintf("%s contains the trace text, but whether the dispatcher calls it "
				      "depends on NDEBUG at build time (ptinspect doctor reads BUILD_TYPE "
				      "from the configuration)", lib);
	} else {
		t->can_print = -1;
		t->why = pt_xstrdup("no BUILD_TYPE or CXX_FLAGS to tell");
	}
	if (t->can_print != 1)
		t->rebuild = pt_xstrdup(
			ge27 == 1 ? "CFLAGS=\"-DHAS_TORCH_SHOW_DISPATCH_TRACE\" python setup.py develop "
				    "(keeps the optimised build), or DEBUG=1 python setup.py develop"
				  : "DEBUG=1 python setup.py develop (before torch 2.7 only a build "
				    "without NDEBUG prints the trace)");
	return 0;
}

void dispatchtrace_release(struct dispatchtrace *t)
{
	free(t->why);
	free(t->rebuild);
	memset(t, 0, sizeof(*t));
}
