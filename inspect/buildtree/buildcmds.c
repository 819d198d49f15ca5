/*
 * The recorded compile commands (buildcmds.h): ninja's command hash, a
 * shell-like tokeniser, the flag diff, the cache file outside the tree.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buildcmds.h"
#include "childwait.h"
#include "compdb.h"
#include "fsutil.h"
#include "jsonout.h"
#include "pyenv.h"
#include "strbuf.h"
#include "xalloc.h"

uint64_t ninja_command_hash(const void *key, size_t len)
{
	/* 64-bit MurmurHash2 (Austin Appleby) as build_log.cc has it, its seed ninja's. */
	const uint64_t seed = 0xDECAFBADDECAFBADull, m = 0xc6a4a7935bd1e995ull;
	const int r = 47;
	const unsigned char *data = key;
	uint64_t h = seed ^ ((uint64_t)len * m);

	while (len >= 8) {
		uint64_t k;

		memcpy(&k, data, sizeof(k));	/* little-endian hosts, as ninja's own reads */
		k *= m;
		k ^= k >> r;
		k *= m;
		h ^= k;
		h *= m;
		data += 8;
		len -= 8;
	}
	switch (len & 7) {
	case 7: h ^= (uint64_t)data[6] << 48; /* fall through */
	case 6: h ^= (uint64_t)data[5] << 40; /* fall through */
	case 5: h ^= (uint64_t)data[4] << 32; /* fall through */
	case 4: h ^= (uint64_t)data[3] << 24; /* fall through */
	case 3: h ^= (uint64_t)data[2] << 16; /* fall through */
	case 2: h ^= (uint64_t)data[1] << 8; /* fall through */
	case 1:
		h ^= (uint64_t)data[0];
		h *= m;
		break;
	default:
		break;
	}
	h ^= h >> r;
	h *= m;
	h ^= h >> r;
	return h;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int cmd_tokenize(const char *s, size_t n, char ***tok, size_t *n_tok)
{
	size_t i = 0, alloc = 0;
	struct pt_strbuf cur;
	int rc = 0;

	*tok = NULL;
	*n_tok = 0;
	pt_strbuf_init(&cur, SIZE_MAX / 2);
	while (i < n) {
		bool in = false;

		while (i < n && blank(s[i]))
			i++;
		if (i >= n)
			break;
		pt_strbuf_reset(&cur);
		while (i < n && !blank(s[i])) {
			in = true;
			if (s[i] == '\'') {
				const char *q = memchr(s + i + 1, '\'', n - i - 1);

				if (!q) {
					rc = -1;
					i = n;
					break;
				}
				pt_strbuf_add_trunc(&cur, s + i + 1, (size_t)(q - s - i - 1));
				i = (size_t)(q - s) + 1;
			} else if (s[i] == '"') {
				i++;
				while (i < n && s[i] != '"') {
					if (s[i] == '\\' && i + 1 < n && strchr("$`\"\\\n", s[i + 1]))
						i++;
					pt_strbuf_add_trunc(&cur, s + i, 1);
					i++;
				}
				if (i >= n) {
					rc = -1;
					break;
				}
				i++;
			} else if (s[i] == '\\' && i + 1 < n) {
				pt_strbuf_add_trunc(&cur, s + i + 1, 1);
				i += 2;
			} else {
				pt_strbuf_add_trunc(&cur, s + i, 1);
				i++;
			}
		}
		if (in && rc == 0) {
			PT_GROW(*tok, *n_tok, alloc);
			(*tok)[(*n_tok)++] = pt_xstrndup(pt_strbuf_str(&cur), cur.len);
		}
	}
	pt_strbuf_release(&cur);
	return rc;
}

void cmd_tokens_free(char **tok, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(tok[i]);
	free(tok);
}

/* Flags whose argument may follow as the next word; joined: written "-DX" when apart. */
static const char *const with_arg[] = { "-D", "-U", "-I", "-L", "-l", NULL };
static const char *const with_arg_sep[] = { "-isystem", "-iquote", "-idirafter", "-include", "-imacros",
					    "-isysroot", "-o", "-MF", "-MT", "-MQ", "-x", "-Xcompiler",
					    "--compiler-options", "-Xlinker", "-Xptxas", "-Xcudafe", "-Xfatbin",
					    "-Xnvlink", "-gencode", "--generate-code", "-arch", "-ccbin",
					    "--compiler-bindir", "-Xclang", NULL };

