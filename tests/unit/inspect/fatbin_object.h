/*
 * The object test_fatbin_scan.c and test_report_cuda.c read: a real nvcc 13.0
 * object kept in the source tree (tests/fuzz/corpus/fuzz_fatbin/sm75_lineinfo.o),
 * loaded once per group (load, unload) and scanned from a private copy that a
 * patch may damage first (scan, done).
 */
static uint8_t *obj;
static size_t obj_len;

static int load(void **state)
{
	const char *src = getenv("PT_SRC");
	char path[4096];
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/tests/fuzz/corpus/fuzz_fatbin/sm75_lineinfo.o",
		 src ? src : ".");
	if (!(f = fopen(path, "rb")))
		return 0;
	fseek(f, 0, SEEK_END);
	obj_len = (size_t)ftell(f);
	rewind(f);
	obj = malloc(obj_len);
	if (fread(obj, 1, obj_len, f) != obj_len)
		obj_len = 0;
	fclose(f);
	return 0;
}

static int unload(void **state)
{
	(void)state;
	free(obj);
	return 0;
}

struct run {
	uint8_t *buf;
	struct elfobj o;
	struct cuda_scan s;
	struct pt_diag d;
};

/* Scan a copy of the object after patch(buf) has damaged it. */
static void scan(struct run *r, void (*patch)(uint8_t *), unsigned flags)
{
	assert_true(obj_len > 0);	/* a file of the repository: never a skip */
	r->buf = malloc(obj_len);
	memcpy(r->buf, obj, obj_len);
	if (patch)
		patch(r->buf);
	pt_diag_init(&r->d);
	assert_int_equal(elfobj_open_mem(&r->o, "k.o", r->buf, obj_len, &r->d), 0);
	assert_int_equal(cuda_scan(&r->o, flags, &r->s, &r->d), 0);
}

static void done(struct run *r)
{
	cuda_scan_release(&r->s);
	elfobj_release(&r->o);
	pt_diag_release(&r->d);
	free(r->buf);
}
