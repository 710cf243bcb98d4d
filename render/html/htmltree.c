/*
 * htmltree.c - the HTML writer's tree helpers (html.h): elements, text
 * and attributes, always escaped by libxml2 (xmlNewTextChild,
 * xmlNewProp), with bidi controls and zero-width characters of snapshot
 * strings isolated and shown visibly; and the small recurring pieces of
 * the report (badges, tables with a header row, sections, fact tables).
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "render/html/html.h"

/* a word of prose this long with a '.' or '/' is a path (path_text) */
#define LONG_PATH 24

/* The end of the word (run without white space) at p, or of the white
 * space at p; *odd is set when the word holds a character that
 * text_invisible() names (a bidi control, a zero-width character). */
static const char *
word_end(const char *p, bool *odd)
{
	bool space = g_unichar_isspace(g_utf8_get_char_validated(p, -1));

	*odd = false;
	while (*p != '\0') {
		gunichar c = g_utf8_get_char_validated(p, -1);
		bool bad = c == (gunichar)-1 || c == (gunichar)-2;

		if (!bad && g_unichar_isspace(c) != space)
			break;
		if (!bad && text_invisible(c) && c != '\n')
			*odd = true;
		p = bad ? p + 1 : g_utf8_next_char(p);
	}
	return p;
}

/* Append text to n; every word that holds a bidi control or zero-width
 * character goes into its own <bdi>, with those characters shown as
 * "<U+202E>": the word reads as what it is, and whatever reordering is
 * left ends with it.  (The document's <title> holds text only.) */
static void
bidi_text(xmlNodePtr n, const char *text)
{
	const char *run = text;

	for (const char *p = text; *p != '\0';) {
		bool odd;
		const char *e = word_end(p, &odd);

		if (odd) {
			char *w = xstrndup(p, (size_t)(e - p));
			char *v = text_visible(w);

			if (p > run)
				xmlAddChild(n, xmlNewTextLen(BAD_CAST run,
				    (int)(p - run)));
			xmlNewTextChild(n, NULL, BAD_CAST "bdi",
			    BAD_CAST (v != NULL ? v : w));
			free(v);
			free(w);
			run = e;
		}
		p = e;
	}
	if (*run != '\0')
		xmlAddChild(n, xmlNewText(BAD_CAST run));
}

/* Append to n the text from *run up to e, with a <wbr> after each of the
 * characters in at that stands in [from, e) and is not the last one;
 * *run moves past the last break (the caller appends what is left). */
static void
break_after(xmlNodePtr n, const char **run, const char *from, const char *e,
    const char *at)
{
	for (const char *q = from; q + 1 < e; q++) {
		if (strchr(at, *q) == NULL)
			continue;
		xmlAddChild(n, xmlNewTextLen(BAD_CAST *run,
		    (int)(q + 1 - *run)));
		xmlNewChild(n, NULL, BAD_CAST "wbr", NULL);
		*run = q + 1;
	}
}

/* Whether a word of prose is a long path (spec.template.spec.volumes[],
 * registry/image): it gets break points after its '.' and '/'. */
static bool
long_path(const char *p, const char *e)
{
	return e - p >= LONG_PATH &&
	    (memchr(p, '.', (size_t)(e - p)) != NULL ||
	    memchr(p, '/', (size_t)(e - p)) != NULL);
}

/* Append text to n, each long path with a <wbr> after its '.' and '/',
 * so a narrow screen breaks it there rather than inside a word. */
static void
path_text(xmlNodePtr n, const char *text)
{
	const char *run = text;

	for (const char *p = text; *p != '\0';) {
		const char *e = p + strcspn(p, " \n\t");

		if (long_path(p, e))
			break_after(n, &run, p, e, "./");
		p = e + strspn(e, " \n\t");
	}
	if (*run != '\0')
		xmlAddChild(n, xmlNewText(BAD_CAST run));
}

/* Whether text of this element is prose a reader sees wrapped (not a
 * script, style, title or option). */
static bool
prose_tag(const char *tag)
{
	static const char *const tags[] = { "p", "li", "td", "span", "div",
	    "dd", "figcaption", "summary", NULL };

	for (size_t i = 0; tags[i] != NULL; i++)
		if (strcmp(tag, tags[i]) == 0)
			return true;
	return false;
}