static bool in_list(const char *const *l, const char *s)
{
	for (size_t i = 0; l[i]; i++)
		if (!strcmp(l[i], s))
			return true;
	return false;
}

/* Words into flags, each with its argument. */
static char **group_flags(char **t, size_t n, size_t *n_out)
{
	char **v = pt_xmalloc((n ? n : 1) * sizeof(*v));
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (i + 1 < n && in_list(with_arg, t[i]))
			v[k++] = pt_xasprintf("%s%s", t[i], t[i + 1]), i++;
		else if (i + 1 < n && in_list(with_arg_sep, t[i]))
			v[k++] = pt_xasprintf("%s %s", t[i], t[i + 1]), i++;
		else
			v[k++] = pt_xstrdup(t[i]);
	}
	*n_out = k;
	return v;
}

/* What kind of flag: two flags of one kind, one removed and one added, are a change. */
static char *flag_kind(const char *f)
{
	const char *eq;

	if (f[0] != '-')
		return NULL;
	if ((f[1] == 'D' || f[1] == 'U') && f[2]) {
		size_t n = strcspn(f + 2, "=");

		return pt_xasprintf("-D%.*s", (int)n, f + 2);
	}
	if (f[1] == 'O')
		return pt_xstrdup("-O");
	if (f[1] == 'g' && (!f[2] || (f[2] >= '0' && f[2] <= '3' && !f[3]) || !strncmp(f, "-ggdb", 5)))
		return pt_xstrdup("-g");
	if ((f[1] == 'f' || f[1] == 'W') && f[2]) {
		const char *b = f + 2;

		if (!strncmp(b, "no-", 3))
			b += 3;
		eq = strchr(b, '=');
		return pt_xasprintf("-%c%.*s", f[1], (int)(eq ? (size_t)(eq - b) : strlen(b)), b);
	}
	if (!strncmp(f, "-std=", 5) || !strncmp(f, "--std=", 6))
		return pt_xstrdup("-std");
	if (f[1] != 'I' && f[1] != 'L' && (eq = strchr(f, '=')) != NULL && !strchr(f, ' '))
		return pt_xstrndup(f, (size_t)(eq - f));
	return NULL;
}

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Marks in used[] the members of a also in b (multiset: each of b matched once). */
static void match(char **a, size_t na, char **b, size_t nb, bool *used_a, bool *used_b)
{
	char **sb = pt_xmalloc((nb ? nb : 1) * sizeof(*sb));
	size_t *cnt;

	memcpy(sb, b, nb * sizeof(*sb));
	if (nb > 1)
		qsort(sb, nb, sizeof(*sb), cmp_strp);
	cnt = pt_xcalloc(nb ? nb : 1, sizeof(*cnt));
	for (size_t i = 0; i < na; i++) {
		char **hit = nb ? bsearch(&a[i], sb, nb, sizeof(*sb), cmp_strp) : NULL;
		size_t j;

		if (!hit)
			continue;
		j = (size_t)(hit - sb);
		while (j > 0 && !strcmp(sb[j - 1], a[i]))
			j--;
		/* cnt[j]: how many of this value in b are taken */
		{
			size_t have = 0;

			for (size_t q = j; q < nb && !strcmp(sb[q], a[i]); q++)
				have++;
			if (cnt[j] < have) {
				cnt[j]++;
				used_a[i] = true;
			}
		}
	}
	/* the same from b's side: mark as many of each value as a matched */
	for (size_t i = 0; i < nb; i++) {
		char **hit = bsearch(&b[i], sb, nb, sizeof(*sb), cmp_strp);
		size_t j = (size_t)(hit - sb);

		while (j > 0 && !strcmp(sb[j - 1], b[i]))
			j--;
		if (cnt[j]) {
			cnt[j]--;
			used_b[i] = true;
		}
	}
	free(cnt);
	free(sb);
}

static void add_change(struct cmd_diff *d, const char *from, const char *to)
{
	PT_GROW(d->v, d->n, d->alloc);
	d->v[d->n++] = (struct cmd_change){ from ? pt_xstrdup(from) : NULL, to ? pt_xstrdup(to) : NULL };
}

