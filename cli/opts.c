/*
 * opts.c - the options of every command, parsed with getopt_long into a
 * cli_args (cli.h); each wrong option or value gets its own reason.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "render/render.h"
#include "analyze/rules/rule.h"

const cli_option cli_options[] = {
	{ "output", 'o', O_OUTPUT, "FORMAT", "text json yaml wide", CC_NONE },
	{ "namespace", 'n', O_NAMESPACE, "NS", NULL, CC_NAMESPACE },
	{ "all-namespaces", 'A', O_NAMESPACE, NULL, NULL, CC_NONE },
	{ "node", 0, O_NODE, "LIST", NULL, CC_NODE },
	{ "nodes", 0, O_NODE, "LIST", NULL, CC_NODE },
	{ "selector", 'l', O_SELECTOR, "SELECTOR", NULL, CC_NONE },
	{ "all", 0, O_ALL, NULL, NULL, CC_NONE },
	{ "format", 0, O_FORMAT, "LIST", "html svg pdf json csv all", CC_NONE },
	{ "pdf-detail", 0, O_FORMAT, "LEVEL", "failing all", CC_NONE },
	{ "force", 0, O_FORCE, NULL, NULL, CC_NONE },
	{ "output-dir", 'd', O_OUTDIR, "DIR", NULL, CC_NONE },
	{ "output-file", 'f', O_OUTFILE | O_PROM, "FILE", NULL, CC_NONE },
	{ "reports", 0, O_REPORTS, NULL, NULL, CC_NONE },
	{ "report", 0, O_REPORT, "DIR", NULL, CC_NONE },
	{ "color", 0, O_COLOR, "WHEN", "auto always never", CC_NONE },
	{ "quiet", 'q', O_QUIET, NULL, NULL, CC_NONE },
	{ "drain", 0, O_DRAIN, "LIST", NULL, CC_NODE },
	{ "drain-selector", 0, O_DRAIN, "SELECTOR", NULL, CC_NONE },
	{ "allow-shutdown", 0, O_DRAIN, NULL, NULL, CC_NONE },
	{ "allow-restart", 0, O_DRAIN, NULL, NULL, CC_NONE },
	{ "max-unavailable", 0, O_BATCH, "N", NULL, CC_NONE },
	{ "allow-block", 0, O_BATCH, NULL, NULL, CC_NONE },
	{ "groups", 0, O_GROUPS, NULL, NULL, CC_NONE },
	{ "strict", 0, O_STRICT, NULL, NULL, CC_NONE },
	{ "fail-on", 0, O_JUNIT, "LIST", NULL, CC_NONE },
	{ "link", 0, O_ASSUME, "RATE", NULL, CC_NONE },
	{ "dirty-rate", 0, O_ASSUME, "RATE", NULL, CC_NONE },
	{ "window", 0, O_WINDOW, "DURATION", NULL, CC_NONE },
	{ "cpu-model", 0, O_CHANGE, "MODEL", NULL, CC_MODEL },
	{ "cluster-cpu-model", 0, O_CHANGE, "MODEL", NULL, CC_MODEL },
	{ "vmi", 0, O_CHANGE | O_CROSS, "NS/NAME", NULL, CC_VMI },
	{ "live", 0, O_CROSS, NULL, NULL, CC_NONE },
	{ "cold", 0, O_CROSS, NULL, NULL, CC_NONE },
	{ "storage-class-map", 0, O_CROSS, "A=B", NULL, CC_STORAGECLASS },
	{ "network-map", 0, O_CROSS, "A=B", NULL, CC_NONE },
	{ "figure", 0, O_CROSS, "FILE", NULL, CC_NONE },
	{ "cordon", 0, O_CHANGE | O_TCHANGE, "NODE", NULL, CC_NODE },
	{ "uncordon", 0, O_CHANGE | O_TCHANGE, "NODE", NULL, CC_NODE },
	{ "remove-node", 0, O_CHANGE | O_TCHANGE, "NODE", NULL, CC_NODE },
	{ "add-node-like", 0, O_CHANGE | O_TCHANGE, "NODE[=COUNT]", NULL,
	  CC_NODE },
	{ "eviction-strategy", 0, O_CHANGE, "STRATEGY",
	  "LiveMigrate LiveMigrateIfPossible External None", CC_NONE },
	{ "storage-class-rwx", 0, O_CHANGE, "CLASS", NULL,
	  CC_STORAGECLASS },
	{ "class-cpu", 0, O_CHANGE, "CLASS=MODEL", NULL, CC_NONE },
	{ "fix", 0, O_CHANGE, "GROUP[,GROUP...]|all", NULL, CC_GROUP },
	{ NULL, 0, 0, NULL, NULL, CC_NONE },
};

static void
verror(const kv_cmd *cmd, const char *fmt, va_list ap)
{
	char *msg = NULL;

	cli_progress_end();
	if (vasprintf(&msg, fmt, ap) < 0)
		kv_fatal("out of memory");
	fprintf(stderr, "kvscope: %s: ", cmd->name);
	kv_term_puts(stderr, msg);
	fputc('\n', stderr);
	free(msg);
}

int
cli_fail(const kv_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(cmd, fmt, ap);
	va_end(ap);
	fprintf(stderr, "usage: kvscope %s\n", cmd->usage);
	return EXIT_TOOL;
}

int
cli_error(const kv_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(cmd, fmt, ap);
	va_end(ap);
	return EXIT_TOOL;
}

/* Append the comma-separated elements of val to l; an empty element is
 * an error. */