xmlNodePtr
h_el(xmlNodePtr parent, const char *tag, const char *text)
{
	char *v = text != NULL ? text_visible(text) : NULL;
	xmlNodePtr n;

	if (v == NULL && text != NULL && prose_tag(tag) &&
	    strlen(text) >= LONG_PATH) {
		n = xmlNewChild(parent, NULL, BAD_CAST tag, NULL);
		path_text(n, text);
		return n;
	}
	if (v == NULL)	/* nothing to isolate */
		return xmlNewTextChild(parent, NULL, BAD_CAST tag,
		    BAD_CAST text);
	if (strcmp(tag, "title") == 0) {	/* text only: no <bdi> */
		n = xmlNewTextChild(parent, NULL, BAD_CAST tag, BAD_CAST v);
		free(v);
		return n;
	}
	free(v);
	n = xmlNewChild(parent, NULL, BAD_CAST tag, NULL);
	bidi_text(n, text);
	return n;
}

/* Attribute values (tooltips, sort keys) show bidi controls and
 * zero-width characters as "<U+202E>": no element isolates them. */
void
h_attr(xmlNodePtr n, const char *name, const char *value)
{
	char *v = text_visible(value);

	xmlNewProp(n, BAD_CAST name, BAD_CAST (v != NULL ? v : value));
	free(v);
}

xmlNodePtr
h_elc(xmlNodePtr parent, const char *tag, const char *cls, const char *text)
{
	xmlNodePtr n = h_el(parent, tag, text);

	if (cls != NULL)
		h_attr(n, "class", cls);
	return n;
}

/* An element holding a name that may break only after '/', '-' or '.'
 * (a <wbr> there; CSS keeps the rest of it whole).  A name with bidi
 * controls or invisible characters is isolated as h_el() does, without
 * break points. */
xmlNodePtr
h_name(xmlNodePtr parent, const char *tag, const char *cls, const char *text)
{
	char *v = text_visible(text);
	xmlNodePtr n;
	const char *run = text;

	if (v != NULL) {
		free(v);
		return h_elc(parent, tag, cls, text);
	}
	n = xmlNewChild(parent, NULL, BAD_CAST tag, NULL);
	if (cls != NULL)
		h_attr(n, "class", cls);
	break_after(n, &run, text, text + strlen(text), "/-.");
	if (*run != '\0')
		xmlAddChild(n, xmlNewText(BAD_CAST run));
	return n;
}

/* Append text to n (no element). */
void
h_txt(xmlNodePtr n, const char *text)
{
	char *v = text_visible(text);

	if (v == NULL && prose_tag((const char *)n->name))
		path_text(n, text);
	else
		bidi_text(n, text);
	free(v);
}

/* h_el() with a string the caller gives up */
xmlNodePtr
h_el_own(xmlNodePtr parent, const char *tag, const char *cls, char *text)
{
	xmlNodePtr n = h_elc(parent, tag, cls, text);

	free(text);
	return n;
}

xmlNodePtr
h_num_cell(xmlNodePtr tr, size_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%zu", v);
	return h_elc(tr, "td", "num", buf);
}

const char *
h_tone_class(enum kv_tone t)
{
	return t == TONE_OK ? "tone-ok" : t == TONE_WARN ? "tone-warn" :
	    t == TONE_FAIL ? "tone-fail" : "tone-none";
}

void
h_badge(xmlNodePtr parent, enum kv_tone t, const char *sym, const char *word)
{
	char *cls = xasprintf("badge %s", h_tone_class(t));
	char *s = xasprintf("%s %s", sym, word);

	h_elc(parent, "span", cls, s);
	free(cls);
	free(s);
}

