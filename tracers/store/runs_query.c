/* The read side of the core part (runs, run_env, run_warnings, run_files); see runs.h. */
#include "runs.h"

#include "db_json.h"

json_t *runs_list_json(struct db *ix)
{
	return db_json(ix, "SELECT id, name, tag, source, status, exit_code, signal, started_us,"
			   " ended_us, argv, cwd, torch_version FROM runs ORDER BY id", "");
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
#undef ADD
	return run;
fail:
	json_decref(run);
	return NULL;
}
