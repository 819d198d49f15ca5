/*
 * An environment as an array ("NAME=value" strings, NULL-terminated, like
 * environ or the one a child is given): the one lookup both tools use.
 */
#ifndef PT_ENVP_H
#define PT_ENVP_H

/* The value of name in envp (NULL: none), or NULL when not there. */
const char *pt_envp_get(char *const *envp, const char *name);

#endif
