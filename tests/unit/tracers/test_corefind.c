/*
 * tracers/capture/corefind.c: core_pattern read as the kernel reads it
 * (fs/coredump.c format_corename), for every kind of pattern a machine may
 * have, and the core found (or the sentence saying why not) from a pattern
 * string: nothing here depends on this machine's core_pattern.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "corefind.h"

static const struct corefind_proc proc = { .pid = 4242, .uid = 1000, .gid = 100, .sig = 11,
					   .cwd = "/home/u/w" };

static const char *glob_of(const char *pat, int uses_pid)
{
	static struct corefind_pattern p;

	assert_int_equal(corefind_parse_pattern(pat, strlen(pat), uses_pid, &proc, &p), 0);
	assert_int_equal(p.kind, COREPAT_FILE);
	return p.glob;
}

static void file_patterns(void **state)
{
	(void)state;
	/* The kernel's default, relative to the process's directory. */
	assert_string_equal(glob_of("core\n", 0), "/home/u/w/core");
	assert_string_equal(glob_of("core", 1), "/home/u/w/core.4242");
	/* %p in the pattern: core_uses_pid adds nothing. */
	assert_string_equal(glob_of("core.%p", 1), "/home/u/w/core.4242");
	/* %P %i %I are pids too, but only %p stops core_uses_pid's suffix. */
	assert_string_equal(glob_of("/var/crash/%P-%i", 1), "/var/crash/4242-4242.4242");
	assert_string_equal(glob_of("/var/crash/core.%e.%p.%t", 0), "/var/crash/core.*.4242.*");
	assert_string_equal(glob_of("/c/%u.%g.%s", 0), "/c/1000.100.11");
	/* Two unknown parts in a row are one '*'; %% is a '%'; an unknown specifier is dropped. */
	assert_string_equal(glob_of("/c/%e%t", 0), "/c/*");
	assert_string_equal(glob_of("/c/100%%-%q%p", 0), "/c/100%-4242");
	/* A lone '%' at the end is dropped too. */
	assert_string_equal(glob_of("/c/x%", 0), "/c/x");
	/* glob(3)'s characters in the name are literal. */
	assert_string_equal(glob_of("/c/[a]*?\\", 0), "/c/\\[a]\\*\\?\\\\");
}

static void other_patterns(void **state)
{
	struct corefind_pattern p;
	static const char sd[] = "|/usr/lib/systemd/systemd-coredump %P %u %g %s %t %c %h";
	static const char ap[] = "|/usr/share/apport/apport -p%p -s%s -c%c -d%d -P%P -u%u -g%g -- %E";
	char longp[COREFIND_PATTERN_MAX + 2];

	(void)state;
	assert_int_equal(corefind_parse_pattern(sd, sizeof(sd) - 1, 0, &proc, &p), 0);
	assert_int_equal(p.kind, COREPAT_PIPE);
	assert_true(p.systemd);
	assert_string_equal(p.program, "/usr/lib/systemd/systemd-coredump");
	assert_int_equal(corefind_parse_pattern(ap, sizeof(ap) - 1, 0, &proc, &p), 0);
	assert_int_equal(p.kind, COREPAT_PIPE);
	assert_false(p.systemd);
	assert_string_equal(p.program, "/usr/share/apport/apport");
	assert_int_equal(corefind_parse_pattern("\n", 1, 1, &proc, &p), 0);
	assert_int_equal(p.kind, COREPAT_EMPTY);
	/* Longer than the kernel takes: refused, not cut. */
	memset(longp, 'a', sizeof(longp));
	assert_int_equal(corefind_parse_pattern(longp, sizeof(longp), 0, &proc, &p), -1);
	/* Bytes and a length: what follows is not read. */
	assert_int_equal(corefind_parse_pattern("corefile", 4, 0, &proc, &p), 0);
	assert_string_equal(p.glob, "/home/u/w/core");
}

static void dumping_signals(void **state)
{
	(void)state;
	assert_true(corefind_signal_dumps(SIGSEGV));
	assert_true(corefind_signal_dumps(SIGABRT));
	assert_true(corefind_signal_dumps(SIGBUS));
	assert_false(corefind_signal_dumps(SIGKILL));
	assert_false(corefind_signal_dumps(SIGTERM));
}

