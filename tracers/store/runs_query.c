/* The read side of the core part (runs, run_env, run_warnings, run_files); see runs.h. */
#include "runs.h"

#include <string.h>

#include "db_json.h"

/* A "running" run whose recorder is gone: "lost", as runs_mark_lost would store it. */
static int fix_status(struct db *ix, json_t *run)
{
	const char *st = json_string_value(json_object_get(run, "status"));
	struct db_stmt *s;
	int gone;

	if (!st || strcmp(st, "running"))
		return 0;
	s = db_prepare(ix, "SELECT pttrace_pid, host, started_us FROM runs WHERE id = ?1");
	if (!s || db_bind(s, "i", (int64_t)json_integer_value(json_object_get(run, "id"))) < 0)
		return -1;
	if (db_step(s) != 1)
		return -1;
	gone = runs_recorder_gone(db_col_int(s, 0), db_col_text(s, 1), db_col_int(s, 2));
	db_reset(s);
	if (gone)
		json_object_set_new(run, "status", json_string("lost"));
	return 0;
}

json_t *runs_list_json(struct db *ix)
{
	json_t *rows = db_json(ix, "SELECT id, name, tag, source, status, exit_code, signal, started_us,"
				   " ended_us, argv, cwd, torch_version FROM runs ORDER BY id", "");
	size_t i;
	json_t *v;

	json_array_foreach(rows, i, v) {
		if (fix_status(ix, v) < 0) {
			json_decref(rows);
			return NULL;
		}
	}
	return rows;
}

json_t *runs_show_json(struct db *ix, int64_t id)
{
	json_t *runs, *run, *o;

	runs = db_json(ix, "SELECT * FROM runs WHERE id = ?1", "i", id);
	if (!runs || json_array_size(runs) != 1) {
		json_decref(runs);
		return NULL;
	}
	run = json_incref(json_array_get(runs, 0));
	json_decref(runs);
	if (fix_status(ix, run) < 0)
		goto fail;
	/* argv is stored as JSON text: give it back as an array. */
	{
		json_t *a = json_loads(json_string_value(json_object_get(run, "argv")), 0, NULL);

		json_object_set_new(run, "argv", a ? a : json_array());
	}
	if (json_is_integer(json_object_get(run, "ended_us")))
		json_object_set_new(run, "duration_s",
				    json_real((double)(json_integer_value(json_object_get(run, "ended_us")) -
						       json_integer_value(json_object_get(run, "started_us"))) / 1e6));
	else
		json_object_set_new(run, "duration_s", json_null());
#define ADD(key, sql)                                              \
	do {                                                       \
		o = db_json(ix, sql, "i", id);                     \
		if (!o)                                            \
			goto fail;                                 \
		json_object_set_new(run, key, o);                  \
	} while (0)
	ADD("env", "SELECT name, value FROM run_env WHERE run_id = ?1 ORDER BY name");
	ADD("warnings", "SELECT code, message FROM run_warnings WHERE run_id = ?1 ORDER BY seq");
	ADD("files", "SELECT path, role, bytes FROM run_files WHERE run_id = ?1 ORDER BY path");
	ADD("indexed", "SELECT part, version, state FROM run_parts WHERE run_id = ?1 ORDER BY part");
	ADD("crash", "SELECT signal, core_dumped, core_limit, core_pattern, core_path, core_note, gdb"
		     " FROM run_crash WHERE run_id = ?1");
#undef ADD
	/* At most one row: the object, or null. */
	o = json_object_get(run, "crash");
	json_object_set(run, "crash", json_array_size(o) ? json_array_get(o, 0) : json_null());
	return run;
fail:
	json_decref(run);
	return NULL;
}
