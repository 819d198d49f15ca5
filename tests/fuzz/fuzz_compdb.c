/* fuzz-links: ptinspect_lib */
/*
 * libFuzzer target: compile_commands.json (compdb_parse), and the same bytes
 * as ptinspect build's recorded-commands cache (cmd_cache_parse, buildcmds.h);
 * each command then tokenised and diffed against the one before it
 * (cmd_flag_diff), as --since-last does with a recorded and a current command.
 */
#include <stddef.h>
#include <stdint.h>

#include "buildcmds.h"
#include "compdb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct compdb c;
	struct cmd_cache k;
	struct pt_diag d;

	pt_diag_init(&d);
	if (compdb_parse(data, size, &c, "fuzz", &d) == 0) {
		for (size_t i = 0; i < c.n; i++) {
			(void)compdb_has_flag(c.v[i].command, "-g");
			if (i) {
				struct cmd_diff df;

				cmd_flag_diff(c.v[i - 1].command, c.v[i].command, &df);
				cmd_flag_diff_release(&df);
			}
		}
		compdb_release(&c);
	}
	if (cmd_cache_parse(data, size, &k, "fuzz", &d) == 0) {
		for (size_t i = 1; i < k.n; i++) {
			struct cmd_diff df;

			(void)cmd_cache_find(&k, k.v[i].output, k.v[i - 1].hash);
			cmd_flag_diff(k.v[i - 1].command, k.v[i].command, &df);
			cmd_flag_diff_release(&df);
		}
		cmd_cache_release(&k);
	}
	pt_diag_release(&d);
	return 0;
}
