/*
 * xmlerr.c - libxml2's messages routed into kvscope's error handling
 * (report.h): between xml_errors_begin() and xml_errors_end() nothing of
 * libxml2 reaches stderr; its first message is kept, and the writer
 * reports it as one line naming the file when it fails.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <libxml/xmlerror.h>

#include "render/report.h"

static char first[512];

static void
generic(void *ctx, const char *fmt, ...)
{
	va_list ap;

	(void)ctx;
	if (first[0] != '\0')
		return;
	va_start(ap, fmt);
	vsnprintf(first, sizeof(first), fmt, ap);
	va_end(ap);
}

static void
structured(void *ctx, xmlErrorPtr e)
{
	(void)ctx;
	if (first[0] == '\0' && e != NULL && e->message != NULL)
		snprintf(first, sizeof(first), "%s", e->message);
}

void
xml_errors_begin(void)
{
	first[0] = '\0';
	xmlSetGenericErrorFunc(NULL, generic);
	xmlSetStructuredErrorFunc(NULL, structured);
}

const char *
xml_errors_end(void)
{
	size_t n;

	xmlSetStructuredErrorFunc(NULL, NULL);
	xmlSetGenericErrorFunc(NULL, NULL);
	/* one line: libxml2 ends its messages with a newline */
	n = strcspn(first, "\n");
	first[n] = '\0';
	return first[0] != '\0' ? first : "unknown error";
}