xmlNodePtr
h_table(xmlNodePtr parent, const char *cls, const char *const *heads,
    const char *const *head_cls, size_t n)
{
	xmlNodePtr box = h_elc(parent, "div", "scroll", NULL);
	xmlNodePtr t = xmlNewChild(box, NULL, BAD_CAST "table", NULL);
	xmlNodePtr tr;

	if (cls != NULL)
		h_attr(t, "class", cls);
	tr = xmlNewChild(xmlNewChild(t, NULL, BAD_CAST "thead", NULL), NULL,
	    BAD_CAST "tr", NULL);
	for (size_t i = 0; i < n; i++) {
		xmlNodePtr th = h_el(tr, "th", heads[i]);

		h_attr(th, "scope", "col");
		if (head_cls != NULL && head_cls[i] != NULL)
			h_attr(th, "class", head_cls[i]);
	}
	return t;
}

xmlNodePtr
h_section(xmlNodePtr main, const char *id, const char *title)
{
	xmlNodePtr s = xmlNewChild(main, NULL, BAD_CAST "section", NULL);

	size_t k = strspn(title, "0123456789");
	xmlNodePtr h;

	h_attr(s, "id", id);
	if (k == 0 || strncmp(title + k, "  ", 2) != 0) {
		h_el(s, "h2", title);
		return s;
	}
	/* "4  VMIs that need attention": the section's number set apart,
	 * not read as a count of VMIs */
	h = h_el(s, "h2", NULL);
	h_el_own(h, "span", "secno", xstrndup(title, k));
	h_txt(h, title + k);
	return s;
}

static void
fact(xmlNodePtr tbody, const char *key, const char *value)
{
	xmlNodePtr tr = xmlNewChild(tbody, NULL, BAD_CAST "tr", NULL);

	h_attr(h_el(tr, "th", key), "scope", "row");
	h_elc(tr, "td", "wrap", value);
}

/* A two-column table of facts; takes v over. */
void
h_facts_table(xmlNodePtr parent, kv_fact *v, size_t n)
{
	xmlNodePtr box = h_elc(parent, "div", "scroll", NULL);
	xmlNodePtr t = xmlNewChild(box, NULL, BAD_CAST "table", NULL), tb;

	h_attr(t, "class", "facts");
	tb = xmlNewChild(t, NULL, BAD_CAST "tbody", NULL);
	for (size_t i = 0; i < n; i++) {
		xmlNodePtr tr;

		if (v[i].names == NULL) {
			fact(tb, v[i].key, v[i].value);
			continue;
		}
		tr = xmlNewChild(tb, NULL, BAD_CAST "tr", NULL);
		h_attr(h_el(tr, "th", v[i].key), "scope", "row");
		h_names(h_elc(tr, "td", "wrap", NULL), v[i].names,
		    v[i].nnames, KV_FACT_NAMES);
	}
	facts_free(v, n);
}


xmlNodePtr
h_details(xmlNodePtr parent, const char *summary, bool open)
{
	xmlNodePtr d = h_elc(parent, "details", "more", NULL);

	if (open)
		h_attr(d, "open", "open");
	h_el(d, "summary", summary);
	return d;
}

/* names v[from..to) into p, ", " between, each unbroken */
static void
names_run(xmlNodePtr p, const char *const *v, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++) {
		if (i > from)
			h_txt(p, ", ");
		h_elc(p, "span", "nw", v[i]);
	}
}

void
h_names(xmlNodePtr td, const char *const *v, size_t n, size_t shown)
{
	h_names_in(td, v, n, shown, "findings.json");
}

void
h_names_in(xmlNodePtr td, const char *const *v, size_t n, size_t shown,
    const char *file)
{
	/* "and 1 more" would take the room of the name */
	size_t k = n <= shown + 1 ? n : shown;
	char *s;
	xmlNodePtr d;

	if (n == 0) {
		h_txt(td, "none");
		return;
	}
	names_run(td, v, 0, k);
	if (k == n)
		return;
	s = xasprintf(" and %zu more (all in %s)", n - k, file);
	h_txt(td, s);
	free(s);
	s = xasprintf("All %zu", n);
	d = h_details(td, s, false);
	free(s);
	names_run(h_el(d, "p", NULL), v, 0, n);
}

void
h_node_names(xmlNodePtr td, const kv_analysis *a, const size_t *idx,
    size_t n, size_t shown)
{
	const char **v = xcalloc(n + 1, sizeof(*v));

	for (size_t i = 0; i < n; i++)
		v[i] = a->m->nodes[idx[i]].name;
	h_names(td, v, n, shown);
	free(v);
}
