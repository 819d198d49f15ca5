/*
 * --since-last's causes (buildsince.h). ninja rebuilds an output whose
 * command is unchanged when an input (explicit, implicit, or a header of its
 * depfile, kept in .ninja_deps) is newer than what .ninja_log recorded for
 * it (graph.cc, RecomputeOutputDirty). After the run, the record before the
 * last one holds that older mtime: the inputs newer than it are what changed.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buildsince.h"
#include "fsutil.h"
#include "numparse.h"
#include "pyenv.h"
#include "strbuf.h"
#include "xalloc.h"

#define NO_MTIME INT64_MIN
#define MISSING (-1)

struct ctx {
	struct buildtree *t;
	struct build_since *s;
	int dirfd;
	int64_t *id_mtime;	/* by deps id, NO_MTIME: not looked at yet */
	const char *rec_build;	/* CMAKE_CACHEFILE_DIR: the build dir as recorded */
	const char **rebuilt;	/* the last run's outputs, sorted */
	size_t n_rebuilt;
	bool seconds;		/* the log's mtimes are seconds (ninja before 1.10) */
	size_t *id_cause;	/* by deps id: its cause's index + 1, 0 none yet */
};

/* qsort, which must not be given NULL even for no elements. */
static void sort(void *v, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(v, n, size, cmp);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The recorded prefix of paths and the one here, from the build dir's two names. */
static void find_map(struct build_since *s, const char *recorded, const char *dir)
{
	char real[PATH_MAX];
	size_t a, b;

	if (!recorded || !realpath(dir, real) || !strcmp(recorded, real))
		return;
	a = strlen(recorded);
	b = strlen(real);
	while (a && b && recorded[a - 1] == real[b - 1]) {
		a--;
		b--;
	}
	/* Back to a path boundary: the common part starts with '/'. */
	while (a < strlen(recorded) && recorded[a] != '/') {
		a++;
		b++;
	}
	if (a == strlen(recorded))
		return;	/* no common tail: nothing to map */
	s->moved = true;
	s->map_from = pt_xstrndup(recorded, a);
	s->map_to = pt_xstrndup(real, b);
}

/* The mtime (ns) of a path as ninja names it, MISSING when it is not there. */
static int64_t stat_path(struct ctx *c, const char *p)
{
	struct stat st;
	int rc;

	if (p[0] == '/' && c->s->moved && !strncmp(p, c->s->map_from, strlen(c->s->map_from))) {
		char *q = pt_xasprintf("%s%s", c->s->map_to, p + strlen(c->s->map_from));

		rc = stat(q, &st);
		free(q);
	} else {
		rc = fstatat(c->dirfd, p, &st, 0);
	}
	if (rc != 0)
		return MISSING;
	return (int64_t)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
}

static int64_t mtime_of(struct ctx *c, const char *p, int64_t id)
{
	if (id < 0)
		return stat_path(c, p);
	if (c->id_mtime[id] == NO_MTIME)
		c->id_mtime[id] = stat_path(c, p);
	return c->id_mtime[id];
}

/* A path produced by an edge that the last run ran. */
static bool rebuilt_here(struct ctx *c, const char *p)
{
	const char *key = p;
	size_t bl = c->rec_build ? strlen(c->rec_build) : 0;

	if (bl && !strncmp(p, c->rec_build, bl) && p[bl] == '/')
		key = p + bl + 1;
	return bsearch(&key, c->rebuilt, c->n_rebuilt, sizeof(*c->rebuilt), cmp_str) != NULL;
}

static char *shown_path(const struct buildtree *t, const char *rec_build, const char *p)
{
	size_t sl = t->source_dir ? strlen(t->source_dir) : 0, bl = rec_build ? strlen(rec_build) : 0;

	/* The build dir first: it may sit inside the source dir (setup.py's build/). */
	if (bl && !strncmp(p, rec_build, bl) && p[bl] == '/')
		return pt_xstrdup(p + bl + 1);
	if (sl && !strncmp(p, t->source_dir, sl) && p[sl] == '/')
		return pt_xstrdup(p + sl + 1);
	return pt_xstrdup(p);
}

static bool is_object(const char *o)
{
	size_t n = strlen(o);

	return (n > 2 && !strcmp(o + n - 2, ".o")) || (n > 4 && !strcmp(o + n - 4, ".obj"));
}

static struct since_cause *cause_for(struct ctx *c, const char *input, int64_t id, bool built, int64_t mtime)
{
	struct build_since *s = c->s;

	if (id >= 0 && c->id_cause[id])
		return &s->causes[c->id_cause[id] - 1];
	/* A path that is not in .ninja_deps (build.ninja's own inputs only): few, looked up by name. */
	for (size_t i = 0; id < 0 && i < s->n_causes; i++)
		if (!strcmp(s->causes[i].input, input))
			return &s->causes[i];
	if (id >= 0)
		c->id_cause[id] = s->n_causes + 1;
	PT_GROW(s->causes, s->n_causes, s->alloc_causes);
	s->causes[s->n_causes] = (struct since_cause){ .input = pt_xstrdup(input), .built = built, .mtime = mtime,
						       .shown = shown_path(c->t, c->rec_build, input), .all_objects = true };
	return &s->causes[s->n_causes++];
}

static void cause_add(struct since_cause *k, const char *output)
{
	PT_GROW(k->outputs, k->n, k->alloc);
	k->outputs[k->n++] = output;
	if (!is_object(output))
		k->all_objects = false;
}

struct changed {
	const char *path;
	int64_t id;	/* in .ninja_deps, -1 not there */
	int64_t mtime;
	bool built;
};

static int cmp_changed(const void *a, const void *b)
{
	return strcmp(((const struct changed *)a)->path, ((const struct changed *)b)->path);
}

/* One output rebuilt with the same command: which inputs were newer than its previous build. */
/*
 * command: the output's command changed too (ninja looks at mtimes first, so
 * an input newer than it is what ninja -d explain names): its inputs join the
 * groups, and nothing is said when none is newer.
 */
static void explain_one(struct ctx *c, const struct build_rebuilt *r, bool command, struct changed **ch, size_t *a_ch)
{
	const struct buildninja *b = &c->t->ninja;
	struct build_since *s = c->s;
	size_t n_ch = 0, e = c->t->have_ninja ? buildninja_producer(b, r->output) : (size_t)-1, n_src = 0, w = 0;
	int64_t since = r->prev->mtime;
	const struct ninjadeps_entry *de = s->have_deps ? ninjadeps_get(&s->deps, r->output) : NULL;

	if (c->seconds && since < INT64_MAX / 1000000000LL)
		since *= 1000000000LL;
#define CONSIDER(path, id)                                                                 \
	do {                                                                               \
		int64_t m_ = mtime_of(c, (path), (id));                                    \
		if (m_ != MISSING && m_ > since) {                                         \
			PT_GROW(*ch, n_ch, *a_ch);                                         \
			(*ch)[n_ch++] = (struct changed){ (path), (id), m_, rebuilt_here(c, (path)) }; \
		}                                                                          \
	} while (0)
	if (e != (size_t)-1)
		for (size_t i = 0; i < b->edges[e].n_explicit_ins + b->edges[e].n_implicit_ins && i < b->edges[e].n_ins; i++)
			CONSIDER(b->edges[e].ins[i], s->have_deps ? ninjadeps_find(&s->deps, b->edges[e].ins[i]) : -1);
	for (uint32_t i = 0; de && i < de->n; i++)
		CONSIDER(s->deps.paths[de->ids[i]], (int64_t)de->ids[i]);
#undef CONSIDER
	/* One entry per path (the source is in both lists). */
	sort(*ch, n_ch, sizeof(**ch), cmp_changed);
	for (size_t i = 0; i < n_ch; i++)
		if (!w || strcmp((*ch)[w - 1].path, (*ch)[i].path))
			(*ch)[w++] = (*ch)[i];
	n_ch = w;
	for (size_t i = 0; i < n_ch; i++)
		n_src += !(*ch)[i].built;
	if (command && !n_ch)
		return;
	if (n_src) {
		s->n_explained += !command;
		for (size_t i = 0; i < n_ch; i++)
			if (!(*ch)[i].built)
				cause_add(cause_for(c, (*ch)[i].path, (*ch)[i].id, false, (*ch)[i].mtime), r->output);
	} else if (n_ch == 1) {
		s->n_explained += !command;
		cause_add(cause_for(c, (*ch)[0].path, (*ch)[0].id, true, (*ch)[0].mtime), r->output);
	} else if (command) {
		return;	/* only rebuilt inputs, several: the command says enough */
	} else if (n_ch > 1) {
		s->n_explained++;
		PT_GROW(s->several, s->n_several, s->alloc_several);
		s->several[s->n_several++] = r->output;
	} else {
		PT_GROW(s->unexplained, s->n_unexplained, s->alloc_unexplained);
		s->unexplained[s->n_unexplained++] = r->output;
	}
}

static int cmp_cause(const void *a, const void *b)
{
	const struct since_cause *x = a, *y = b;

	if (x->built != y->built)
		return x->built ? 1 : -1;
	/* What this run rebuilt, in the order it happened: the chain reads down. */
	if (x->built && x->mtime != y->mtime)
		return x->mtime < y->mtime ? -1 : 1;
	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->shown, y->shown);
}

