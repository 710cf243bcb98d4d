/*
 * text.c - fonts and text measurement for the figures and the PDF.
 *
 * One private pango font map and context per report: 72 dpi (a point is
 * a user unit in PDF and SVG) and no metric hinting, so a string measures
 * the same whatever the target.  Text is always set with
 * pango_layout_set_text: data never passes through a markup parser.
 * The kv_text owns its font map, context and font descriptions.
 *
 * Every string is cleaned before pango sees it (text_clean): characters
 * that reorder or hide text become visible, over-long words and texts are
 * shortened with an ellipsis.  This bounds the work pango does for any
 * snapshot string, so layout time is linear in the input length.
 */
#include <string.h>

#include <glib.h>
#include <pango/pangocairo.h>

#include "render/report.h"

struct kv_text {
	PangoFontMap *map;
	PangoContext *ctx;
	PangoFontDescription *fonts[FONT_COUNT];
	PangoLayout *scratch;		/* for text_size and text_fit */
};

kv_text *
text_new(void)
{
	static const char *const spec[FONT_COUNT] = {
		KV_FAMILY_SANS, KV_FAMILY_SANS " Bold", KV_FAMILY_MONO,
		KV_FAMILY_MONO " Bold",
	};
	kv_text *t = xcalloc(1, sizeof(*t));
	cairo_font_options_t *fo = cairo_font_options_create();

	t->map = pango_cairo_font_map_new();
	t->ctx = pango_font_map_create_context(t->map);
	pango_cairo_context_set_resolution(t->ctx, 72.0);
	cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
	cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
	cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
	pango_cairo_context_set_font_options(t->ctx, fo);
	cairo_font_options_destroy(fo);
	pango_context_set_language(t->ctx, pango_language_from_string("en"));
	for (int i = 0; i < FONT_COUNT; i++)
		t->fonts[i] = pango_font_description_from_string(spec[i]);
	t->scratch = pango_layout_new(t->ctx);
	return t;
}

void
text_free(kv_text *t)
{
	if (t == NULL)
		return;
	g_object_unref(t->scratch);
	for (int i = 0; i < FONT_COUNT; i++)
		pango_font_description_free(t->fonts[i]);
	g_object_unref(t->ctx);
	g_object_unref(t->map);
	free(t);
}

/* Bidi controls, zero-width characters and control characters: shown as
 * "<U+202E>" so that a name cannot display as something else. */
bool
text_invisible(gunichar c)
{
	return (c < 0x20 && c != '\n') || (c >= 0x7f && c < 0xa0) ||
	    (c >= 0x200b && c <= 0x200f) || (c >= 0x202a && c <= 0x202e) ||
	    (c >= 0x2060 && c <= 0x2069) || c == 0x061c || c == 0xfeff ||
	    kv_noncharacter((long)c);
}

/* text_clean(), and with limit false text_visible() */
static char *
clean(const char *s, bool limit)
{
	kv_buf b = {0};
	size_t chars = 0, word = 0;

	for (const char *p = s; *p != '\0';) {
		gunichar c = g_utf8_get_char_validated(p, -1);
		const char *next;
		bool bad = c == (gunichar)-1 || c == (gunichar)-2;

		next = bad ? p + 1 : g_utf8_next_char(p);
		word = bad || !g_unichar_isspace(c) ? word + 1 : 0;
		if (limit && word == KV_WORD_MAX) {	/* skip the rest */
			kv_buf_printf(&b, "\u2026");
			while (*next != '\0' && !g_unichar_isspace(
			    g_utf8_get_char_validated(next, -1)))
				next++;
		} else if (bad)
			kv_buf_printf(&b, "\ufffd");
		else if (text_invisible(c))
			kv_buf_printf(&b, "<U+%04X>", (unsigned)c);
		else
			kv_buf_append(&b, p, (size_t)(next - p));
		p = next;
		if (limit && ++chars == KV_TEXT_MAX && *p != '\0') {
			kv_buf_printf(&b, "\u2026");
			break;
		}
	}
	return b.data != NULL ? b.data : xstrdup("");
}

char *
text_clean(const char *s)
{
	return clean(s, true);
}

char *
text_visible(const char *s)
{
	for (const char *p = s; *p != '\0';) {
		gunichar c = g_utf8_get_char_validated(p, -1);

		if (c == (gunichar)-1 || c == (gunichar)-2 ||
		    text_invisible(c))
			return clean(s, false);
		p = g_utf8_next_char(p);
	}
	return NULL;
}

static void
setup(kv_text *t, PangoLayout *l, const char *s, enum kv_font font,
    double size, double wrap_w)
{
	char *clean = text_clean(s);

	pango_font_description_set_size(t->fonts[font],
	    (gint)(size * PANGO_SCALE + 0.5));
	pango_layout_set_font_description(l, t->fonts[font]);
	pango_layout_set_text(l, clean, -1);
	free(clean);
	if (wrap_w > 0) {
		pango_layout_set_width(l, (int)(wrap_w * PANGO_SCALE));
		pango_layout_set_wrap(l, PANGO_WRAP_WORD_CHAR);
	} else
		pango_layout_set_width(l, -1);
}

PangoLayout *
text_layout(kv_text *t, const char *s, enum kv_font font, double size,
    double wrap_w)
{
	PangoLayout *l = pango_layout_new(t->ctx);

	setup(t, l, s, font, size, wrap_w);
	text_no_hyphens(l);
	return l;
}

/* pango_attr_list_filter's callback: drop what starts at or past the
 * text's length (*data), end the rest there. */
