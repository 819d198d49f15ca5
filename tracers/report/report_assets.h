/* The report's local assets, written beside its pages. */
#ifndef PT_REPORT_ASSETS_H
#define PT_REPORT_ASSETS_H

extern const char report_css[];
extern const char report_js[];

#endif
