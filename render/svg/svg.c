/*
 * svg.c - figures as SVG (report.h) and the standalone .svg files
 * (kv_stage_svgs, render.h).
 *
 * The SVG is a libxml2 tree: element names and numbers are ours, every
 * string from the data goes in through xmlNewProp (attributes) or
 * xmlNewTextChild (text), which escape it.  Text stays text (<text> with
 * the DejaVu family), so it is selectable and searchable; each shape with
 * a title gets a <title> child, the tooltip and accessible name.  The
 * same function serves the standalone files (SVG namespace, sizes in pt)
 * and the inline figures of the HTML report (no namespace: the HTML
 * parser supplies it; 1.6 CSS px per point, so figure text matches the
 * tables').  Output depends only on the figure: no ids, no raster images.
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>
#include <libxml/xmlsave.h>

#include "render/render.h"
#include "render/report.h"

#define SVG_NS "http://www.w3.org/2000/svg"

static void
prop_num(xmlNodePtr n, const char *name, double v)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];
	char *p;

	g_ascii_formatd(buf, sizeof(buf), "%.2f", v);
	/* trim "12.50" to "12.5", "12.00" to "12" */
	if ((p = strchr(buf, '.')) != NULL) {
		char *e = p + strlen(p) - 1;

		while (e > p && *e == '0')
			*e-- = '\0';
		if (e == p)
			*p = '\0';
	}
	if (strcmp(buf, "-0") == 0)
		strcpy(buf, "0");
	xmlNewProp(n, BAD_CAST name, BAD_CAST buf);
}

static void
prop_rgb(xmlNodePtr n, const char *name, uint32_t c)
{
	char buf[8];

	if (c == COL_NONE)
		snprintf(buf, sizeof(buf), "none");
	else
		snprintf(buf, sizeof(buf), "#%06x", (unsigned)(c & 0xffffff));
	xmlNewProp(n, BAD_CAST name, BAD_CAST buf);
}

/* A text child; bidi controls and zero-width characters in text are
 * shown as "<U+202E>" (text_visible), so a name reads as what it is. */
static xmlNodePtr
vis_child(xmlNodePtr parent, const char *tag, const char *text)
{
	char *v = text_visible(text);
	xmlNodePtr n = xmlNewTextChild(parent, NULL, BAD_CAST tag,
	    BAD_CAST (v != NULL ? v : text));

	free(v);
	return n;
}

static void
shape_svg(const kv_shape *s, xmlNodePtr parent)
{
	xmlNodePtr n;

	if (s->kind == SHAPE_RECT) {
		n = xmlNewChild(parent, NULL, BAD_CAST "rect", NULL);
		prop_num(n, "x", s->x);
		prop_num(n, "y", s->y);
		prop_num(n, "width", s->w);
		prop_num(n, "height", s->h);
		prop_rgb(n, "fill", s->fill);
		if (s->stroke != COL_NONE) {
			prop_rgb(n, "stroke", s->stroke);
			prop_num(n, "stroke-width", s->stroke_w);
		}
	} else {
		n = vis_child(parent, "text", s->text);
		prop_num(n, "x", s->x);
		prop_num(n, "y", s->y);
		prop_num(n, "font-size", s->size);
		if (s->font == FONT_BOLD || s->font == FONT_MONO_BOLD)
			xmlNewProp(n, BAD_CAST "font-weight", BAD_CAST "bold");
		if (s->font == FONT_MONO || s->font == FONT_MONO_BOLD)
			xmlNewProp(n, BAD_CAST "font-family",
			    BAD_CAST KV_FAMILY_MONO ", monospace");
		if (s->anchor != ANCHOR_START)
			xmlNewProp(n, BAD_CAST "text-anchor",
			    BAD_CAST (s->anchor == ANCHOR_MIDDLE ? "middle" :
			    "end"));
		if (s->fill != COL_INK)
			prop_rgb(n, "fill", s->fill);
		if (s->rotate != 0) {
			char *tr = g_strdup_printf("rotate(%d ",
			    (int)s->rotate);
			char x[G_ASCII_DTOSTR_BUF_SIZE],
			    y[G_ASCII_DTOSTR_BUF_SIZE], *all;

			g_ascii_formatd(x, sizeof(x), "%.2f", s->x);
			g_ascii_formatd(y, sizeof(y), "%.2f", s->y);
			all = g_strconcat(tr, x, " ", y, ")", NULL);
			xmlNewProp(n, BAD_CAST "transform", BAD_CAST all);
			g_free(all);
			g_free(tr);
		}
		if (s->title == NULL)
			xmlNewProp(n, BAD_CAST "pointer-events",
			    BAD_CAST "none");
	}
	if (s->title != NULL)
		vis_child(n, "title", s->title);
}

