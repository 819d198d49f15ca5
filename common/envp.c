/* Lookups in an environment array (envp.h). */
#include <string.h>

#include "envp.h"

const char *pt_envp_get(char *const *envp, const char *name)
{
	size_t n = strlen(name);

	for (; envp && *envp; envp++)
		if (!strncmp(*envp, name, n) && (*envp)[n] == '=')
			return *envp + n + 1;
	return NULL;
}
