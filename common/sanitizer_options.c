/*
 * The sanitizer runtime's defaults for every program of a PT_SANITIZE or
 * PT_FUZZ tree (CMakeLists.txt links this file into each of them); ASAN_OPTIONS
 * from the environment still overrides them flag by flag.
 *
 * intercept_tls_get_addr=0: up to GCC 13 and LLVM 16 the runtime's
 * __tls_get_addr interceptor takes a dynamic TLS block for one with glibc
 * 2.19's header when the block starts 16 bytes past a page boundary, and reads
 * the two words before it as that block's address and size. Since glibc 2.25
 * there is no such header; a block lands there by the layout of the heap alone,
 * and LeakSanitizer's tracer then dies at exit reading the made-up range
 * ("DTLS 7 at 0x0000000000a0-0x0010000011a2", "Tracer caught signal 11",
 * "LeakSanitizer has encountered a fatal error"): google/sanitizers#1322.
 * Seen in the ASan tree here on `ptinspect FILE` for a library in one folder
 * and not in another (the libraries it dlopens have TLS: libdw, libelf); a
 * change elsewhere that moved the heap made inspect_debug_verdicts fail 6 of
 * 6 runs. Without the interceptor the runtime does not track those blocks; a
 * heap pointer kept only in a dlopened library's TLS would be reported as a leak.
 */
#include "sanitizer_options.h"

const char *__asan_default_options(void)
{
	return "intercept_tls_get_addr=0";
}
