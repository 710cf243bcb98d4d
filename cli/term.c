/*
 * term.c - where a command's view writes (cli.h): the terminal's width,
 * colour and format from the options, and the text views' lines
 * wrapped to that width (render/view.h's kv_wrap_open) until the
 * command is done.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "render/render.h"

void
cli_term(const cli_args *o, kv_term *t)
{
	const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");

	memset(t, 0, sizeof(*t));
	t->f = stdout;
	t->fmt = o->fmt;
	t->all = o->all;
	t->tty = isatty(STDOUT_FILENO);
	t->width = kv_term_columns(STDOUT_FILENO);
	if (o->color >= 0)
		t->color = o->color == 1;
	else
		t->color = isatty(STDOUT_FILENO) && (nc == NULL || *nc == '\0')
		    && (term == NULL || strcmp(term, "dumb") != 0);
}

/* The text a view wrote through cli_term_wrap, until cli_term_done. */
static kv_wrapout wrapping;

void
cli_term_wrap(kv_term *t)
{
	if (t->fmt == KV_OUT_TEXT && wrapping.mem == NULL)
		t->f = kv_wrap_open(&wrapping, stdout, t->width);
}

int
cli_term_done(void)
{
	return wrapping.mem != NULL ? kv_wrap_close(&wrapping) : 0;
}