xmlNodePtr
fig_svg(const kv_fig *f, xmlDocPtr doc, bool standalone)
{
	xmlNodePtr svg = xmlNewDocNode(doc, NULL, BAD_CAST "svg", NULL);
	char *box;

	if (standalone) {
		xmlNsPtr ns = xmlNewNs(svg, BAD_CAST SVG_NS, NULL);
		char *w = g_strdup_printf("%dpt", (int)(f->w + 0.999));
		char *h = g_strdup_printf("%dpt", (int)(f->h + 0.999));

		xmlSetNs(svg, ns);
		xmlNewProp(svg, BAD_CAST "width", BAD_CAST w);
		xmlNewProp(svg, BAD_CAST "height", BAD_CAST h);
		g_free(w);
		g_free(h);
	} else {
		/* 1.6 CSS px per point: figure text as large as the
		 * tables' */
		prop_num(svg, "width", (double)(int)(f->w + 0.999) * 1.6);
		prop_num(svg, "height", (double)(int)(f->h + 0.999) * 1.6);
	}
	box = g_strdup_printf("0 0 %d %d", (int)(f->w + 0.999),
	    (int)(f->h + 0.999));
	xmlNewProp(svg, BAD_CAST "viewBox", BAD_CAST box);
	g_free(box);
	xmlNewProp(svg, BAD_CAST "role", BAD_CAST "img");
	xmlNewProp(svg, BAD_CAST "font-family",
	    BAD_CAST KV_FAMILY_SANS ", Verdana, sans-serif");
	prop_rgb(svg, "fill", COL_INK);
	vis_child(svg, "title", f->title);
	vis_child(svg, "desc", f->desc);
	{
		xmlNodePtr bg = xmlNewChild(svg, NULL, BAD_CAST "rect", NULL);

		xmlNewProp(bg, BAD_CAST "width", BAD_CAST "100%");
		xmlNewProp(bg, BAD_CAST "height", BAD_CAST "100%");
		xmlNewProp(bg, BAD_CAST "fill", BAD_CAST "#ffffff");
	}
	for (size_t i = 0; i < f->n; i++)
		shape_svg(&f->s[i], svg);
	return svg;
}

/* kv_writer_fn: arg is the figure */
static int
write_svg(const kv_analysis *a, FILE *f, void *arg, kv_err *err)
{
	const kv_fig *fig = arg;
	xmlDocPtr doc = xmlNewDoc(BAD_CAST "1.0");
	xmlChar *mem = NULL;
	int len = 0, rc = KV_ERR;

	(void)a;
	xmlDocSetRootElement(doc, fig_svg(fig, doc, true));
	xml_errors_begin();
	xmlDocDumpFormatMemoryEnc(doc, &mem, &len, "UTF-8", 1);
	if (mem == NULL || len <= 0) {
		kv_seterr(err, "%s.svg: cannot serialise: %s", fig->name,
		    xml_errors_end());
		goto out;
	}
	xml_errors_end();
	if (fwrite(mem, 1, (size_t)len, f) != (size_t)len) {
		kv_seterr(err, "%s.svg: write error", fig->name);
		goto out;
	}
	rc = KV_OK;
out:
	xmlFree(mem);
	xmlFreeDoc(doc);
	return rc;
}

int
fig_write_svg(const kv_fig *fig, FILE *f, kv_err *err)
{
	return write_svg(NULL, f, (void *)fig, err);
}

int
kv_stage_svgs(kv_output *o, const kv_analysis *a, kv_err *err)
{
	kv_text *t = text_new();
	kv_mview v;
	kv_fig *figs[4];
	int rc = KV_OK;

	mview_init(&v, a);
	figs[0] = fig_verdicts(a, t);
	figs[1] = fig_matrix(a, t, &v, 0, v.row.n, 0, v.col.n);
	figs[2] = fig_tradeoff(a, t);
	figs[3] = fig_drain(a, t);
	for (size_t i = 0; i < 4 && rc == KV_OK; i++) {
		char *name = xasprintf("%s.svg", figs[i]->name);

		rc = kv_output_stage(o, name, write_svg, a, figs[i], err);
		free(name);
	}
	for (size_t i = 0; i < 4; i++)
		fig_free(figs[i]);
	text_free(t);
	return rc;
}
