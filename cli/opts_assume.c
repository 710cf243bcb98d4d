/*
 * opts_assume.c - the options that state what no snapshot shows (cli.h):
 * --link and --dirty-rate (given to the model cli_load loads, through
 * cli_assumed) and --window, parsed by analyze/estimate's parsers.
 */
#include <string.h>

#include "cli/cli.h"

static kv_assume parsed_assume = { 0, -1, -1 };
static bool assume_given;

const kv_assume *
cli_assumed(void)
{
	return assume_given ? &parsed_assume : NULL;
}

/* --link 25Gbit, --dirty-rate 40MB/s or 10MB/s-60MB/s */
int
cli_opt_rate(const kv_cmd *cmd, const cli_option *op, const char *arg,
    cli_args *o, size_t off)
{
	bool link = strcmp(op->name, "link") == 0;
	double lo, hi;

	(void)off;
	if (!kv_parse_rate(arg, &lo, &hi, !link) || (link && lo <= 0))
		return cli_fail(cmd, "--%s: \"%s\" is not a rate (e.g. %s)",
		    op->name, arg, link ? "25Gbit, 10Gbps, 1250MB/s" :
		    "40MB/s, 10MB/s-60MB/s, 64MiB/s");
	if (link)
		o->assume.link_bps = lo;
	else {
		o->assume.dirty_lo = lo;
		o->assume.dirty_hi = hi;
	}
	parsed_assume = o->assume;
	assume_given = true;
	return 0;
}

/* --window 2h, 90m, 1h30m, 45s, 600 (seconds) */
int
cli_opt_window(const kv_cmd *cmd, const cli_option *op, const char *arg,
    cli_args *o, size_t off)
{
	(void)off;
	if (!kv_parse_duration(arg, &o->window))
		return cli_fail(cmd, "--%s: \"%s\" is not a duration (e.g. 2h, "
		    "90m, 1h30m, 600s)", op->name, arg);
	return 0;
}

