/*
 * report_stub.c - placeholders until the HTML/SVG/PDF writers land.
 */
#include "render.h"

int
kv_write_pdf(const kv_analysis *a, FILE *f, void *arg, kv_err *err)
{
	(void)a; (void)f; (void)arg;
	return kv_seterr(err, "report.pdf: the PDF writer is not built yet");
}