/* A core written by "the kernel" (this test) where the pattern says: found, with the gdb line. */
static void locate(void **state)
{
	char dir[] = "/tmp/pt-corefind-XXXXXX", path[128], *exp;
	struct corefind_query q = { .proc = proc, .core_dumped = 1, .core_limit = -1,
				    .exe = "/usr/bin/python3", .uses_pid = 0,
				    .ptgdb_load = "/opt/pt/share/ptools/gdbext/load.py" };
	struct corefind_result r;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	q.proc.cwd = dir;
	q.started_s = (int64_t)time(NULL) - 5;
	q.pattern = "core.%p\n";
	/* Nothing there yet. */
	corefind_locate(&q, &r);
	assert_null(r.core);
	assert_null(r.gdb);
	assert_non_null(strstr(r.note, "no core file matching"));
	assert_non_null(strstr(r.note, "the kernel says it dumped one"));
	corefind_result_release(&r);
	snprintf(path, sizeof(path), "%s/core.4242", dir);
	assert_non_null(f = fopen(path, "w"));
	fclose(f);
	corefind_locate(&q, &r);
	assert_string_equal(r.core, path);
	assert_string_equal(r.pattern, "core.%p");
	exp = NULL;
	assert_true(asprintf(&exp, "gdb -q -ex 'source /opt/pt/share/ptools/gdbext/load.py'"
				   " /usr/bin/python3 %s", path) > 0);
	assert_string_equal(r.gdb, exp);
	free(exp);
	corefind_result_release(&r);
	/* A file older than the run is another crash's. */
	q.started_s = (int64_t)time(NULL) + 60;
	corefind_locate(&q, &r);
	assert_null(r.core);
	corefind_result_release(&r);
	/* A core size limit of 0: why there is none, and the way out. */
	q.core_dumped = 0;
	q.core_limit = 0;
	corefind_locate(&q, &r);
	assert_string_equal(r.note, "no core file: the core size limit is 0 (ulimit -c); 'pttrace run"
				    " --core' raises it for the child");
	corefind_result_release(&r);
	q.core_raised = 1;
	corefind_locate(&q, &r);
	assert_string_equal(r.note, "no core file: the core size limit is 0 (the hard limit: --core"
				    " cannot raise it)");
	corefind_result_release(&r);
	/* systemd-coredump: where it is, and coredumpctl's gdb with ptgdb. */
	q.core_dumped = 1;
	q.core_limit = -1;
	q.pattern = "|/usr/lib/systemd/systemd-coredump %P %u %g %s %t %c %h";
	corefind_locate(&q, &r);
	assert_string_equal(r.note, "the kernel passed the core to systemd-coredump (core_pattern"
				    " '|/usr/lib/systemd/systemd-coredump %P %u %g %s %t %c %h'):"
				    " 'coredumpctl list 4242' shows it");
	assert_string_equal(r.gdb, "coredumpctl debug --debugger-arguments='-q -ex \"source"
				   " /opt/pt/share/ptools/gdbext/load.py\"' 4242");
	corefind_result_release(&r);
	q.pattern = "|/usr/share/apport/apport -p%p";
	corefind_locate(&q, &r);
	assert_string_equal(r.note, "the kernel passed the core to /usr/share/apport/apport"
				    " (core_pattern '|/usr/share/apport/apport -p%p'), which decides where it goes");
	assert_null(r.gdb);
	corefind_result_release(&r);
	q.pattern = "";
	corefind_locate(&q, &r);
	assert_string_equal(r.note, "no core file: core_pattern is empty (the kernel writes none)");
	corefind_result_release(&r);
	unlink(path);
	rmdir(dir);
}

static void shell_quote(void **state)
{
	char *s;

	(void)state;
	s = corefind_shell_quote("/usr/bin/python3");
	assert_string_equal(s, "/usr/bin/python3");
	free(s);
	s = corefind_shell_quote("/tmp/a b/it's");
	assert_string_equal(s, "'/tmp/a b/it'\\''s'");
	free(s);
	s = corefind_shell_quote("");
	assert_string_equal(s, "''");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(file_patterns),
		cmocka_unit_test(other_patterns),
		cmocka_unit_test(dumping_signals),
		cmocka_unit_test(locate),
		cmocka_unit_test(shell_quote),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