static int cmp_command(const void *a, const void *b)
{
	const struct since_command *x = a, *y = b;
	int r = strcmp(x->target ? x->target : "", y->target ? y->target : "");

	return r ? r : strcmp(x->output, y->output);
}

int ccache_stats_parse(const uint8_t *buf, size_t len, struct ccache_stats *cs)
{
	static const char *const uncacheable[] = { "called_for_link", "called_for_preprocessing", "multiple_source_files",
						   "compiler_produced_stdout", "no_input_file", "output_to_stdout",
						   "unsupported_compiler_option", "unsupported_source_language",
						   "unsupported_code_directive", "autoconf_test", "could_not_use_precompiled_header",
						   "could_not_use_modules", "bad_compiler_arguments", NULL };
	const char *p = (const char *)buf, *end = p + len;
	int seen = 0;

	memset(cs, 0, sizeof(*cs));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end;
		const char *tab = memchr(p, '\t', (size_t)(e - p));
		uint64_t v;

		if (tab && pt_dec_u64_all(tab + 1, (size_t)(e - tab - 1), UINT64_MAX, &v) == 0) {
			size_t kl = (size_t)(tab - p);
#define KEY(k) (kl == sizeof(k) - 1 && !memcmp(p, k, kl))
			seen = 1;
			if (KEY("direct_cache_hit"))
				cs->direct_hit = v;
			else if (KEY("preprocessed_cache_hit"))
				cs->preprocessed_hit = v;
			else if (KEY("cache_miss"))
				cs->miss = v;
			else if (KEY("cache_size_kibibyte"))
				cs->size_kib = v;
			else if (KEY("files_in_cache"))
				cs->files = v;
			else if (KEY("stats_zeroed_timestamp"))
				cs->zeroed = v > INT64_MAX ? INT64_MAX : (int64_t)v;
			else if (KEY("stats_updated_timestamp"))
				cs->updated = v > INT64_MAX ? INT64_MAX : (int64_t)v;
			else
				for (size_t i = 0; uncacheable[i]; i++)
					if (kl == strlen(uncacheable[i]) && !memcmp(p, uncacheable[i], kl))
						cs->uncacheable = cs->uncacheable + v < v ? UINT64_MAX : cs->uncacheable + v;
#undef KEY
		}
		p = nl ? nl + 1 : end;
	}
	cs->ran = seen;
	return seen ? 0 : -1;
}