void cmd_flag_diff(const char *old_cmd, const char *new_cmd, struct cmd_diff *d)
{
	char **to = NULL, **tn = NULL, **fo, **fn;
	size_t nto = 0, ntn = 0, nfo, nfn;
	bool *uo, *un;
	struct pt_strbuf sb;

	memset(d, 0, sizeof(*d));
	(void)cmd_tokenize(old_cmd, strlen(old_cmd), &to, &nto);
	(void)cmd_tokenize(new_cmd, strlen(new_cmd), &tn, &ntn);
	fo = group_flags(to, nto, &nfo);
	fn = group_flags(tn, ntn, &nfn);
	uo = pt_xcalloc(nfo ? nfo : 1, sizeof(*uo));
	un = pt_xcalloc(nfn ? nfn : 1, sizeof(*un));
	match(fo, nfo, fn, nfn, uo, un);
	/* Changes in the old command's order, then what was added alone. */
	for (size_t i = 0; i < nfo; i++) {
		char *k;
		size_t j = nfn;

		if (uo[i])
			continue;
		k = flag_kind(fo[i]);
		for (j = 0; k && j < nfn; j++) {
			char *k2;
			bool same;

			if (un[j])
				continue;
			k2 = flag_kind(fn[j]);
			same = k2 && !strcmp(k, k2);
			free(k2);
			if (same)
				break;
		}
		if (k && j < nfn) {
			add_change(d, fo[i], fn[j]);
			un[j] = true;
		} else {
			add_change(d, fo[i], NULL);
		}
		free(k);
	}
	for (size_t j = 0; j < nfn; j++)
		if (!un[j])
			add_change(d, NULL, fn[j]);
	if (!d->n && nfo == nfn)
		for (size_t i = 0; i < nfo; i++)
			if (strcmp(fo[i], fn[i]))
				d->reordered = true;
	pt_strbuf_init(&sb, SIZE_MAX / 2);
	for (size_t i = 0; i < d->n; i++) {
		const struct cmd_change *c = &d->v[i];

		if (i)
			pt_strbuf_adds_trunc(&sb, ", ");
		if (c->from && c->to)
			pt_strbuf_addf_trunc(&sb, "%s -> %s", c->from, c->to);
		else if (c->to)
			pt_strbuf_addf_trunc(&sb, "added %s", c->to);
		else
			pt_strbuf_addf_trunc(&sb, "removed %s", c->from);
	}
	if (!d->n)
		pt_strbuf_adds_trunc(&sb, d->reordered ? "the same flags in another order"
						       : "the same flags (only blanks or quoting differ)");
	d->text = pt_strbuf_detach(&sb);
	pt_strbuf_release(&sb);
	free(uo);
	free(un);
	cmd_tokens_free(fo, nfo);
	cmd_tokens_free(fn, nfn);
	cmd_tokens_free(to, nto);
	cmd_tokens_free(tn, ntn);
}

void cmd_flag_diff_release(struct cmd_diff *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->v[i].from);
		free(d->v[i].to);
	}
	free(d->v);
	free(d->text);
	memset(d, 0, sizeof(*d));
}

