/*
 * surface.c - the surface a pdoc draws on in its second pass (pdf.h): an
 * A4 PDF written to a stream as it is drawn, with the document's
 * metadata, and its last page and the stream finished.  The report and
 * the crosscheck report open and finish their documents here.
 */
#include <stdio.h>
#include <stdlib.h>

#include "render/pdf/pdf.h"

static cairo_status_t
write_fn(void *closure, const unsigned char *data, unsigned int len)
{
	return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS :
	    CAIRO_STATUS_WRITE_ERROR;
}

void
pdf_open(pdoc *d, FILE *f, const char *title, const char *subject)
{
	char *vis = text_visible(title);

	d->surf = cairo_pdf_surface_create_for_stream(write_fn, f, PAGE_W,
	    PAGE_H);
	d->cr = cairo_create(d->surf);
	/* cairo refuses noncharacters: shown as text is (text_visible) */
	cairo_pdf_surface_set_metadata(d->surf, CAIRO_PDF_METADATA_TITLE,
	    vis ? vis : title);
	free(vis);
	cairo_pdf_surface_set_metadata(d->surf, CAIRO_PDF_METADATA_AUTHOR,
	    "kvscope");
	cairo_pdf_surface_set_metadata(d->surf, CAIRO_PDF_METADATA_SUBJECT,
	    subject);
	cairo_pdf_surface_set_metadata(d->surf, CAIRO_PDF_METADATA_CREATOR,
	    "kvscope " KV_VERSION);
	cairo_pdf_surface_set_metadata(d->surf,
	    CAIRO_PDF_METADATA_CREATE_DATE, d->date);
	cairo_pdf_surface_set_metadata(d->surf, CAIRO_PDF_METADATA_MOD_DATE,
	    d->date);
}

int
pdf_finish(pdoc *d, kv_err *err)
{
	cairo_status_t st;

	cairo_show_page(d->cr);
	if ((st = cairo_status(d->cr)) == CAIRO_STATUS_SUCCESS) {
		cairo_surface_finish(d->surf);
		st = cairo_surface_status(d->surf);
	}
	if (st != CAIRO_STATUS_SUCCESS) {
		kv_seterr(err, "report.pdf: %s", cairo_status_to_string(st));
		return KV_ERR;
	}
	return KV_OK;
}