static int
split(const kv_cmd *cmd, const char *opt, const char *val, cli_list *l)
{
	const char *p = val;

	for (;;) {
		size_t n = strcspn(p, ",");

		if (n == 0)
			return cli_fail(cmd, "--%s: empty element in \"%s\"",
			    opt, val);
		l->v = xreallocarray(l->v, l->n + 1, sizeof(char *));
		l->v[l->n++] = xstrndup(p, n);
		if (p[n] == '\0')
			return 0;
		p += n + 1;
	}
}

/* w is one of the space-separated words of allowed. */
static bool
word_in(const char *allowed, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = allowed; n > 0 && (p = strstr(p, w)); p++)
		if ((p == allowed || p[-1] == ' ') &&
		    (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

static int
check_values(const kv_cmd *cmd, const char *opt, const cli_list *l,
    const char *allowed)
{
	for (size_t i = 0; i < l->n; i++) {
		if (!word_in(allowed, l->v[i]))
			return cli_fail(cmd, "--%s: unknown value \"%s\" "
			    "(one of: %s)", opt, l->v[i], allowed);
	}
	return 0;
}

/* A label selector (labelsel.h) added to sel, the text kept in l. */
static int
selector(const kv_cmd *cmd, const char *opt, const char *arg, cli_list *l,
    kv_selector *sel)
{
	kv_err err = { 0 };

	if (*arg == '\0')
		return cli_fail(cmd, "--%s: empty value", opt);
	if (kv_selector_parse(arg, sel, &err) != KV_OK)
		return cli_fail(cmd, "--%s: \"%s\": %s", opt, arg, err.msg);
	l->v = xreallocarray(l->v, l->n + 1, sizeof(char *));
	l->v[l->n++] = xstrdup(arg);
	return 0;
}

/* A count from 1 to 100000. */
static int
count_value(const kv_cmd *cmd, const char *opt, const char *arg, size_t *out)
{
	char *end = NULL;
	long v = strtol(arg, &end, 10);

	if (end == arg || *end != '\0' || v < 1 || v > 100000)
		return cli_fail(cmd, "--%s: \"%s\" is not a count from 1 to "
		    "100000", opt, arg);
	*out = (size_t)v;
	return 0;
}

/* --- the handlers, one per family of options -------------------------- */

/* A handler of one option: arg (NULL for a flag) into o; off is the
 * field of o its table row names, where it has one. */
typedef int (*opt_fn)(const kv_cmd *cmd, const cli_option *op,
    const char *arg, cli_args *o, size_t off);

/* An option of a change (what-if), or the scope after one: kept in order,
 * "name=value", since a scope belongs to the change before it. */
static int
opt_change(const kv_cmd *cmd, const cli_option *op, const char *arg,
    cli_args *o, size_t off)
{
	kv_selector sel = { 0 };
	kv_err err = { 0 };

	(void)off;
	if (*arg == '\0')
		return cli_fail(cmd, "--%s: empty value", op->name);
	if (op->bit == O_SELECTOR &&
	    kv_selector_parse(arg, &sel, &err) != KV_OK) {
		kv_selector_free(&sel);
		return cli_fail(cmd, "--%s: \"%s\": %s", op->name, arg,
		    err.msg);
	}
	kv_selector_free(&sel);
	o->changes.v = xreallocarray(o->changes.v, o->changes.n + 1,
	    sizeof(char *));
	o->changes.v[o->changes.n++] = xasprintf("%s=%s", op->name, arg);
	return 0;
}

/* A string kept as given (-o); a path that may not be empty. */
static int
opt_string(const kv_cmd *cmd, const cli_option *op, const char *arg,
    cli_args *o, size_t off)
{
	*(const char **)((char *)o + off) = arg;
	return 0;
}

static int
opt_path(const kv_cmd *cmd, const cli_option *op, const char *arg,
    cli_args *o, size_t off)
{
	if (*arg == '\0')
		return cli_fail(cmd, "--%s: empty value", op->name);
	return opt_string(cmd, op, arg, o, off);
}

/* A list by repeats and commas (--namespace, --drain, ...). */
static int
opt_list(const kv_cmd *cmd, const cli_option *op, const char *arg,
    cli_args *o, size_t off)
{
	return split(cmd, op->name, arg, (cli_list *)((char *)o + off));
}

static int
opt_nodes(const kv_cmd *cmd, const cli_option *op, const char *arg,
    cli_args *o, size_t off)
{
	o->nodes_opt = op->name;
	return opt_list(cmd, op, arg, o, off);
}

static int
opt_format(const kv_cmd *cmd, const cli_option *op, const char *arg,
    cli_args *o, size_t off)
{
	cli_list add = { 0, NULL };
	int rc = split(cmd, op->name, arg, &add);

	(void)off;
	for (size_t i = 0; i < add.n; i++) {
		o->formats.v = xreallocarray(o->formats.v, o->formats.n + 1,
		    sizeof(char *));
		o->formats.v[o->formats.n++] = add.v[i];
	}
	if (rc == 0)
		rc = check_values(cmd, op->name, &add, op->values);
	free(add.v);
	return rc;
}

static int
opt_pdf_detail(const kv_cmd *cmd, const cli_option *op, const char *arg,
    cli_args *o, size_t off)
{
	(void)off;
	if (strcmp(arg, "failing") != 0 && strcmp(arg, "all") != 0)
		return cli_fail(cmd, "--pdf-detail: unknown value \"%s\" "
		    "(one of: %s)", arg, op->values);
	o->pdf_all = strcmp(arg, "all") == 0;
	return 0;
}

static int
opt_color(const kv_cmd *cmd, const cli_option *op, const char *arg,
    cli_args *o, size_t off)
{
	(void)off;
	if (strcmp(arg, "always") != 0 && strcmp(arg, "never") != 0 &&
	    strcmp(arg, "auto") != 0)
		return cli_fail(cmd, "--color: unknown value \"%s\" (one of: "
		    "%s)", arg, op->values);
	o->color = *arg == 'a' && arg[1] == 'l' ? 1 : *arg == 'n' ? 0 : -1;
	return 0;
}

static int
opt_selector(const kv_cmd *cmd, const cli_option *op, const char *arg,
    cli_args *o, size_t off)
{
	if (off == offsetof(cli_args, selectors))
		return selector(cmd, op->name, arg, &o->selectors, &o->sel);
	return selector(cmd, op->name, arg, &o->drain_selectors,
	    &o->drain_sel);
}

/* --allow-shutdown or --allow-restart: the two contradict each other
 * (every stop, or only those that start again), so both are refused. */
static int
opt_allow(const kv_cmd *cmd, const cli_option *op, const char *arg,
    cli_args *o, size_t off)
{
	enum kv_allow want = strcmp(op->name, "allow-shutdown") == 0 ?
	    ALLOW_SHUTDOWN : ALLOW_RESTART;

	(void)off;
	(void)arg;
	if (o->allow != ALLOW_NONE && o->allow != want)
		return cli_fail(cmd, "--allow-shutdown and --allow-restart "
		    "contradict each other: give one (--allow-shutdown "
		    "accepts every stop, --allow-restart only those their "
		    "VirtualMachine starts again)");
	o->allow = want;
	return 0;
}

static int
opt_count(const kv_cmd *cmd, const cli_option *op, const char *arg,
    cli_args *o, size_t off)
{
	return count_value(cmd, op->name, arg,
	    (size_t *)((char *)o + off));
}

static int
opt_flag(const kv_cmd *cmd, const cli_option *op, const char *arg,
    cli_args *o, size_t off)
{
	*(bool *)((char *)o + off) = true;
	return 0;
}

#define AT(field)	offsetof(cli_args, field)

/* Each option's handler and the field of cli_args it fills. */
static const struct opt_handler {
	const char *name;
	opt_fn fn;
	size_t off;
} opt_handlers[] = {
	{ "output", opt_string, AT(output) },
	{ "output-dir", opt_path, AT(outdir) },
	{ "output-file", opt_path, AT(outfile) },
	{ "report", opt_path, AT(report) },
	{ "namespace", opt_list, AT(namespaces) },
	{ "node", opt_nodes, AT(nodes) },
	{ "nodes", opt_nodes, AT(nodes) },
	{ "format", opt_format, 0 },
	{ "pdf-detail", opt_pdf_detail, 0 },
	{ "selector", opt_selector, AT(selectors) },
	{ "drain-selector", opt_selector, AT(drain_selectors) },
	{ "drain", opt_list, AT(drain) },
	{ "fail-on", opt_list, AT(fail_on) },
	{ "allow-shutdown", opt_allow, 0 },
	{ "allow-restart", opt_allow, 0 },
	{ "max-unavailable", opt_count, AT(max_unavailable) },
	{ "allow-block", opt_flag, AT(allow_block) },
	{ "link", cli_opt_rate, 0 },
	{ "dirty-rate", cli_opt_rate, 0 },
	{ "window", cli_opt_window, 0 },
	{ "color", opt_color, 0 },
	{ "all-namespaces", opt_flag, AT(all_ns) },
	{ "all", opt_flag, AT(all) },
	{ "force", opt_flag, AT(force) },
	{ "quiet", opt_flag, AT(quiet) },
	{ "groups", opt_flag, AT(groups) },
	{ "strict", opt_flag, AT(strict) },
	{ "reports", opt_flag, AT(reports) },
	{ "live", opt_flag, AT(live) },
	{ "cold", opt_flag, AT(cold) },
	{ "vmi", opt_path, AT(vmi) },
	{ "figure", opt_path, AT(figure) },
	{ "storage-class-map", cli_opt_map, AT(scmap) },
	{ "network-map", cli_opt_map, AT(netmap) },
};

#undef AT

static int
one_option(const kv_cmd *cmd, const cli_option *op, const char *arg,
    cli_args *o)
{
	if (((op->bit & O_CHANGE) && (cmd->opts & O_CHANGE)) ||
	    ((op->bit & O_TCHANGE) && (cmd->opts & O_TCHANGE)) ||
	    ((cmd->opts & O_CHANGE) &&
	    (op->bit == O_NAMESPACE || op->bit == O_SELECTOR) && arg != NULL))
		return opt_change(cmd, op, arg, o, 0);
	for (size_t i = 0; i < sizeof(opt_handlers) /
	    sizeof(opt_handlers[0]); i++)
		if (strcmp(opt_handlers[i].name, op->name) == 0)
			return opt_handlers[i].fn(cmd, op, arg, o,
			    opt_handlers[i].off);
	return 0;
}

/* The option as the user wrote it: "--name" without "=value", or "-x". */
static char *
as_written(const char *arg, int optopt_)
{
	if (optopt_ != 0 && optopt_ < 256)
		return xasprintf("-%c", optopt_);
	return xstrndup(arg, strcspn(arg, "="));
}

/* Edit distance (Levenshtein), capped: strings are option names. */
static int
cli_nearest_dist(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	int row[64], prev;

	if (na >= 63 || nb >= 63)
		return 99;
	for (size_t j = 0; j <= nb; j++)
		row[j] = (int)j;
	for (size_t i = 1; i <= na; i++) {
		prev = row[0];
		row[0] = (int)i;
		for (size_t j = 1; j <= nb; j++) {
			int sub = prev + (a[i - 1] != b[j - 1]);
			int del = row[j] + 1, ins = row[j - 1] + 1;

			prev = row[j];
			row[j] = sub < del ? (sub < ins ? sub : ins) :
			    (del < ins ? del : ins);
		}
	}
	return row[nb];
}

const char *
cli_nearest(const char *w, const char *const *words, size_t n)
{
	int best = 99, limit = (int)strlen(w) / 3;
	const char *hit = NULL;

	limit = limit < 2 ? 2 : limit > 3 ? 3 : limit;
	for (size_t i = 0; i < n; i++) {
		int d = cli_nearest_dist(w, words[i]);

		if (d < best) {
			best = d;
			hit = words[i];
		}
	}
	return best <= limit ? hit : NULL;
}

/* "unknown option", with the nearest option cmd takes. */
static int
unknown(const kv_cmd *cmd, const char *w)
{
	const char *names[sizeof(cli_options) / sizeof(cli_options[0])];
	const char *near = NULL;
	size_t n = 0;

	for (size_t i = 0; cli_options[i].name; i++)
		if (cmd->opts & cli_options[i].bit)
			names[n++] = cli_options[i].name;
	if (w[0] == '-' && w[1] == '-')
		near = cli_nearest(w + 2, names, n);
	if (near != NULL)
		return cli_fail(cmd, "unknown option \"%s\" (did you mean "
		    "--%s?)", w, near);
	return cli_fail(cmd, "unknown option \"%s\"", w);
}

/* Options that were spelled differently before: the old spelling, given
 * to a command that takes the new one, names it (one line). */
static const struct renamed {
	unsigned bit;		/* the command takes the new option */
	const char *old;	/* "--output" */
	char oldshort;		/* 'o' */
	const char *now;
} renamed[] = {
	{ O_OUTFILE, "--output", 'o', "the snapshot to write is "
	  "--output-file FILE (-f FILE) or the second argument" },
};

static int
old_spelling(const kv_cmd *cmd, const char *w)
{
	for (size_t i = 0; i < sizeof(renamed) / sizeof(renamed[0]); i++) {
		const struct renamed *r = &renamed[i];

		if ((cmd->opts & r->bit) && !(cmd->opts & O_OUTPUT) &&
		    (strcmp(w, r->old) == 0 ||
		    (w[0] == '-' && w[1] == r->oldshort && w[2] == '\0')))
			return cli_error(cmd, "%s is no longer accepted: %s",
			    w, r->now);
	}
	return 0;
}

static bool
op_takes_value(const kv_cmd *cmd, const char *name)
{
	for (size_t k = 0; cli_options[k].name; k++)
		if ((cmd->opts & cli_options[k].bit) &&
		    strcmp(cli_options[k].name, name) == 0)
			return cli_options[k].arg != NULL;
	return false;
}

/* The first long option in argv that is not, exactly, one cmd takes
 * (getopt_long would take a prefix: --output for --output-file), before
 * any "--"; NULL if none. */
static const char *
inexact_long(const kv_cmd *cmd, int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		const char *a = argv[i];
		size_t n = strcspn(a, "=");
		bool ok = false;

		if (a[0] != '-' || a[1] != '-')
			continue;
		for (size_t k = 0; !ok && cli_options[k].name; k++)
			ok = (cmd->opts & cli_options[k].bit) &&
			    strlen(cli_options[k].name) == n - 2 &&
			    strncmp(cli_options[k].name, a + 2, n - 2) == 0;
		if (!ok)
			return a;
		if (!strchr(a, '=') && op_takes_value(cmd, a + 2))
			i++;	/* its value may start with -- */
	}
	return NULL;
}

static int
bad_option(const kv_cmd *cmd, int c, char **argv, const cli_option *op)
{
	char *w = as_written(argv[optind - 1], optopt);
	int rc;

	if (c == '?' && (rc = old_spelling(cmd, w)) != 0)
		;
	else if (c == ':' && op != NULL)
		rc = cli_fail(cmd, "option \"%s\" needs a value (%s)", w,
		    op->arg);
	else
		rc = unknown(cmd, w);
	free(w);
	return rc;
}

/* The getopt tables for the options cmd takes; val = index + 256. */
static void
tables(const kv_cmd *cmd, struct option *lo, char *so)
{
	size_t k = 0, s = 0;

	so[s++] = ':';
	for (size_t i = 0; cli_options[i].name; i++) {
		const cli_option *op = &cli_options[i];

		if (!(cmd->opts & op->bit))
			continue;
		lo[k++] = (struct option){ op->name, op->arg ?
		    required_argument : no_argument, NULL, (int)i + 256 };
		if (op->shortname) {
			so[s++] = op->shortname;
			if (op->arg)
				so[s++] = ':';
		}
	}
	lo[k] = (struct option){ NULL, 0, NULL, 0 };
	so[s] = '\0';
}

static const cli_option *
lookup(int c)
{
	if (c >= 256)
		return &cli_options[c - 256];
	for (size_t i = 0; c > 0 && cli_options[i].name; i++)
		if (cli_options[i].shortname == c)
			return &cli_options[i];
	return NULL;
}

/* report: -o is the format, --format's words; anything else is the
 * folder as it was given before --output-dir. */
static int
report_output(const kv_cmd *cmd, cli_args *o)
{
	static const char words[] = "html svg pdf json csv all";
	cli_list add = { 0, NULL };
	int rc = split(cmd, "output", o->output, &add);

	for (size_t i = 0; rc == 0 && i < add.n; i++)
		if (!word_in(words, add.v[i]))
			rc = cli_error(cmd, "--output: \"%s\" is no format "
			    "(html, svg, pdf, json, csv or all); the folder to "
			    "write into is --output-dir DIR (-d DIR)",
			    o->output);
	for (size_t i = 0; i < add.n; i++) {
		o->formats.v = xreallocarray(o->formats.v, o->formats.n + 1,
		    sizeof(char *));
		o->formats.v[o->formats.n++] = add.v[i];
	}
	free(add.v);
	return rc;
}

/* --fail-on: verdicts, drain actions or finding codes (what-if: also
 * "worse"). */
static int
fail_on_words(const kv_cmd *cmd, const cli_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		const char *w = l->v[i];
		bool ok = kv_rule_find(w) != NULL;

		for (int v = 0; v < V_COUNT && !ok; v++)
			ok = v != V_NOT_RUNNING &&
			    strcmp(w, kv_verdict_names[v]) == 0;
		for (int d = 1; d < DRAIN_COUNT && !ok; d++)
			ok = strcmp(w, kv_on_drain_names[d]) == 0;
		ok = ok || ((cmd->opts & O_CHANGE) && strcmp(w, "worse") == 0);
		if (!ok)
			return cli_fail(cmd, "--fail-on: \"%s\" is no "
			    "%sverdict (blocked, no-target, will-fail, stuck, "
			    "ok, not-judged), drain action (block, shutdown, "
			    "external, migrate) or finding code", w,
			    (cmd->opts & O_CHANGE) ? "\"worse\", " : "");
	}
	return 0;
}