/* Which cache entry puts ccache in front of the compilers, or NULL. */
static const char *ccache_entry(const struct buildtree *t, const char **value)
{
	static const char *const keys[] = { "CMAKE_CXX_COMPILER_LAUNCHER", "CMAKE_C_COMPILER_LAUNCHER",
					     "CMAKE_CUDA_COMPILER_LAUNCHER", "CMAKE_CXX_COMPILER", "CMAKE_C_COMPILER", NULL };

	for (size_t i = 0; keys[i]; i++) {
		const char *v = cmakecache_value(&t->cache, keys[i]);

		if (v && strstr(v, "ccache")) {
			*value = v;
			return keys[i];
		}
	}
	return NULL;
}

static void run_ccache(struct build_since *s, const char *launcher, struct pt_diag *d)
{
	char *exe = NULL;
	struct pt_strbuf out;
	int st;

	/* The launcher itself when it is a path to ccache, else the ccache on PATH. */
	if (launcher[0] == '/' && strstr(launcher, "ccache") && !strchr(launcher, ';') && access(launcher, X_OK) == 0)
		exe = pt_xstrdup(launcher);
	else
		exe = pyenv_which("ccache");
	if (!exe) {
		pt_diag_add(d, PT_SEV_NOTE, "ccache", NULL, "the tree compiles through ccache, but there is no ccache on PATH");
		return;
	}
	{
		char *argv[] = { exe, (char *)"--print-stats", NULL };

		pt_strbuf_init(&out, 1u << 20);
		st = pyenv_run_capture(argv, &out, 1);
		if (st != 0 || ccache_stats_parse((const uint8_t *)pt_strbuf_str(&out), out.len, &s->ccache) < 0)
			pt_diag_add(d, PT_SEV_NOTE, exe, NULL,
				    "'ccache --print-stats' gave no counters (ccache before 3.7 has no --print-stats)");
		pt_strbuf_release(&out);
	}
	free(exe);
}

