/*
 * cli.h - the subcommands of kvscope and what they share.
 *
 * cli/ parses arguments and dispatches: each subcommand is a row of the
 * command table in main.c (name, usage, summary, help, the options it
 * takes, its function); the views themselves are render/ modules
 * (view.h).  Exit status: 0 all is well, 1 `check` found VMIs that would
 * not migrate, 2 usage, input or tool error.  Every error is one stderr
 * line starting "kvscope:"; a usage error is "kvscope: COMMAND: what was
 * wrong" followed by the usage line.
 */
#ifndef KV_CLI_H
#define KV_CLI_H

#include <stdio.h>

#include "analyze/pipeline.h"
#include "analyze/rules/analysis.h"
#include "analyze/util/bitset.h"
#include "analyze/estimate/estimate.h"
#include "analyze/model/labelsel.h"
#include "render/render.h"
#include "render/view.h"

#define EXIT_FINDINGS 1
#define EXIT_TOOL 2

/* The options a command takes (kv_cmd.opts). */
enum {
	O_OUTPUT = 1 << 0,	/* -o, --output FORMAT (report: LIST) */
	O_NAMESPACE = 1 << 1,	/* -n, --namespace NS; -A */
	O_NODE = 1 << 2,	/* --node, --nodes LIST */
	O_SELECTOR = 1 << 3,	/* -l, --selector SELECTOR */
	O_ALL = 1 << 4,		/* --all */
	O_FORMAT = 1 << 5,	/* --format LIST, --pdf-detail (report,
				 * --report) */
	O_FORCE = 1 << 6,	/* --force (report, --report) */
	O_COLOR = 1 << 7,	/* --color WHEN */
	O_QUIET = 1 << 8,	/* -q, --quiet */
	O_DRAIN = 1 << 9,	/* --drain LIST, --drain-selector SEL,
				 * --allow-shutdown */
	O_BATCH = 1 << 10,	/* --max-unavailable N, --allow-block (plan) */
	O_GROUPS = 1 << 11,	/* --groups (check) */
	O_CHANGE = 1 << 12,	/* what-if's changes; -n and -l scope them */
	O_REPORT = 1 << 13,	/* --report DIR (what-if, diff) */
	O_STRICT = 1 << 14,	/* --strict: a file that cannot be read
				 * refuses the input (every command that
				 * loads); diff: a warning is an error */
	O_OUTDIR = 1 << 15,	/* -d, --output-dir DIR (report) */
	O_OUTFILE = 1 << 16,	/* -f, --output-file FILE (convert) */
	O_WIDE = 1 << 17,	/* -o wide is a view of its own */
	O_JUNIT = 1 << 18,	/* -o junit, --fail-on LIST */
	O_ASSUME = 1 << 19,	/* --link RATE, --dirty-rate RATE */
	O_WINDOW = 1 << 20,	/* --window DURATION (check --drain, plan) */
	O_PROM = 1 << 21,	/* -o prom, -f FILE (check, fleet) */
	O_SARIF = 1 << 22,	/* -o sarif (check) */
	O_REPORTS = 1 << 23,	/* --reports (fleet) */
	O_CROSS = 1 << 24,	/* --vmi, --live, --cold,
				 * --storage-class-map, --network-map
				 * (crosscheck) */
	O_TCHANGE = 1 << 25,	/* the node changes crosscheck applies to
				 * TARGET (--cordon, --uncordon,
				 * --remove-node, --add-node-like) */
};
/* -o of cmd is report's list of formats (not one view's format). */
#define CLI_OUTPUT_IS_FORMATS(cmd) \
	(((cmd)->opts & (O_OUTDIR | O_FORMAT)) == (O_OUTDIR | O_FORMAT))

typedef struct kv_cmd {
	const char *name;
	const char *usage;
	const char *summary;
	const char *help;
	unsigned opts;
	size_t minargs, maxargs;	/* positional arguments */
	const char *argnames;		/* "SNAPSHOT NAME", for errors */
	int (*run)(const struct kv_cmd *cmd, int argc, char **argv);
} kv_cmd;

