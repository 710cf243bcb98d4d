/*
 * term.c - safe terminal output: control, bidi and zero-width characters
 * made visible, colour, width and wrapped lists (render.h, view.h).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "render/render.h"
#include "render/view.h"

/* The code point at p (UTF-8), its length in *len; -1 for a byte that
 * does not start a valid sequence (then *len is 1). */
static long
utf8_next(const unsigned char *p, size_t *len)
{
	long c;
	size_t n, i;

	*len = 1;
	if (*p < 0x80)
		return *p;
	if ((*p & 0xe0) == 0xc0 && *p >= 0xc2)
		n = 2, c = *p & 0x1f;
	else if ((*p & 0xf0) == 0xe0)
		n = 3, c = *p & 0x0f;
	else if ((*p & 0xf8) == 0xf0 && *p <= 0xf4)
		n = 4, c = *p & 0x07;
	else
		return -1;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return -1;
		c = (c << 6) | (p[i] & 0x3f);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 ||
	    c > 0x10ffff)) || (c >= 0xd800 && c <= 0xdfff))
		return -1;
	*len = n;
	return c;
}

/* Characters shown as <U+XXXX>: C1 controls, bidi controls (U+061C,
 * U+200E/F, U+202A-202E, U+2066-2069), zero-width ones (U+200B-200D,
 * U+2060, U+FEFF) and the noncharacters (kv_noncharacter()). */
static bool
shown_as_code(long c)
{
	return (c >= 0x80 && c <= 0x9f) || c == 0x61c ||
	    (c >= 0x200b && c <= 0x200f) || (c >= 0x202a && c <= 0x202e) ||
	    c == 0x2060 || (c >= 0x2066 && c <= 0x2069) || c == 0xfeff ||
	    kv_noncharacter(c);
}

/* Write (f != NULL) or measure s as the terminal gets it. */
static size_t
term_walk(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t width = 0, len;

	while (*p) {
		long c = utf8_next(p, &len);

		if (c < 0 || c < 0x20 || c == 0x7f) {
			if (f)
				fputc('?', f);
			width++;
		} else if (shown_as_code(c)) {
			if (f)
				fprintf(f, "<U+%04lX>", (unsigned long)c);
			width += 8;
		} else {
			if (f)
				fwrite(p, 1, len, f);
			width++;
		}
		p += len;
	}
	return width;
}

void
kv_term_puts(FILE *f, const char *s)
{
	term_walk(f, s);
}

size_t
kv_term_strwidth(const char *s)
{
	return term_walk(NULL, s);
}

int
kv_term_columns(int fd)
{
	const char *e = getenv("COLUMNS");
	struct winsize ws;

	if (e != NULL && atoi(e) > 0)
		return atoi(e) < 40 ? 40 : atoi(e);
	if (isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col < 40 ? 40 : ws.ws_col;
	return 80;
}

void
kv_term_paint(const kv_term *t, enum kv_color c, const char *s)
{
	static const char *const sgr[] = {
		[KV_C_NONE] = "", [KV_C_RED] = "\033[31m",
		[KV_C_GREEN] = "\033[32m", [KV_C_YELLOW] = "\033[33m",
		[KV_C_BOLD] = "\033[1m", [KV_C_DIM] = "\033[2m",
	};
	bool on = t->color && c != KV_C_NONE;

	if (on)
		fputs(sgr[c], t->f);
	kv_term_puts(t->f, s);
	if (on)
		fputs("\033[0m", t->f);
}

enum kv_color
kv_vmi_color(enum kv_verdict v, enum kv_on_drain d)
{
	enum kv_color c = kv_verdict_color(v);

	if (d == DRAIN_BLOCK)
		return KV_C_RED;
	if (d == DRAIN_SHUTDOWN && (c == KV_C_GREEN || c == KV_C_DIM))
		return KV_C_YELLOW;
	return c;
}

void
kv_term_place(FILE *f, const kv_analysis *a, size_t node)
{
	kv_term_puts(f, a->m->nodes[node].name);
	if (!a->capacity_known)
		fputs(", room not checked", f);
}

enum kv_color
kv_verdict_color(enum kv_verdict v)
{
	switch (v) {
	case V_OK:
		return KV_C_GREEN;
	case V_NOT_RUNNING:
	case V_NOT_JUDGED:
		return KV_C_DIM;
	case V_NO_TARGET:
	case V_STUCK:
		return KV_C_YELLOW;
	default:
		return KV_C_RED;
	}
}

void
kv_tlist_begin(kv_tlist *l, const kv_term *t, size_t col, size_t indent,
    size_t total, size_t maxlines)
{
	memset(l, 0, sizeof(*l));
	l->t = t;
	l->col = col;
	l->indent = indent;
	l->total = total;
	l->lines = 1;
	l->maxlines = t->all ? 0 : maxlines;
}

void
kv_tlist_add(kv_tlist *l, const char *s)
{
	size_t w = kv_term_strwidth(s) + 1;
	/* room left for " ... and N more" on the last line */
	size_t tail = l->shown + 1 < l->total ? 22 : 0;
	size_t width = (size_t)l->t->width;

	if (l->cut)
		return;
	if (l->col + w > width && l->col > l->indent) {
		if (l->maxlines && l->lines >= l->maxlines) {
			l->cut = true;
			return;
		}
		fprintf(l->t->f, "\n%*s", (int)l->indent, "");
		l->col = l->indent;
		l->lines++;
	}
	if (l->maxlines && l->lines >= l->maxlines &&
	    l->col + w + tail > width) {
		l->cut = true;
		return;
	}
	fputc(' ', l->t->f);
	kv_term_puts(l->t->f, s);
	l->col += w;
	l->shown++;
}

void
kv_tlist_end(kv_tlist *l)
{
	if (l->shown < l->total)
		fprintf(l->t->f, " ... and %zu more", l->total - l->shown);
	fputc('\n', l->t->f);
}

/* A character of a name in a list: node, namespace/VMI, group id. */
static bool
name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || (c != '\0' && strchr("._/-", c));
}