char *cmd_cache_path(const char *dir, char **real)
{
	const char *off = getenv("PTOOLS_NO_CACHE"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char rp[PATH_MAX];

	*real = NULL;
	if (off && *off && strcmp(off, "0"))
		return NULL;
	if (!realpath(dir, rp))
		return NULL;
	*real = pt_xstrdup(rp);
	/* XDG: a relative XDG_CACHE_HOME is invalid and ignored. */
	if (xdg && xdg[0] == '/')
		return pt_xasprintf("%s/ptools/build-commands/%016llx.json", xdg,
				    (unsigned long long)ninja_command_hash(rp, strlen(rp)));
	if (home && home[0] == '/')
		return pt_xasprintf("%s/.cache/ptools/build-commands/%016llx.json", home,
				    (unsigned long long)ninja_command_hash(rp, strlen(rp)));
	free(*real);
	*real = NULL;
	return NULL;
}

static int parse_hex64(const char *s, uint64_t *v)
{
	uint64_t x = 0;

	if (strlen(s) != 16)
		return -1;
	for (int i = 0; i < 16; i++) {
		int c = s[i], dv;

		if (c >= '0' && c <= '9')
			dv = c - '0';
		else if (c >= 'a' && c <= 'f')
			dv = c - 'a' + 10;
		else
			return -1;
		x = x << 4 | (uint64_t)dv;
	}
	*v = x;
	return 0;
}

int cmd_cache_parse(const uint8_t *buf, size_t len, struct cmd_cache *c, const char *src, struct pt_diag *d)
{
	json_error_t err;
	json_t *j = json_loadb((const char *)buf, len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &err), *a, *o;
	size_t i, bad = 0, bytes = 0;
	const char *tree;

	memset(c, 0, sizeof(*c));
	if (!j || !json_is_object(j) || !json_is_string(json_object_get(j, "format")) ||
	    strcmp(json_string_value(json_object_get(j, "format")), "ptools-build-commands") ||
	    json_integer_value(json_object_get(j, "version")) != 1 || !json_is_array(a = json_object_get(j, "commands"))) {
		pt_diag_add(d, PT_SEV_NOTE, src, NULL, "not a ptools build-commands file (version 1): ignored");
		json_decref(j);
		return -1;
	}
	tree = json_string_value(json_object_get(j, "tree"));
	c->tree = tree ? pt_xstrdup(tree) : NULL;
	json_array_foreach(a, i, o) {
		const char *out = json_string_value(json_object_get(o, "output"));
		const char *hs = json_string_value(json_object_get(o, "hash"));
		json_t *cj = json_object_get(o, "command");
		const char *cmd = json_string_value(cj);
		uint64_t h;

		/* A command with a NUL is not one ninja ran; a hash that is not its command's is stale. */
		if (!out || !hs || !cmd || strlen(cmd) != json_string_length(cj) || parse_hex64(hs, &h) ||
		    h != ninja_command_hash(cmd, strlen(cmd))) {
			bad++;
			continue;
		}
		cmd_cache_add(c, out, cmd, &bytes);
	}
	if (bad)
		pt_diag_add(d, PT_SEV_NOTE, src, NULL, "%zu recorded command%s dropped: not an output, a command and its hash",
			    bad, bad == 1 ? "" : "s");
	json_decref(j);
	return 0;
}

const struct cmd_record *cmd_cache_find(const struct cmd_cache *c, const char *output, uint64_t hash)
{
	for (size_t i = 0; c && i < c->n; i++)
		if (c->v[i].hash == hash && !strcmp(c->v[i].output, output))
			return &c->v[i];
	return NULL;
}

void cmd_cache_add(struct cmd_cache *c, const char *output, const char *command, size_t *bytes)
{
	size_t sz = strlen(output) + strlen(command) + 64;

	if (*bytes + sz > CMD_CACHE_MAX) {
		c->n_dropped++;
		return;
	}
	*bytes += sz;
	PT_GROW(c->v, c->n, c->alloc);
	c->v[c->n++] = (struct cmd_record){ pt_xstrdup(output), ninja_command_hash(command, strlen(command)),
					    pt_xstrdup(command) };
}

static int cmp_rec_out(const void *a, const void *b)
{
	return strcmp((*(const struct cmd_record *const *)a)->output, (*(const struct cmd_record *const *)b)->output);
}

void cmd_cache_merge(const struct cmd_cache *now, const struct cmd_cache *old, struct cmd_cache *out)
{
	const struct cmd_record **idx = pt_xmalloc((old->n ? old->n : 1) * sizeof(*idx));
	size_t bytes = 0;

	memset(out, 0, sizeof(*out));
	out->tree = now->tree ? pt_xstrdup(now->tree) : NULL;
	for (size_t i = 0; i < now->n; i++)
		cmd_cache_add(out, now->v[i].output, now->v[i].command, &bytes);
	for (size_t i = 0; i < old->n; i++)
		idx[i] = &old->v[i];
	/* A stable sort: each output's records stay latest first. */
	for (size_t i = 1; i < old->n; i++)
		for (size_t j = i; j > 0 && cmp_rec_out(&idx[j - 1], &idx[j]) > 0; j--) {
			const struct cmd_record *t = idx[j];

			idx[j] = idx[j - 1];
			idx[j - 1] = t;
		}
	for (size_t i = 0; i < now->n; i++) {
		const struct cmd_record *key = &now->v[i], **hit;
		size_t lo = 0, hi = old->n;

		/* the first of old's records for this output */
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (strcmp(idx[mid]->output, key->output) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (hit = idx + lo; hit < idx + old->n && !strcmp((*hit)->output, key->output); hit++)
			if ((*hit)->hash != key->hash) {
				cmd_cache_add(out, (*hit)->output, (*hit)->command, &bytes);
				break;
			}
	}
	out->n_dropped += now->n_dropped;
	free(idx);
}

int cmd_cache_write(const char *path, const struct cmd_cache *c, struct pt_diag *d)
{
	json_t *j = json_object(), *a = json_array();
	char *dir = pt_xstrdup(path), *slash = strrchr(dir, '/'), *tmp = NULL, *text = NULL;
	int fd = -1, rc = -1;

	json_object_set_new(j, "format", json_string("ptools-build-commands"));
	json_object_set_new(j, "version", json_integer(1));
	json_object_set_new(j, "tree", pt_json_str(c->tree));
	for (size_t i = 0; i < c->n; i++) {
		json_t *o = json_object();
		char h[17];

		pt_fmt_trunc(h, sizeof(h), "%016llx", (unsigned long long)c->v[i].hash);
		json_object_set_new(o, "output", pt_json_str(c->v[i].output));
		json_object_set_new(o, "hash", json_string(h));
		json_object_set_new(o, "command", pt_json_str(c->v[i].command));
		json_array_append_new(a, o);
	}
	json_object_set_new(j, "commands", a);
	if (slash)
		*slash = '\0';
	text = json_dumps(j, JSON_COMPACT);
	if (!text || pt_mkdirs(dir, 0700) < 0) {
		pt_diag_add(d, PT_SEV_NOTE, dir, NULL, "commands not recorded: %s", text ? strerror(errno) : "out of memory");
		goto out;
	}
	tmp = pt_xasprintf("%s.XXXXXX", path);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0 || pt_write_all(fd, text, strlen(text)) < 0 || pt_write_all(fd, "\n", 1) < 0 || fsync(fd) < 0 ||
	    close(fd) < 0 || (fd = -1, rename(tmp, path) < 0)) {
		pt_diag_add(d, PT_SEV_NOTE, path, NULL, "commands not recorded: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		unlink(tmp);
		goto out;
	}
	rc = 0;
out:
	free(text);
	free(tmp);
	free(dir);
	json_decref(j);
	return rc;
}

void cmd_cache_release(struct cmd_cache *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].output);
		free(c->v[i].command);
	}
	free(c->v);
	free(c->tree);
	memset(c, 0, sizeof(*c));
}

