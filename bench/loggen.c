/*
 * bench/loggen: writes SIZE megabytes of mixed torch-like output as fast as
 * it can: TORCH_LOGS records (single lines and a 5-line guard dump), ranked
 * lines, dispatcher trace lines with depth, c10 warnings on stderr, user
 * prints on stdout, a traceback now and then. At the end it writes the
 * seconds it spent writing, the bytes, and the CLOCK_MONOTONIC time it
 * finished at, to the file named by its second argument, so the benchmark
 * measures the child itself, not its reader, and knows when it ended.
 *   loggen SIZE_MB TIMEFILE
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long long want = (argc > 1 ? atoll(argv[1]) : 64) * 1024 * 1024, done = 0;
	static char ebuf[1 << 16], obuf[1 << 16];
	double t0 = now();
	unsigned long i = 0;
	FILE *tf;

	setvbuf(stderr, ebuf, _IOFBF, sizeof(ebuf));
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	while (done < want) {
		int ms = (int)(i % 1000), s = (int)(i / 1000 % 60), fr = (int)(i % 7), n = 0;

		n += fprintf(stderr, "I1122 02:47:%02d.%03d000 9740 torch/fx/experimental/symbolic_shapes.py:3192] [%d/0] create_env\n", s, ms, fr);
		for (int k = 0; k < 5; k++)
			n += fprintf(stderr, "V1122 02:47:%02d.%03d000 9740 torch/_dynamo/guards.py:2321] [%d/0_1] [__guards] | +- TENSOR_MATCH: check_tensor(L['x'], Tensor, DispatchKeySet(CPU), torch.float32, size=[4, %d])\n", s, ms, fr, k);
		n += fprintf(stderr, "[rank%lu]:I1122 02:47:%02d.%03d000 %lu torch/_dynamo/symbolic_convert.py:2706] [0/0] Step 1: torchdynamo start tracing inner\n", i % 2, s, ms, 11558 + i % 2);
		n += fprintf(stderr, " [call] op=[aten::ones], key=[BackendSelect]\n  [redispatch] op=[aten::ones], key=[CPU]\n   [call] op=[aten::empty.memory_format], key=[BackendSelect]\n");
		n += fprintf(stderr, "[W1122 02:54:13.085491037 ProcessGroupGloo.cpp:527] Warning: Unable to resolve hostname %lu\n", i);
		n += fprintf(stdout, "step %lu loss 0.%06lu\nepoch %lu done\n", i, i * 7919 % 1000000, i / 100);
		if (i % 100 == 99)
			n += fprintf(stderr, "Traceback (most recent call last):\n  File \"/tmp/train.py\", line 5, in <module>\n    step()\nRuntimeError: step %lu failed\n", i);
		done += n;
		i++;
	}
	fflush(stdout);
	fflush(stderr);
	tf = fopen(argc > 2 ? argv[2] : "/dev/null", "w");
	if (tf) {
		double t1 = now();

		fprintf(tf, "%.3f %lld %.6f\n", t1 - t0, done, t1);
		fclose(tf);
	}
	return 0;
}
