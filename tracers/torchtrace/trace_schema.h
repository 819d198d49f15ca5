/* The TORCH_TRACE index parts (trace_schema.c has the tables, column by column). */
#ifndef PT_TRACE_SCHEMA_H
#define PT_TRACE_SCHEMA_H

#include "index_schema.h"

extern const struct index_part index_part_trace_sources;
extern const struct index_part index_part_trace;

#endif