int cmd_cache_from_ninja(const char *dir, struct cmd_cache *c)
{
	char *exe = pyenv_which("ninja");
	struct pt_strbuf out;
	struct compdb db = { 0 };
	struct pt_diag quiet;
	size_t bytes = 0;
	int st, rc = -1;

	memset(c, 0, sizeof(*c));
	if (!exe)
		return -1;
	{
		char *argv[] = { exe, (char *)"-C", (char *)dir, (char *)"-t", (char *)"compdb", NULL };

		/* A deadline: build.ninja may include what never ends (a FIFO, a device). */
		struct childwait_opts o = { .timeout_s = CMD_NINJA_TIMEOUT_S };
		struct childwait_result res = { 0 };

		pt_strbuf_init(&out, (size_t)1 << 30);
		st = childwait_exec(argv, 1, &o, &out, &res) == 0 && !res.timed_out ? res.status : -1;
	}
	pt_diag_init(&quiet);
	if (st == 0 && out.clipped == 0 &&
	    compdb_parse((const uint8_t *)pt_strbuf_str(&out), out.len, &db, "ninja -t compdb", &quiet) == 0) {
		for (size_t i = 0; i < db.n; i++)
			if (db.v[i].output)
				cmd_cache_add(c, db.v[i].output, db.v[i].command, &bytes);
		rc = 0;
	}
	compdb_release(&db);
	pt_diag_release(&quiet);
	pt_strbuf_release(&out);
	free(exe);
	return rc;
}