/* What an option's value names in the snapshot, for completion
 * (complete.c): the names the snapshot on the command line holds, or
 * (CC_GROUP) the ids of the groups its analysis forms. */
enum cli_complete { CC_NONE, CC_NODE, CC_NAMESPACE, CC_VMI, CC_MODEL,
	CC_STORAGECLASS, CC_GROUP };

/* One option of the table in opts.c (for parsing and completion). */
typedef struct cli_option {
	const char *name;		/* long name */
	char shortname;			/* 0: none */
	unsigned bit;			/* O_* */
	const char *arg;		/* NULL: a flag; else its
					   metavariable */
	const char *values;		/* words to complete, or NULL */
	enum cli_complete complete;	/* else names of the snapshot */
} cli_option;
extern const cli_option cli_options[];

/* A list given by repeated options and commas; strings owned. */
typedef struct cli_list {
	size_t n;
	char **v;
} cli_list;

/* Free l's strings and array; l is empty again. */
void cli_list_free(cli_list *l);

/* Parsed arguments. */
typedef struct cli_args {
	const char *output;		/* -o as given, or NULL */
	const char *report;		/* --report DIR, or NULL */
	const char *outdir;		/* -d, --output-dir DIR, or NULL */
	const char *outfile;		/* -f, --output-file FILE, or NULL */
	const char *nodes_opt;		/* "node" or "nodes", as given */
	kv_outfmt fmt;
	int color;			/* -1 auto, 0 never, 1 always */
	bool quiet, all, force, all_ns, groups, strict;
	bool reports;			/* fleet --reports */
	bool live, cold;		/* crosscheck --live, --cold */
	const char *vmi;		/* crosscheck --vmi */
	const char *figure;		/* crosscheck --figure FILE */
	cli_list scmap, netmap;		/* crosscheck --storage-class-map,
					 * --network-map: "A=B" each */
	cli_list namespaces, nodes, selectors, formats;
	cli_list drain, drain_selectors;	/* --drain, --drain-selector */
	enum kv_allow allow;		/* --allow-shutdown, -restart */
	kv_selector sel, drain_sel;	/* -l, --drain-selector parsed */
	bool pdf_all;			/* report --pdf-detail all */
	size_t max_unavailable;		/* 0: not given */
	bool allow_block;		/* plan --allow-block */
	cli_list changes;		/* O_CHANGE: "option=value", in order */
	cli_list fail_on;		/* --fail-on: verdicts, codes */
	kv_assume assume;		/* --link, --dirty-rate */
	double window;			/* --window, seconds; 0: none */
	size_t npos;
	char **pos;			/* positional, into argv */
} cli_args;

/* Parse argv for cmd.  On a usage error print it and return EXIT_TOOL
 * (o is then already freed); 0 otherwise.  Free with cli_args_free. */
int cli_parse(const kv_cmd *cmd, int argc, char **argv, cli_args *o);
void cli_args_free(cli_args *o);
/* The terminal the views write to: stdout, colour and width decided. */
void cli_term(const cli_args *o, kv_term *t);
/* The text view's lines wrapped to t->width (render/view.h's
 * kv_wrap_open): t->f holds them until cli_term_done writes them to
 * stdout (main, once the command returns; -1 on a write error). */
void cli_term_wrap(kv_term *t);
int cli_term_done(void);

