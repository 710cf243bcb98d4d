/*
 * term.c - safe terminal output.
 */
#include "render.h"

void
kv_term_puts(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		fputc(*p < 0x20 || *p == 0x7f ? '?' : *p, f);
}