void buildtree_since(struct buildtree *t, const struct build_rebuilt *r, size_t n, bool want_ccache,
		     struct build_since *s, struct pt_diag *d)
{
	struct ctx c = { .t = t, .s = s };
	struct changed *ch = NULL;
	size_t a_ch = 0;

	memset(s, 0, sizeof(*s));
	c.rec_build = cmakecache_value(&t->cache, "CMAKE_CACHEFILE_DIR");
	find_map(s, c.rec_build, t->dir);
	{
		char *p = pt_xasprintf("%s/.ninja_deps", t->dir);
		uint8_t *buf = NULL;
		size_t len = 0;

		if (build_read_file(p, PT_READ_MAX, &buf, &len, d) == 0 && ninjadeps_parse(buf, len, &s->deps, p, d) == 0)
			s->have_deps = true;
		free(buf);
		free(p);
	}
	s->inputs_known = s->have_deps || t->have_ninja;
	c.dirfd = open(t->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	c.id_mtime = pt_xmalloc((s->deps.n_paths ? s->deps.n_paths : 1) * sizeof(*c.id_mtime));
	c.id_cause = pt_xcalloc(s->deps.n_paths ? s->deps.n_paths : 1, sizeof(*c.id_cause));
	for (size_t i = 0; i < s->deps.n_paths; i++)
		c.id_mtime[i] = NO_MTIME;
	c.rebuilt = pt_xmalloc((n ? n : 1) * sizeof(*c.rebuilt));
	for (size_t i = 0; i < n; i++)
		c.rebuilt[i] = r[i].output;
	c.n_rebuilt = n;
	sort(c.rebuilt, n, sizeof(*c.rebuilt), cmp_str);
	for (size_t i = 0; i < n; i++) {
		const struct ninjalog_rec *rec = r[i].rec;

		if (rec && rec->mtime > 0 && rec->mtime < 100000000000LL)
			c.seconds = true;	/* seconds since 1970 stay under 1e11 until the year 5138 */
		if (rec && rec->mtime > 0) {
			int64_t st = c.seconds ? rec->mtime * 1000000000LL : rec->mtime;

			st -= (int64_t)(rec->end_ms - rec->start_ms) * 1000000LL;
			if (!s->last_run_start || st < s->last_run_start)
				s->last_run_start = st;
		}
	}
	for (size_t i = 0; t->log.n_runs > 1 && i < t->log.n; i++) {
		const struct ninjalog_rec *rec = &t->log.v[i];
		int64_t m = c.seconds && rec->mtime < INT64_MAX / 1000000000LL ? rec->mtime * 1000000000LL : rec->mtime;

		if (rec->run + 1 < t->log.n_runs && m > s->prev_run_end)
			s->prev_run_end = m;
	}
	for (size_t i = 0; i < n; i++) {
		switch (r[i].reason) {
		case BUILD_REBUILT_NEW:
			PT_GROW(s->new_outputs, s->n_new, s->alloc_new);
			s->new_outputs[s->n_new++] = r[i].output;
			break;
		case BUILD_REBUILT_COMMAND:
			PT_GROW(s->commands, s->n_commands, s->alloc_commands);
			s->commands[s->n_commands++] = (struct since_command){
				r[i].output, build_output_target(r[i].output), r[i].rec ? r[i].rec->hash : 0,
				r[i].prev ? r[i].prev->hash : 0 };
			if (r[i].prev && s->inputs_known)
				explain_one(&c, &r[i], true, &ch, &a_ch);
			break;
		case BUILD_REBUILT_INPUTS:
			s->n_changed++;
			if (r[i].prev && s->inputs_known)
				explain_one(&c, &r[i], false, &ch, &a_ch);
			break;
		}
	}
	sort(s->new_outputs, s->n_new, sizeof(*s->new_outputs), cmp_str);
	sort(s->commands, s->n_commands, sizeof(*s->commands), cmp_command);
	sort(s->unexplained, s->n_unexplained, sizeof(*s->unexplained), cmp_str);
	sort(s->several, s->n_several, sizeof(*s->several), cmp_str);
	for (size_t i = 0; i < s->n_causes; i++)
		sort(s->causes[i].outputs, s->causes[i].n, sizeof(*s->causes[i].outputs), cmp_str);
	sort(s->causes, s->n_causes, sizeof(*s->causes), cmp_cause);
	{
		const char *v = NULL;

		s->ccache_how = ccache_entry(t, &v);
		s->uses_ccache = s->ccache_how != NULL;
		if (s->uses_ccache && want_ccache)
			run_ccache(s, v, d);
		/* Zeroed (whole seconds) after the runs before and before this one began. */
		if (s->ccache.ran && s->ccache.zeroed > 0 && s->last_run_start &&
		    s->ccache.zeroed <= s->last_run_start / 1000000000LL &&
		    (s->ccache.zeroed + 1) * 1000000000LL > s->prev_run_end)
			s->ccache_this_build = true;
		else if (s->ccache.ran && s->last_run_start && s->ccache.zeroed > s->last_run_start / 1000000000LL)
			s->ccache_zeroed_after = true;
	}
	free(ch);
	free(c.rebuilt);
	free(c.id_mtime);
	free(c.id_cause);
	if (c.dirfd >= 0)
		close(c.dirfd);
}

void build_since_release(struct build_since *s)
{
	for (size_t i = 0; i < s->n_causes; i++) {
		free(s->causes[i].input);
		free(s->causes[i].shown);
		free(s->causes[i].outputs);
	}
	for (size_t i = 0; i < s->n_commands; i++)
		free(s->commands[i].target);
	for (size_t i = 0; i < s->n_cmd_groups; i++) {
		cmd_flag_diff_release(&s->cmd_groups[i].diff);
		free(s->cmd_groups[i].outputs);
	}
	free(s->cmd_groups);
	for (size_t i = 0; i < s->n_pending; i++) {
		cmd_flag_diff_release(&s->pending[i].diff);
		free(s->pending[i].outputs);
	}
	free(s->pending);
	free(s->causes);
	free(s->commands);
	free(s->unexplained);
	free(s->several);
	free(s->new_outputs);
	free(s->map_from);
	free(s->map_to);
	ninjadeps_release(&s->deps);
	memset(s, 0, sizeof(*s));
}

const char *since_cmd_state_text(enum since_cmd_state st)
{
	switch (st) {
	case SINCE_CMD_OLD_UNKNOWN:
		return "the old command is not known: ptinspect build records commands from this run on";
	case SINCE_CMD_NOT_RECORDING:
		return "the old command is not known: recording is off (--no-record or PTOOLS_NO_CACHE=1)";
	case SINCE_CMD_NEW_UNKNOWN:
		return "the last run's command is not known: build.ninja changed after it";
	case SINCE_CMD_NOTHING_TO_RECORD:
		return "the old command is not known, nor recorded: no build.ninja commands here (ninja -t compdb)";
	case SINCE_CMD_OTHER_HASH:
		return "the old command is not known: no command of build.ninja hashes (MurmurHash64A) to what this "
		       ".ninja_log holds for it";
	case SINCE_CMD_DIFF:
		break;
	}
	return "";
}

const char *since_cmd_state_key(enum since_cmd_state st)
{
	static const char *const k[] = { "diff", "old_unknown", "not_recording", "new_unknown", "other_hash", "nothing_to_record" };

	return k[st];
}

static int cmp_cmd_group(const void *a, const void *b)
{
	const struct since_cmd_group *x = a, *y = b;

	if ((x->state == SINCE_CMD_DIFF) != (y->state == SINCE_CMD_DIFF))
		return x->state == SINCE_CMD_DIFF ? -1 : 1;
	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->text, y->text);
}