static gboolean
clip_attr(PangoAttribute *at, gpointer data)
{
	guint len = *(const guint *)data;

	if (at->start_index >= len && at->start_index != 0)
		return TRUE;
	if (at->end_index > len && at->end_index != G_MAXUINT)
		at->end_index = len;
	return FALSE;
}

void
text_clip_attrs(PangoLayout *l)
{
	PangoAttrList *al = pango_layout_get_attributes(l);
	guint len = (guint)strlen(pango_layout_get_text(l));
	PangoAttrList *gone;

	if (al == NULL)
		return;
	pango_attr_list_ref(al);
	gone = pango_attr_list_filter(al, clip_attr, &len);
	if (gone != NULL)
		pango_attr_list_unref(gone);
	/* set again: the layout recomputes its lines */
	pango_layout_set_attributes(l, al);
	pango_attr_list_unref(al);
}

/* Where to cut s, which must end by byte end: after the last ". " or
 * "; " (else ": ", else ", ") in the last two thirds of s[0..end), so
 * that a cut text ends at a clause, not inside one ("for a…"); end
 * itself when there is none. */
static int
clause_end(const char *s, int end)
{
	static const char *const marks[][2] = {
		{ ". ", "; " }, { ": ", ", " },
	};

	for (size_t k = 0; k < 2; k++)
		for (int i = end - 1; i > end / 3 && i > 3; i--)
			if (s[i] == ' ' && (s[i - 1] == marks[k][0][0] ||
			    s[i - 1] == marks[k][1][0]) &&
			    !(s[i - 1] == '.' && s[i - 3] == '.'))  /* e.g. */
				return i;
	return end;
}

bool
text_max_lines(kv_text *t, PangoLayout *l, enum kv_font font, double size,
    double wrap_w, int lines)
{
	const char *s = pango_layout_get_text(l);
	PangoLayoutLine *last;
	char *tail, *fit, *cut;
	const char *sep;
	int end, cut_at;

	if (lines <= 0 || pango_layout_get_line_count(l) <= lines)
		return false;
	/* the text up to the last line kept, then that line with an
	 * ellipsis: in the text itself, so that extracted text shows it */
	last = pango_layout_get_line_readonly(l, lines - 1);
	end = last->start_index + last->length;
	cut_at = clause_end(s, end);
	sep = cut_at < end ? " " : "";
	end = cut_at;
	while (end > 0 && (s[end - 1] == ' ' || s[end - 1] == '\n'))
		end--;
	if (end < last->start_index) {
		/* the clause ended on an earlier line: no fitting needed */
		cut = xasprintf("%.*s \u2026", end, s);
		pango_layout_set_text(l, cut, -1);
		text_clip_attrs(l);
		free(cut);
		return true;
	}
	tail = xasprintf("%.*s%s\u2026", end - last->start_index,
	    s + last->start_index, sep);
	fit = text_fit(t, tail, font, size, wrap_w);
	cut = xasprintf("%.*s%s", last->start_index, s, fit);
	pango_layout_set_text(l, cut, -1);
	text_clip_attrs(l);	/* the attributes' bytes past the cut */
	free(tail);
	free(fit);
	free(cut);
	return true;
}

void
text_no_hyphens(PangoLayout *l)
{
	PangoAttrList *al = pango_layout_get_attributes(l);

	if (al == NULL) {
		al = pango_attr_list_new();
		pango_layout_set_attributes(l, al);
		pango_attr_list_unref(al);
	}
	/* a name broken across lines must not gain a hyphen it lacks */
	pango_attr_list_insert(al, pango_attr_insert_hyphens_new(FALSE));
}

void
text_size(kv_text *t, const char *s, enum kv_font font, double size,
    double *w, double *h)
{
	PangoRectangle r;

	setup(t, t->scratch, s, font, size, 0);
	pango_layout_get_extents(t->scratch, NULL, &r);
	if (w != NULL)
		*w = (double)r.width / PANGO_SCALE;
	if (h != NULL)
		*h = (double)r.height / PANGO_SCALE;
}

char *
text_fit(kv_text *t, const char *s, enum kv_font font, double size,
    double max_w)
{
	glong lo = 0, hi;
	double w;
	char *try = NULL, *clip = NULL, *out;

	text_size(t, s, font, size, &w, NULL);
	if (w <= max_w)
		return xstrdup(s);
	/* no line holds more than KV_FIT_MAX characters: search in those */
	if (g_utf8_strlen(s, KV_FIT_MAX * 4) >= KV_FIT_MAX)
		s = clip = xstrndup(s, (size_t)(g_utf8_offset_to_pointer(s,
		    KV_FIT_MAX) - s));
	/* the longest prefix that fits with the ellipsis: binary search */
	hi = g_utf8_strlen(s, -1);
	while (lo < hi) {
		glong mid = (lo + hi + 1) / 2;
		const char *end = g_utf8_offset_to_pointer(s, mid);

		free(try);
		try = xasprintf("%.*s\u2026", (int)(end - s), s);
		text_size(t, try, font, size, &w, NULL);
		if (w <= max_w)
			lo = mid;
		else
			hi = mid - 1;
	}
	free(try);
	out = xasprintf("%.*s\u2026",
	    (int)(g_utf8_offset_to_pointer(s, lo) - s), s);
	free(clip);
	return out;
}

void
text_draw(kv_text *t, cairo_t *cr, PangoLayout *l, double x, double y,
    uint32_t rgb)
{
	(void)t;
	cairo_save(cr);
	cairo_set_source_rgb(cr, ((rgb >> 16) & 0xff) / 255.0,
	    ((rgb >> 8) & 0xff) / 255.0, (rgb & 0xff) / 255.0);
	cairo_move_to(cr, x, y);
	pango_cairo_show_layout(cr, l);
	cairo_restore(cr);
}
