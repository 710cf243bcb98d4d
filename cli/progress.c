/*
 * progress.c - progress on stderr (cli.h): "kvscope: PHASE: figures",
 * like the collector's lines, but only on a terminal, rewritten in place
 * and erased when the command is done.
 */
#include <stdarg.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"

static bool on;
static bool shown;

void
cli_progress_init(bool quiet)
{
	on = !quiet && isatty(STDERR_FILENO);
	cli_lap();
}

void
cli_progress(const char *fmt, ...)
{
	va_list ap;

	if (!on)
		return;
	fputs("\r\033[Kkvscope: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
	shown = true;
}

void
cli_progress_end(void)
{
	if (on && shown)
		fputs("\r\033[K", stderr);
	fflush(stderr);
	shown = false;
}

double
cli_lap(void)
{
	static struct timespec last;
	struct timespec now;
	double d;

	clock_gettime(CLOCK_MONOTONIC, &now);
	d = last.tv_sec == 0 && last.tv_nsec == 0 ? 0 :
	    (double)(now.tv_sec - last.tv_sec) +
	    (double)(now.tv_nsec - last.tv_nsec) / 1e9;
	last = now;
	return d;
}