size_t build_commands_agree(const struct ninjalog *l, const struct cmd_cache *now, size_t *compared)
{
	size_t n = 0, *latest = ninjalog_latest(l, &n), agree = 0;

	*compared = 0;
	for (size_t i = 0; now && i < n; i++) {
		const struct ninjalog_rec *r = &l->v[latest[i]];
		bool any = false;

		for (size_t k = 0; k < now->n && !any; k++)
			if (!strcmp(now->v[k].output, r->output)) {
				any = true;
				agree += now->v[k].hash == r->hash;
			}
		*compared += any;
		if (*compared >= 64)
			break;	/* a sample is enough */
	}
	free(latest);
	return agree;
}

/* Into the group of its change (a new one when none has it); diff is taken. */
static void group_add(struct since_cmd_group **v, size_t *n, size_t *alloc, enum since_cmd_state st,
		      struct cmd_diff *diff, const char *output)
{
	struct since_cmd_group *g = NULL;

	for (size_t k = 0; k < *n && !g; k++)
		if ((*v)[k].state == st && (st != SINCE_CMD_DIFF || !strcmp((*v)[k].diff.text, diff->text)))
			g = &(*v)[k];
	if (!g) {
		PT_GROW(*v, *n, *alloc);
		g = &(*v)[(*n)++];
		*g = (struct since_cmd_group){ .state = st, .diff = *diff, .all_objects = true };
		memset(diff, 0, sizeof(*diff));
	}
	cmd_flag_diff_release(diff);
	PT_GROW(g->outputs, g->n, g->alloc);
	g->outputs[g->n++] = output;
	if (!is_object(output))
		g->all_objects = false;
}

