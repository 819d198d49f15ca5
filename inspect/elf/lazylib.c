/* Libraries opened on first use; see lazylib.h. */
#include "lazylib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

const char *pt_lazylib_load(struct pt_lazylib *l)
{
	const char *err;

	if (__atomic_load_n(&l->tried, __ATOMIC_ACQUIRE))
		return l->error;
	pthread_mutex_lock(&lock);
	if (!l->tried) {
		void *h = dlopen(l->soname, RTLD_NOW | RTLD_LOCAL);

		l->error = NULL;
		if (!h) {
			snprintf(l->buf, sizeof(l->buf), "cannot load %s: %s", l->soname, dlerror());
			l->error = l->buf;
		}
		for (size_t i = 0; h && i < l->n; i++) {
			*l->syms[i].slot = dlsym(h, l->syms[i].name);
			if (!*l->syms[i].slot) {
				snprintf(l->buf, sizeof(l->buf), "cannot load %s: no %s in it",
					 l->soname, l->syms[i].name);
				l->error = l->buf;
				break;
			}
		}
		__atomic_store_n(&l->tried, true, __ATOMIC_RELEASE);
	}
	err = l->error;
	pthread_mutex_unlock(&lock);
	return err;
}