/* "kvscope: CMD: message" then the usage line; returns EXIT_TOOL. */
int cli_fail(const kv_cmd *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* "kvscope: CMD: message" alone; returns EXIT_TOOL. */
int cli_error(const kv_cmd *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* What the last cli_parse read of --link and --dirty-rate, or NULL
 * when neither was given: cli_load gives it to the model it loads. */
const kv_assume *cli_assumed(void);
/* The handlers of --link, --dirty-rate and --window (opts_assume.c), rows
 * of opts.c's handler table. */
int cli_opt_rate(const struct kv_cmd *cmd, const cli_option *op,
    const char *arg, cli_args *o, size_t off);
int cli_opt_window(const struct kv_cmd *cmd, const cli_option *op,
    const char *arg, cli_args *o, size_t off);
/* The handler of --storage-class-map and --network-map (cmd_cross.c):
 * "A=B" rows, repeated or comma-separated, into the list at off. */
int cli_opt_map(const struct kv_cmd *cmd, const cli_option *op,
    const char *arg, cli_args *o, size_t off);
/* Load and analyse a snapshot, with progress; on failure print the
 * error and return EXIT_TOOL.  The caller frees both with
 * kv_analysis_free and kv_model_free.  cli_load_strict (the last
 * cli_parse's --strict) makes kv_limits.strict. */
extern bool cli_load_strict;
/* cli_load_quiet_warnings: cli_load prints no warning lines; diff sets
 * it and prints both inputs' warnings with cli_warnings_pair, each line
 * naming its input ("old (PATH)", "new (PATH)"), a warning both have
 * once ("old and new"). */
extern bool cli_load_quiet_warnings;
void cli_warnings_pair(const kv_analysis *a0, const char *p0,
    const kv_analysis *a1, const char *p1);
int cli_load(const char *path, bool quiet, kv_model **m, kv_analysis **a);
/* The word of words[0..n) nearest to w (edit distance at most a third
 * of w's length, but at least 2 and at most 3), or NULL. */
const char *cli_nearest(const char *w, const char *const *words, size_t n);
/* The -o words cmd takes: "text json yaml", wide where O_WIDE, junit
 * where O_JUNIT, prom where O_PROM, sarif where O_SARIF. */
const char *cli_formats(const kv_cmd *cmd);
/* Print the command's help to stdout and return 0. */
int cli_help(const kv_cmd *cmd);
/* The command table. */
const kv_cmd *cli_commands(size_t *n);

/* Progress on stderr (progress.c): only on a terminal and not --quiet,
 * one line rewritten in place, erased by cli_progress_end. */
void cli_progress_init(bool quiet);
void cli_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_progress_end(void);
/* Seconds since the previous call (the first: since the process began). */
double cli_lap(void);

/* Selection (select.c): the VMIs check looks at, the VMI explain shows,
 * the nodes models looks at.  Errors printed, EXIT_TOOL returned. */
int cli_pick_vmis(const kv_cmd *cmd, const kv_analysis *a,
    const cli_args *o, kv_bits *pick);
int cli_find_vmi(const kv_cmd *cmd, const kv_analysis *a,
    const cli_args *o, const char *name, size_t *idx);
int cli_pick_nodes(const kv_cmd *cmd, const kv_analysis *a,
    const cli_args *o, kv_bits *chosen);
/* The nodes --drain names and --drain-selector matches. */
int cli_pick_drain(const kv_cmd *cmd, const kv_analysis *a,
    const cli_args *o, kv_bits *chosen);

/* Report output folder (outdir.c): refuse a non-empty folder that holds
 * no kvscope report unless force (*ours: it is missing or holds only
 * report files); after the commit, in a folder of ours, cli_outdir_sweep
 * removes the files of an older report that this one did not write.
 * Errors printed, EXIT_TOOL returned. */
int cli_outdir_prepare(const kv_cmd *cmd, const char *dir, bool force,
    bool *ours);
/* Create dir and its missing parents (after the snapshot loaded);
 * *made = the top folder this created, or NULL.  cli_outdir_unmake
 * removes what was made when the report fails (a full disk), so no
 * empty folder is left, and frees *made. */
int cli_outdir_create(const kv_cmd *cmd, const char *dir, char **made);
void cli_outdir_unmake(const char *dir, char **made);
void cli_outdir_sweep(const char *dir, char *const *written, size_t n);
/* The cluster of the report already in dir, read from its
 * findings.json's "snapshot" line: *context and *created the caller's,
 * NULL when unknown; false when dir holds no readable findings.json. */
bool cli_outdir_previous(const char *dir, char **context, char **created);

/* The report of a into dir (prepared, ours as cli_outdir_prepare said,
 * created), the formats of o->formats (default all), all or nothing, the
 * older report's files swept; with diff (what-if, diff --report) also
 * diff.json and the Changes section.  *written: the paths, the caller's
 * (each and the array).  Errors printed, EXIT_TOOL returned. */
struct kv_report_diff;
int cli_report_write(const cli_args *o, const char *dir, bool ours,
    const kv_analysis *a, const struct kv_report_diff *diff,
    cli_list *written);

int cmd_report(const kv_cmd *cmd, int argc, char **argv);
int cmd_check(const kv_cmd *cmd, int argc, char **argv);
int cmd_explain(const kv_cmd *cmd, int argc, char **argv);
int cmd_models(const kv_cmd *cmd, int argc, char **argv);
int cmd_pairs(const kv_cmd *cmd, int argc, char **argv);
int cmd_plan(const kv_cmd *cmd, int argc, char **argv);
/* check --drain (cmd_plan.c): options that do not go with it, then the
 * drain view; returns the exit status. */
int cli_drain_usage(const kv_cmd *cmd, const cli_args *o);
int cli_check_drain(const kv_cmd *cmd, const kv_analysis *a,
    const cli_args *o, const kv_term *t);
/* Whether VMI i counts as failing under --fail-on (its verdict or one of
 * its codes is in the list; drain: also its action); without the list
 * dflt decides.  And -o junit of check (junit.c cases built here). */
bool cli_fails_on(const kv_analysis *a, const cli_args *o, size_t i,
    const char *action, bool dflt);
int cli_junit_check(const kv_analysis *a, const kv_bits *pick,
    const cli_args *o, const kv_term *t, size_t *bad);
int cli_junit_drain(const kv_analysis *a, const kv_drain *d,
    size_t n, const cli_args *o, const char *suite, const kv_term *t,
    size_t *bad);
/* what-if: whether b's VMI i (dv: its row of the diff, or NULL) fails,
 * by default when it got worse, with --fail-on when its verdict, a code,
 * its drain action after the change or "worse" is listed; how many do;
 * and -o junit, a case per VMI of b. */
struct kv_diff;
struct kv_diff_vmi;
bool cli_whatif_fails(const kv_analysis *b, const struct kv_diff_vmi *dv,
    const cli_args *o, size_t i);
size_t cli_whatif_bad(const kv_analysis *b, const struct kv_diff *d,
    const cli_args *o);
int cli_junit_whatif(const kv_analysis *b, const struct kv_diff *d,
    const cli_args *o, const kv_term *t, size_t *bad);
/* -o prom|sarif (export.c): fn(a, f, arg) into o->outfile, written
 * under a temporary name in its folder and renamed (a textfile
 * collector never reads half a file), or to stdout.  Errors printed,
 * EXIT_TOOL returned. */
int cli_export(const cli_args *o, kv_writer_fn fn, const kv_analysis *a,
    void *arg);
/* check -o prom|sarif: options that do not go with them, then the
 * document of a (the VMIs of pick: sarif). */
int cli_check_export(const kv_cmd *cmd, const kv_analysis *a,
    const kv_bits *pick, const cli_args *o);
int cmd_fleet(const kv_cmd *cmd, int argc, char **argv);
int cmd_completion(const kv_cmd *cmd, int argc, char **argv);
/* kvscope __complete CMD WORD... (hidden; complete.c): the snapshot's
 * names for the last word, one a line, exit 0; exit 1: not such a
 * value, the script completes it.  cmds[0..n): the command table
 * (main.c's, handed down). */
int cmd_complete(const kv_cmd *cmds, size_t n, int argc, char **argv);
int cmd_convert(const kv_cmd *cmd, int argc, char **argv);
int cmd_crosscheck(const kv_cmd *cmd, int argc, char **argv);

/* The command table's row for `convert` (cmd_convert.c). */
#define KV_CMD_CONVERT { "convert", "convert INPUT SNAP.tar.gz | convert " \
	"INPUT --output-file SNAP.tar.gz", \
	"write a must-gather or support bundle as a kvscope snapshot", \
	"Reads INPUT (a must-gather, a support bundle or a folder of\n" \
	"kubectl get -o yaml|json output; a directory, .tar, .tar.gz or\n" \
	".zip) and writes the objects kvscope reads as a snapshot:\n" \
	"manifest.json with sizes and SHA-256, redaction applied as\n" \
	"kvscope-collect applies it.  The file appears complete or not at\n" \
	"all; one line on stdout says what it holds.\n" \
	"  -f, --output-file FILE  the snapshot to write (.tar.gz or .tgz);\n" \
	"                          or give it as the second argument\n" \
	"  --force                 replace FILE when it exists\n", \
	O_OUTFILE | O_FORCE, 1, 2, "INPUT SNAP", cmd_convert }
int cmd_whatif(const kv_cmd *cmd, int argc, char **argv);
int cmd_diff(const kv_cmd *cmd, int argc, char **argv);

#define KV_CMD_CROSSCHECK { "crosscheck", "crosscheck SOURCE TARGET " \
	"[-n NS] [-l SELECTOR] [--vmi NAME] [--live|--cold] " \
	"[--storage-class-map A=B] [--network-map A=B] [--add-node-like " \
	"NODE[=N]...] [--figure FILE] [--report DIR [--format LIST] " \
	"[--force]] [-o FORMAT]", \
	"could the VMs of SOURCE live-migrate to TARGET, or start there", \
	"Answers for each running VMI and each stopped VM of SOURCE\n" \
	"whether it could live-migrate to the cluster of TARGET (KubeVirt's\n" \
	"decentralized live migration), only start there after a cold move,\n" \
	"or not, with every reason and its fix and the TARGET nodes it\n" \
	"could land on (docs/crosscheck.md).  Exit 1 when a VM answers no\n" \
	"(with --live: not live; with --cold: no), else 0.  SOURCE and\n" \
	"TARGET of one cluster are a warning.\n" \
	"  -n, --namespace NS      only VMs in NS (repeatable, commas)\n" \
	"  -l, --selector SEL      only VMs whose labels match\n" \
	"  --vmi [NS/]NAME         only that VMI or VM\n" \
	"  --live                  only ask for live migration\n" \
	"  --cold                  only ask for a cold move\n" \
	"  --storage-class-map A=B  SOURCE's storage class A is B on\n" \
	"                          TARGET (repeatable, commas)\n" \
	"  --network-map A=B       SOURCE's network A (a NAD name or\n" \
	"                          NS/NAME) is B on TARGET\n" \
	"  --cordon NODE, --uncordon NODE, --remove-node NODE,\n" \
	"  --add-node-like NODE[=COUNT]  TARGET as it would be after\n" \
	"                          these changes (what-if's), in order\n" \
	"  --figure FILE           also write the CPU figure: SOURCE's\n" \
	"                          CPU classes x TARGET's, host-model\n" \
	"                          pairs, as SVG\n" \
	"  --report DIR            also write the report into DIR:\n" \
	"                          report.html, report.pdf,\n" \
	"                          crosscheck-cpu.svg, crosscheck.json\n" \
	"  --format LIST           of those: html, pdf, svg, json, all\n" \
	"  --force                 write into a DIR that holds other\n" \
	"                          files\n" \
	"  -o, --output FORMAT     text (default), json or yaml\n" \
	"  --all                   long lists whole\n" \
	"  --color WHEN            auto, always or never\n" \
	"  -q, --quiet             no progress on stderr\n", \
	O_OUTPUT | O_COLOR | O_QUIET | O_STRICT | O_NAMESPACE | \
	O_SELECTOR | O_ALL | O_CROSS | O_TCHANGE | O_REPORT | O_FORMAT | \
	O_FORCE, 2, 2, "SOURCE TARGET", \
	cmd_crosscheck }

#endif
