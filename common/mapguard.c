/* SIGBUS from a shrinking mapped file as an error; see mapguard.h. */
#include "mapguard.h"

#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>

static __thread struct pt_mapguard *top;
static pthread_once_t installed = PTHREAD_ONCE_INIT;

static void on_sigbus(int sig)
{
	struct pt_mapguard *g = top;

	if (!g) {
		/* Not ours: die of the signal as without a handler. */
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	top = g->prev;
	siglongjmp(g->jb, 1);
}

static void install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigbus;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

void pt_mapguard_push(struct pt_mapguard *g)
{
	pthread_once(&installed, install);
	g->prev = top;
	top = g;
}

void pt_mapguard_end(struct pt_mapguard *g)
{
	top = g->prev;
}
