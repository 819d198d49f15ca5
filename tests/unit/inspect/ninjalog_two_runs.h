/*
 * A .ninja_log of two runs (times restarting), in completion order as ninja
 * writes them: read by test_ninjalog.c (runs, latest records) and
 * test_buildprofile.c (the profile over it).
 */
#define P(s) (const uint8_t *)(s), strlen(s)

static const char two_runs[] =
	"# ninja log v6\n"
	/* in completion order, as ninja writes them */
	"0\t1000\t1700000000000000000\tc10/CMakeFiles/c10.dir/core/A.cpp.o\t1111\n"
	"1000\t1500\t1700000000000000000\tgen/x.h\t3333\n"
	"1000\t1500\t1700000000000000000\tgen/y.h\t3333\n"
	"0\t3000\t1700000000000000000\tc10/CMakeFiles/c10.dir/util/B.cpp.o\t2222\n"
	"3000\t4000\t1700000000000000000\tlib/libc10.so\t4444\n"
	/* second run: times restart */
	"0\t500\t1700000000000000001\tc10/CMakeFiles/c10.dir/util/B.cpp.o\tbeef\n"
	"0\t2000\t1700000000000000001\tc10/CMakeFiles/c10.dir/core/A.cpp.o\t1111\n"
	"2000\t2600\t1700000000000000001\tcaffe2/CMakeFiles/torch_cpu.dir/__/aten/src/ATen/R.cpp.o\t5555\n";
