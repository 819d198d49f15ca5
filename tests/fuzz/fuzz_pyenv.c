/* fuzz-links: ptinspect_lib */
/*
 * libFuzzer target: the report of ptinspect-pyenv as ptinspect reads it back
 * (pyenv_parse: the marker line, then JSON whose fields may be anything, from
 * a Python that may be broken; pyenv_parse_partial: the first document and
 * the stack dump of a helper killed during the import), and the scan of a
 * library's bytes for the dispatcher-trace strings (dispatchtrace_text_present).
 */
#include <stddef.h>
#include <stdint.h>

#include "dispatchtrace.h"
#include "pyenv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pyenv_report r;
	struct pt_diag d;

	pt_diag_init(&d);
	if (pyenv_parse((const char *)data, size, "/usr/bin/python3", &r, &d) == 0)
		pyenv_report_release(&r);
	if (pyenv_parse_partial((const char *)data, size, "/usr/bin/python3", "killed", &r, &d) == 0)
		pyenv_report_release(&r);
	pt_diag_release(&d);
	dispatchtrace_text_present(data, size);
	return 0;
}
