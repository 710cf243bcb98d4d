/*
 * wrap.c - the one word wrap of the terminal views (view.h): a line too
 * wide for the terminal breaks at spaces, its continuation lines
 * indented under its item.  kv_term_wrap wraps one string as a view
 * writes it; kv_wrap_open/kv_wrap_close wrap every line a view wrote
 * (check, what-if, diff, plan), so that no text view is wider than
 * COLUMNS (80 when unset).  Both go through wrap_line.
 *
 * The text wrapped is as the terminal gets it: snapshot strings already
 * made safe by kv_term_puts, colour as SGR sequences ("\033[...m"),
 * which take no column; a character is a column (kv_term_strwidth's
 * count).  A word wider than the line stands alone; spaces where a
 * line breaks are dropped, others kept.
 */
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "render/view.h"

/* The length of the SGR sequence at p ("\033[1m"), or 0. */
static size_t
sgr_len(const char *p, const char *end)
{
	const char *q = p + 2;

	if (end - p < 3 || p[0] != '\033' || p[1] != '[')
		return 0;
	while (q < end && ((*q >= '0' && *q <= '9') || *q == ';'))
		q++;
	return q < end && *q == 'm' ? (size_t)(q - p) + 1 : 0;
}

/* Columns of p[0..n): characters, not UTF-8 continuation bytes nor SGR
 * sequences. */
static size_t
cols(const char *p, size_t n)
{
	const char *end = p + n;
	size_t w = 0, k;

	while (p < end) {
		if ((k = sgr_len(p, end)) > 0) {
			p += k;
			continue;
		}
		w += ((unsigned char)*p & 0xc0) != 0x80;
		p++;
	}
	return w;
}

/* The colour in force after p[0..n), from sgr (the one before): the
 * last SGR sequence unless it resets ("\033[0m"). */
static void
sgr_after(const char *p, size_t n, char *sgr, size_t size)
{
	const char *end = p + n;

	for (; p < end; p++) {
		size_t k = sgr_len(p, end);

		if (k == 0)
			continue;
		if (k == 4 && p[2] == '0')
			sgr[0] = '\0';
		else if (k < size) {
			memcpy(sgr, p, k);
			sgr[k] = '\0';
		}
		p += k - 1;
	}
}

/* s[0..len) (one line, no newline) written to f from column col, broken
 * at spaces before width with `indent` spaces on each continuation line;
 * a colour in force at a break is ended before it and taken up after. */
static void
wrap_line(FILE *f, const char *s, size_t len, size_t col, size_t indent,
    size_t width)
{
	const char *p = s, *end = s + len;
	char sgr[32] = "";
	bool first = true;

	while (p < end) {
		const char *w = p;
		size_t sp, ww;

		while (w < end && *w == ' ')
			w++;
		sp = (size_t)(w - p);
		p = w;
		while (p < end && *p != ' ')
			p++;
		ww = cols(w, (size_t)(p - w));
		if (!first && w < end && col + sp + ww > width &&
		    col > indent) {
			fprintf(f, "%s\n%*s%s", *sgr ? "\033[0m" : "",
			    (int)indent, "", sgr);
			col = indent;
		} else {
			fprintf(f, "%*s", (int)sp, "");
			col += sp;
		}
		fwrite(w, 1, (size_t)(p - w), f);
		sgr_after(w, (size_t)(p - w), sgr, sizeof(sgr));
		col += ww;
		first = false;
	}
}

void
kv_term_wrap(const kv_term *t, size_t col, size_t indent, const char *s)
{
	size_t w = t->width > 0 ? (size_t)t->width : 80, n = 0;
	char *safe = NULL;
	FILE *m = open_memstream(&safe, &n);

	if (m == NULL) {	/* out of memory: unwrapped */
		kv_term_puts(t->f, s);
		return;
	}
	kv_term_puts(m, s);
	fclose(m);
	wrap_line(t->f, safe, n, col, indent, w);
	free(safe);
}

FILE *
kv_wrap_open(kv_wrapout *w, FILE *to, int width)
{
	memset(w, 0, sizeof(*w));
	w->to = to;
	w->width = width > 0 ? (size_t)width : 80;
	w->mem = open_memstream(&w->buf, &w->len);
	return w->mem != NULL ? w->mem : to;
}

/* The indent of a continuation: 4 columns under the item's own, at
 * most half the line. */
static size_t
cont_indent(const char *line, size_t len, size_t width)
{
	size_t lead = 0;

	while (lead < len && line[lead] == ' ')
		lead++;
	return lead + 4 < width / 2 ? lead + 4 : lead;
}

int
kv_wrap_close(kv_wrapout *w)
{
	const char *p, *end;

	if (w->mem == NULL)
		return ferror(w->to) ? -1 : 0;
	if (fclose(w->mem) != 0)
		w->buf = w->buf ? w->buf : xstrdup("");
	w->mem = NULL;
	for (p = w->buf, end = w->buf + w->len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (cols(p, n) <= w->width)
			fwrite(p, 1, n, w->to);
		else
			wrap_line(w->to, p, n, 0,
			    cont_indent(p, n, w->width), w->width);
		if (nl != NULL)
			fputc('\n', w->to);
		p += n + (nl != NULL);
	}
	free(w->buf);
	w->buf = NULL;
	return ferror(w->to) ? -1 : 0;
}
