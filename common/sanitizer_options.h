/* The sanitizer runtime's defaults for this project's sanitizer builds (sanitizer_options.c). */
#ifndef PT_SANITIZER_OPTIONS_H
#define PT_SANITIZER_OPTIONS_H

/* Called by the ASan runtime before main; declared here for -Wmissing-prototypes. */
const char *__asan_default_options(void);

#endif