static int
finish(const kv_cmd *cmd, cli_args *o)
{
	if (fail_on_words(cmd, &o->fail_on) != 0)
		return EXIT_TOOL;
	if (o->all_ns && o->namespaces.n > 0)
		return cli_fail(cmd, "--all-namespaces and --namespace "
		    "exclude each other");
	if (o->output != NULL && *o->output == '\0')
		return cli_fail(cmd, "--output: empty value");
	if (o->output != NULL && CLI_OUTPUT_IS_FORMATS(cmd)) {
		if (report_output(cmd, o) != 0)
			return EXIT_TOOL;
	} else if (o->output != NULL) {
		for (o->fmt = 0; o->fmt < KV_OUT_COUNT; o->fmt++)
			if (strcmp(o->output, kv_outfmt_names[o->fmt]) == 0)
				break;
		if (o->fmt == KV_OUT_COUNT ||
		    !word_in(cli_formats(cmd), o->output))
			return cli_fail(cmd, "--output: unknown format \"%s\" "
			    "(one of: %s)", o->output, cli_formats(cmd));
	}
	if (o->outfile != NULL && (cmd->opts & O_OUTPUT) &&
	    o->fmt != KV_OUT_PROM && o->fmt != KV_OUT_SARIF)
		return cli_fail(cmd, "--output-file: only with -o prom%s",
		    (cmd->opts & O_SARIF) ? " or -o sarif" : "");
	if (o->npos < cmd->minargs) {
		const char *p = cmd->argnames;

		for (size_t i = 0; i < o->npos; i++)
			p += strcspn(p, " ") + (p[strcspn(p, " ")] == ' ');
		return cli_fail(cmd, "missing %.*s", (int)strcspn(p, " "), p);
	}
	if (o->npos > cmd->maxargs)
		return cli_fail(cmd, "unexpected argument \"%s\"",
		    o->pos[cmd->maxargs]);
	return 0;
}