static void groups_finish(struct since_cmd_group *v, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		v[k].text = v[k].state == SINCE_CMD_DIFF ? v[k].diff.text : since_cmd_state_text(v[k].state);
		sort(v[k].outputs, v[k].n, sizeof(*v[k].outputs), cmp_str);
	}
	sort(v, n, sizeof(*v), cmp_cmd_group);
}

static int cmp_rec_output(const void *a, const void *b)
{
	return strcmp((*(const struct ninjalog_rec *const *)a)->output, (*(const struct ninjalog_rec *const *)b)->output);
}

void build_since_commands(struct build_since *s, const struct ninjalog *l, bool hash_known, bool recording,
			  const struct cmd_cache *now, const struct cmd_cache *old)
{
	enum since_cmd_state unknown = !recording ? SINCE_CMD_NOT_RECORDING
					: now	  ? SINCE_CMD_OLD_UNKNOWN
						  : SINCE_CMD_NOTHING_TO_RECORD;

	for (size_t i = 0; i < s->n_commands; i++) {
		const struct since_command *c = &s->commands[i];
		const struct cmd_record *was = cmd_cache_find(old, c->output, c->prev_hash);
		const struct cmd_record *is = cmd_cache_find(now, c->output, c->hash);
		enum since_cmd_state st = SINCE_CMD_DIFF;
		struct cmd_diff diff = { 0 };

		if (!is)
			is = cmd_cache_find(old, c->output, c->hash);
		if (!hash_known)
			st = SINCE_CMD_OTHER_HASH;
		else if (!was)
			st = unknown;
		else if (!is)
			st = SINCE_CMD_NEW_UNKNOWN;
		else
			cmd_flag_diff(was->command, is->command, &diff);
		group_add(&s->cmd_groups, &s->n_cmd_groups, &s->alloc_cmd_groups, st, &diff, c->output);
	}
	groups_finish(s->cmd_groups, s->n_cmd_groups);
	/* Not rebuilt yet: build.ninja's command now is not the one the latest record hashed. */
	if (hash_known && now && l && l->version >= 5) {
		size_t n = 0, *latest = ninjalog_latest(l, &n);
		const struct ninjalog_rec **recs = pt_xmalloc((n ? n : 1) * sizeof(*recs));

		for (size_t i = 0; i < n; i++)
			recs[i] = &l->v[latest[i]];
		sort(recs, n, sizeof(*recs), cmp_rec_output);
		for (size_t i = 0; i < now->n; i++) {
			struct ninjalog_rec key = { .output = now->v[i].output };
			const struct ninjalog_rec *kp = &key, **hit;
			const struct cmd_record *was;
			struct cmd_diff diff = { 0 };
			enum since_cmd_state st = SINCE_CMD_DIFF;

			/* one edge per output: a repeat is skipped */
			if (i && !strcmp(now->v[i - 1].output, now->v[i].output))
				continue;
			hit = n ? bsearch(&kp, recs, n, sizeof(*recs), cmp_rec_output) : NULL;
			if (!hit || (*hit)->hash == now->v[i].hash)
				continue;
			was = cmd_cache_find(old, now->v[i].output, (*hit)->hash);
			if (was)
				cmd_flag_diff(was->command, now->v[i].command, &diff);
			else
				st = unknown;
			group_add(&s->pending, &s->n_pending, &s->alloc_pending, st, &diff, now->v[i].output);
			s->n_pending_outputs++;
		}
		groups_finish(s->pending, s->n_pending);
		free(recs);
		free(latest);
	}
}
