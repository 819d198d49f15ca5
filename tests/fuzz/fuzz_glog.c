/* fuzz-links: pttrace_lib */
/* glog_parse and compileid_parse on arbitrary bytes: the entry points the unit tests call. */
#include <stddef.h>
#include <stdint.h>

#include "compileid.h"
#include "glog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct glog_prefix p;
	struct compileid id;
	char buf[COMPILEID_MAX];

	if (glog_parse(data, size, &p) == 0) {
		(void)glog_time_us(&p, 1795315638000000, 3600);
		if (p.msg_off < size)
			(void)compileid_parse(data + p.msg_off, size - p.msg_off, &id);
	}
	if (compileid_parse(data, size, &id) >= 0) {
		compileid_format(&id, buf, sizeof(buf));
		compileid_format_dir(&id, buf, sizeof(buf));
	}
	return 0;
}