/* The end of the list of names that starts at p ("a, b, c"), its items
 * in *n; p itself if no name starts there. */
static const char *
list_end(const char *p, size_t *n, const char **cut, size_t keep)
{
	const char *q = p, *end = p;

	*n = 0;
	*cut = NULL;
	for (;;) {
		if (!isalnum((unsigned char)*q))
			break;	/* a name starts with a letter or digit */
		while (name_char(*q))
			q++;
		end = q;
		if (++*n == keep)
			*cut = q;
		if (q[0] != ',' || q[1] != ' ' || !isalnum((unsigned char)q[2]))
			break;
		q += 2;
	}
	return end;
}

/* The N of " and N more" at p (its end in *after), or 0. */
static size_t
more_at(const char *p, const char **after)
{
	size_t n = 0;
	const char *q = p + 5;

	if (strncmp(p, " and ", 5) != 0 || !isdigit((unsigned char)*q))
		return 0;
	while (isdigit((unsigned char)*q))
		n = n * 10 + (size_t)(*q++ - '0');
	if (strncmp(q, " more", 5) != 0)
		return 0;
	*after = q + 5;
	return n;
}

char *
kv_term_cut_lists(const char *s, size_t keep)
{
	kv_buf b = { 0 };
	const char *p = s;

	while (*p != '\0') {
		const char *cut, *end;
		size_t n;

		if (p != s && name_char(p[-1])) {
			kv_buf_append(&b, p++, 1);
			continue;
		}
		end = list_end(p, &n, &cut, keep);
		if (end == p) {
			kv_buf_append(&b, p++, 1);
			continue;
		}
		if (n > keep + 1 && strncmp(end, ", ...", 5) != 0) {
			/* a list cut already ("a, b and 180 more"): one
			 * count for both cuts */
			const char *after = end;
			size_t more = more_at(end, &after);

			kv_buf_append(&b, p, (size_t)(cut - p));
			kv_buf_printf(&b, " and %zu more", n - keep + more);
			end = after;
		} else
			kv_buf_append(&b, p, (size_t)(end - p));
		p = end;
	}
	kv_buf_append(&b, "", 1);
	return b.data;
}

/* "4 of 11 running VMIs would not migrate[; 1 not judged: ...]" */
void
kv_term_total_line(const kv_analysis *a, size_t judged, size_t bad,
    size_t unjudged, const kv_term *t)
{
	fprintf(t->f, "%zu of %zu running %s would not migrate", bad,
	    judged, kv_word(a, judged == 1 ? KV_WORD_VM : KV_WORD_VMS));
	if (unjudged > 0)
		fprintf(t->f, "; %zu not judged: the input lacks what their "
		    "checks need", unjudged);
	fputc('\n', t->f);
}

void
kv_term_check_total(const kv_analysis *a, const kv_bits *pick,
    const kv_term *t)
{
	size_t judged = 0, bad = 0, unjudged = 0;

	KV_BITS_FOREACH(pick, i) {
		if (a->vmis[i].verdict == V_NOT_RUNNING)
			continue;
		judged++;
		bad += kv_verdict_fails(a->vmis[i].verdict);
		unjudged += a->vmis[i].verdict == V_NOT_JUDGED;
	}
	kv_term_total_line(a, judged, bad, unjudged, t);
}