/* Whether short option c's value came attached after an '=' ("-l=x",
 * as kubectl's flags take it), not as its own word: "-l '=x'" keeps
 * the '=' and is no selector. */
static bool
attached_eq(int c, char **argv)
{
	return c < 256 && optarg != NULL && *optarg == '=' &&
	    optarg != argv[optind - 1];
}

int
cli_parse(const kv_cmd *cmd, int argc, char **argv, cli_args *o)
{
	struct option lo[sizeof(cli_options) / sizeof(cli_options[0])];
	char so[2 * sizeof(cli_options) / sizeof(cli_options[0]) + 2];
	const char *bad;
	int c, rc = 0;

	memset(o, 0, sizeof(*o));
	o->color = -1;
	o->assume.dirty_lo = o->assume.dirty_hi = -1;
	tables(cmd, lo, so);
	optind = 1;
	opterr = 0;
	if ((bad = inexact_long(cmd, argc, argv)) != NULL) {
		char *w = xstrndup(bad, strcspn(bad, "="));

		if ((rc = old_spelling(cmd, w)) == 0)
			rc = unknown(cmd, w);
		free(w);
	}
	while (rc == 0 && (c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		if (c == '?' || c == ':')
			rc = bad_option(cmd, c, argv, c == ':' ?
			    lookup(optopt) : NULL);
		else
			rc = one_option(cmd, lookup(c), attached_eq(c, argv) ?
			    optarg + 1 : optarg, o);
	}
	if (rc == 0) {
		o->pos = argv + optind;
		o->npos = (size_t)(argc - optind);
		rc = finish(cmd, o);
	}
	cli_load_strict = rc == 0 && o->strict;
	if (rc != 0)
		cli_args_free(o);
	return rc;
}

void
cli_list_free(cli_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void
cli_args_free(cli_args *o)
{
	cli_list_free(&o->namespaces);
	cli_list_free(&o->nodes);
	cli_list_free(&o->selectors);
	cli_list_free(&o->formats);
	cli_list_free(&o->drain);
	cli_list_free(&o->drain_selectors);
	cli_list_free(&o->changes);
	cli_list_free(&o->fail_on);
	cli_list_free(&o->scmap);
	cli_list_free(&o->netmap);
	kv_selector_free(&o->sel);
	kv_selector_free(&o->drain_sel);
}

const char *
cli_formats(const kv_cmd *cmd)
{
	/* every combination a command of the table has, built once each */
	static char bufs[16][64];
	static unsigned made;
	unsigned key = (cmd->opts & O_WIDE ? 1 : 0) |
	    (cmd->opts & O_JUNIT ? 2 : 0) | (cmd->opts & O_PROM ? 4 : 0) |
	    (cmd->opts & O_SARIF ? 8 : 0);
	char *b = bufs[key];

	if (!(made & (1u << key))) {
		snprintf(b, sizeof(bufs[key]), "text json yaml%s%s%s%s",
		    key & 1 ? " wide" : "", key & 2 ? " junit" : "",
		    key & 4 ? " prom" : "", key & 8 ? " sarif" : "");
		made |= 1u << key;
	}
	return b;
}
