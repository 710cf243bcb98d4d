/*
 * main.c - kvscope's entry point, command table and snapshot loading.
 */
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "analyze/change/fixproof.h"
#include "analyze/read/jsonpool.h"
#include "analyze/read/limits.h"
#include "render/render.h"

#define VIEW_OPTS (O_OUTPUT | O_COLOR | O_QUIET | O_STRICT)
#define REPORT_OPTS (O_REPORT | O_FORMAT | O_FORCE)	/* what-if, diff */
/* what-if's and diff's --report, in their help */
#define REPORT_HELP \
	"  --report DIR              also write the report of the snapshot\n" \
	"                            after (diff: of NEW) into DIR, as\n" \
	"                            `report` does, opening with what " \
	    "changed,\n" \
	"                            and diff.json (the -o json document);\n" \
	"                            in text the files follow the answer\n" \
	"  --format LIST             with --report: html, svg, pdf, json,\n" \
	"                            csv or all (default: all)\n" \
	"  --pdf-detail LEVEL        with --report: failing or all\n" \
	"  --force                   with --report: write into a non-empty\n" \
	"                            directory that holds no kvscope report\n"

static const kv_cmd commands[] = {
	{ "report", "report SNAPSHOT [-o|--format html,svg,pdf,json,csv] "
	  "[--pdf-detail failing|all] [-d|--output-dir DIR] [--force] [-q]",
	  "write the report (HTML, SVG figures, PDF, findings.json)",
	  "Analyses SNAPSHOT (what kvscope-collect writes, a must-gather,\n"
	  "a kubectl get file or - for standard input: kvscope help) and\n"
	  "writes the chosen formats into DIR\n"
	  "(default: kvscope-report), all or nothing, then prints the files\n"
	  "it wrote, one per line.  A report written over an older one\n"
	  "replaces every file of it.\n"
	  "  -o, --output LIST      the formats, comma-separated: html, svg,\n"
	  "                         pdf, json, csv (tables, not in all) or\n"
	  "                         all (default: all)\n"
	  "  --format LIST          the same as -o\n"
	  "  --pdf-detail LEVEL     failing (default): the PDF lists only the\n"
	  "                         VMIs that need attention; all: every VMI\n"
	  "  -d, --output-dir DIR   the folder to write into (default\n"
	  "                         kvscope-report), created with its parents\n"
	  "                         if missing\n"
	  "  --force                write into a non-empty directory that\n"
	  "                         holds no kvscope report\n"
	  "  --link RATE, --dirty-rate RATE   the migration link and the\n"
	  "                         guests' dirty rate where the snapshot has\n"
	  "                         neither (docs/window.md)\n"
	  "  --strict               a file that cannot be read refuses\n"
	  "                         the input (exit 2); else it is skipped\n"
	  "  -q, --quiet            no progress on stderr\n",
	  O_OUTPUT | O_OUTDIR | O_FORMAT | O_FORCE | O_QUIET | O_STRICT |
	  O_ASSUME, 1, 1,
	  "SNAPSHOT",
	  cmd_report },
	{ "check", "check SNAPSHOT [-n NS | -A] [--node LIST] "
	  "[-l SELECTOR] [--groups] [-o FORMAT] | check SNAPSHOT --drain "
	  "LIST [--drain-selector SELECTOR] [--allow-shutdown | "
	  "--allow-restart]",
	  "exit 1 when a VMI would not migrate, or a drain would stop or "
	  "block one",
	  "Prints one line per running VMI (of the chosen namespaces, nodes\n"
	  "and labels, or all) whose live migration would not succeed, and\n"
	  "exits 1 if there is any, 0 if there is none; then the groups:\n"
	  "VMIs that one change would help, each with its fix.  With --drain\n"
	  "it answers instead what `kubectl drain` of those nodes would do\n"
	  "with every VMI on them (migrate, and to which node; stop; wait\n"
	  "forever; left to an external controller) and exits 1 when any\n"
	  "would stop or block the drain.\n"
	  "  --groups              print only the groups, with their VMIs\n"
	  "                        (with --drain: of the VMIs it stops or\n"
	  "                        holds)\n"
	  "  -n, --namespace NS    only VMIs in NS (repeatable, commas)\n"
	  "  -A, --all-namespaces  VMIs of every namespace (the default)\n"
	  "  --node, --nodes LIST  only VMIs running on these nodes: would\n"
	  "                        they migrate if asked (their eviction\n"
	  "                        strategy aside; see --drain)\n"
	  "  -l, --selector SEL    only VMIs the label selector matches, as\n"
	  "                        kubectl takes it: k=v, k==v, k!=v,\n"
	  "                        'k in (a,b)', 'k notin (a)', k, !k;\n"
	  "                        commas and repeats: all must hold\n"
	  "  --drain LIST          drain these nodes together (repeatable,\n"
	  "                        commas): each VMI as its eviction strategy\n"
	  "                        has it; the nodes are no targets for each\n"
	  "                        other, and room is used up as VMIs land\n"
	  "  --drain-selector SEL  drain the nodes the label selector\n"
	  "                        matches (as -l, e.g.\n"
	  "                        node-role.kubernetes.io/worker)\n"
	  "  --allow-shutdown      accept the stops the VMs' own strategy "
	      "asks\n"
	  "                        for; only a blocked drain exits 1\n"
	  "  --allow-restart       accept only the stops whose "
	      "VirtualMachine\n"
	  "                        starts the VM again on another node\n"
	  "  --window DURATION     with --drain: exit 1 too when the drain's\n"
	  "                        slow end passes DURATION (2h, 90m,\n"
	  "                        1h30m) or a migration will be aborted\n"
	  "  --link RATE           the migration link (25Gbit, 1250MB/s)\n"
	  "                        instead of history or 10 Gbit/s\n"
	  "  --dirty-rate RATE     how fast guests dirty memory (40MB/s,\n"
	  "                        10MB/s-60MB/s) where no metrics say\n"
	  "  -o, --output FORMAT   text (default), wide (every running VMI\n"
	  "                        in columns; not with --drain), json,\n"
	  "                        yaml, junit (one test case per VMI),\n"
	  "                        prom (Prometheus text exposition of\n"
	  "                        the whole snapshot) or sarif (SARIF\n"
	  "                        2.1.0, a result per VMI and code)\n"
	  "  -f, --output-file FILE  with -o prom or sarif: write FILE\n"
	  "                        under a temporary name, then rename it\n"
	  "  --all                 long lists of nodes and ids whole\n"
	  "  --fail-on LIST        what counts as failing (exit 1, a JUnit\n"
	  "                        <failure>): verdicts (blocked, no-target,\n"
	  "                        will-fail, stuck), drain actions (block,\n"
	  "                        shutdown) or finding codes; default: a\n"
	  "                        VMI that would not migrate, or that the\n"
	  "                        drain stops or holds\n"
	  "  --color WHEN          auto (default: on a terminal, unless\n"
	  "                        NO_COLOR is set), always or never\n"
	  "  --strict              a file that cannot be read refuses\n"
	  "                        the input (exit 2); else it is skipped\n"
	  "  -q, --quiet           no progress on stderr\n",
	  VIEW_OPTS | O_WIDE | O_NAMESPACE | O_NODE | O_SELECTOR | O_DRAIN |
	  O_ASSUME | O_WINDOW |
	  O_GROUPS | O_ALL | O_JUNIT | O_PROM | O_SARIF, 1, 1,
	  "SNAPSHOT", cmd_check },
	{ "plan", "plan SNAPSHOT --drain-selector SEL [--drain LIST] "
	  "[--max-unavailable N] [--allow-shutdown | --allow-restart] "
	  "[--allow-block] [-o FORMAT]",
	  "the order to drain a pool of nodes in, N at a time",
	  "Plans the rolling maintenance of the pool (the nodes that\n"
	  "--drain-selector matches, and those --drain names): the order to\n"
	  "drain them, N at a time, each batch back in service before the\n"
	  "next, so that every VMI that can migrate finds a target with room\n"
	  "at its turn; the VMIs that stop or block at each step, the total\n"
	  "estimated time.  Nodes whose drain would wait forever are no\n"
	  "steps: a list to fix first, with the groups that block them.\n"
	  "The output states the ordering rule.  Exits 1 when a step would\n"
	  "stop or block a VMI or a node is to fix first.\n"
	  "  --drain-selector SEL  the pool: the nodes the label selector\n"
	  "                        matches (k=v, k in (a,b), k, ...)\n"
	  "  --drain LIST          nodes of the pool by name\n"
	  "  --max-unavailable N   nodes drained at once (default 1)\n"
	  "  --allow-block         the nodes to fix first as last steps\n"
	  "                        (-o junit: always, a case per VMI)\n"
	  "  --allow-shutdown      accept the stops the VMs' own strategy "
	      "asks\n"
	  "                        for\n"
	  "  --allow-restart       accept only the stops whose "
	      "VirtualMachine\n"
	  "                        starts the VM again on another node\n"
	  "  -o, --output FORMAT   text (default), wide (also every migration\n"
	  "                        with its target), json, yaml or junit\n"
	  "  --fail-on LIST        what counts as failing, as in check\n"
	  "  --window DURATION     exit 1 too when the plan's slow end\n"
	  "                        passes DURATION or a migration will be\n"
	  "                        aborted\n"
	  "  --link RATE, --dirty-rate RATE   as in check\n"
	  "  --color WHEN          auto, always or never\n"
	  "  --strict              a file that cannot be read refuses\n"
	  "                        the input (exit 2); else it is skipped\n"
	  "  -q, --quiet           no progress on stderr\n",
	  VIEW_OPTS | O_WIDE | O_DRAIN | O_BATCH | O_JUNIT | O_ASSUME |
	  O_WINDOW, 1, 1, "SNAPSHOT",
	  cmd_plan },
	{ "explain", "explain SNAPSHOT [NAMESPACE/]NAME [-n NS] [-o FORMAT] "
	  "[--all]",
	  "the full reasoning for one VMI",
	  "Shows the VMI's target pod selector, each node with the first\n"
	  "constraint it fails, and every blocker with a remediation.  A\n"
	  "NAME without namespace is looked up in --namespace, or in every\n"
	  "namespace when it is unique there.\n"
	  "  -n, --namespace NS    the namespace of NAME\n"
	  "  -A, --all-namespaces  look NAME up everywhere (the default)\n"
	  "  -o, --output FORMAT   text (default), json or yaml\n"
	  "  --all                 every node, not the first 20\n"
	  "  --link RATE, --dirty-rate RATE   as in check\n"
	  "  --color WHEN          auto, always or never\n"
	  "  --strict              a file that cannot be read refuses\n"
	  "                        the input (exit 2); else it is skipped\n"
	  "  -q, --quiet           no progress on stderr\n",
	  VIEW_OPTS | O_NAMESPACE | O_ALL | O_ASSUME, 2, 2, "SNAPSHOT NAME",
	  cmd_explain },
	{ "models", "models SNAPSHOT [--nodes LIST] [-l SEL] [-o FORMAT] "
	  "[--all]",
	  "named CPU models common to a set of nodes, best first",
	  "Lists the named CPU models every chosen node can run (default: all\n"
	  "KubeVirt nodes), best first, with level, AVX2 and AVX-512, then\n"
	  "the better models and which node rules each out.  Exit 2 when no\n"
	  "node matches.\n"
	  "  --node, --nodes LIST  node names (repeatable, commas)\n"
	  "  -l, --selector SEL    nodes the label selector matches (k=v,\n"
	  "                        k!=v, k in (a,b), k, !k; all must hold)\n"
	  "  -o, --output FORMAT   text (default), json or yaml\n"
	  "  --all                 long node lists whole\n"
	  "  --color WHEN          auto, always or never\n"
	  "  --strict              a file that cannot be read refuses\n"
	  "                        the input (exit 2); else it is skipped\n"
	  "  -q, --quiet           no progress on stderr\n",
	  VIEW_OPTS | O_NODE | O_SELECTOR | O_ALL, 1, 1, "SNAPSHOT",
	  cmd_models },
	{ "pairs", "pairs SNAPSHOT [-o FORMAT] [--all]",
	  "host-model migration matrix between CPU classes",
	  "Prints the CPU classes and, for every ordered pair, whether a\n"
	  "host-model VMI can move from one to the other, with the missing\n"
	  "labels of each refused pair.\n"
	  "  -o, --output FORMAT   text (default), json or yaml\n"
	  "  --all                 long lists whole\n"
	  "  --color WHEN          auto, always or never\n"
	  "  --strict              a file that cannot be read refuses\n"
	  "                        the input (exit 2); else it is skipped\n"
	  "  -q, --quiet           no progress on stderr\n",
	  VIEW_OPTS | O_ALL, 1, 1, "SNAPSHOT", cmd_pairs },
	{ "what-if", "what-if SNAPSHOT CHANGE... [-o FORMAT] [--fail-on LIST] "
	  "[--report DIR [--format LIST] [--force]]",
	  "the snapshot after a change, against the snapshot as it is",
	  "Analyses SNAPSHOT as it would be after the changes (combinable,\n"
	  "applied in order) and prints what differs: VMIs whose verdict,\n"
	  "target count, drain behaviour or codes change, nodes, CPU classes\n"
	  "and drains.  Exit 1 when something gets worse (a VMI that\n"
	  "migrates today would not, a drain would stop or wait on a VMI it\n"
	  "moves today, a guest below its OS's x86-64 level), else 0.\n"
	  "  --cpu-model MODEL         the VMs' spec.domain.cpu.model; scope\n"
	  "                            it with one of -n NS,..., -l SELECTOR\n"
	  "                            or --vmi [NS/]NAME,... after it\n"
	  "                            (default: every VMI);\n"
	  "                            takes effect after a restart (counted)\n"
	  "  --cluster-cpu-model MODEL the KubeVirt CR's default, for VMs\n"
	  "                            without their own model (restarts)\n"
	  "  --cordon NODE, --uncordon NODE, --remove-node NODE\n"
	  "  --add-node-like NODE[=COUNT]  new nodes NODE-whatif-1, ... with\n"
	  "                            NODE's labels, taints and allocatable\n"
	  "  --eviction-strategy STRATEGY  LiveMigrate, "
	      "LiveMigrateIfPossible,\n"
	  "                            External or None; scoped like\n"
	  "                            --cpu-model, else the cluster default\n"
	  "  --storage-class-rwx CLASS claims of CLASS as if recreated RWX\n"
	  "  --class-cpu CLASS=MODEL   Deckhouse: VirtualMachineClass CLASS\n"
	  "                            as type Model with MODEL, for every VM\n"
	  "                            of it (restarts); --cpu-model there\n"
	  "                            gives the scoped VMs a Model class's "
	      "CPU\n"
	  "  --fix G[,G...]|all        apply group G's fix (the groups check\n"
	  "                            lists) as its text says, for its\n"
	  "                            VMIs; one kvscope cannot write: a line\n"
	  "  -n, --namespace NS,...    after a scoped change (--cpu-model,\n"
	  "                            ...): only VMIs of these namespaces\n"
	  "  -A, --all-namespaces      every namespace (the default scope)\n"
	  "  -l, --selector SELECTOR   after a change: only the VMIs the "
	      "label\n"
	  "                            selector matches (as check -l)\n"
	  REPORT_HELP
	  "  -o, --output FORMAT       text (default), json, yaml or junit\n"
	  "                            (a test case per VMI after the\n"
	  "                            changes, failing when it gets worse)\n"
	  "  --fail-on LIST            what counts as failing (exit 1, a\n"
	  "                            JUnit <failure>), after the changes:\n"
	  "                            worse, verdicts, drain actions or\n"
	  "                            codes, as in check; default: worse\n"
	  "  --link RATE, --dirty-rate RATE   as in check\n"
	  "  --color WHEN              auto, always or never\n"
	  "  --strict                  a file that cannot be read refuses\n"
	  "                            the input (exit 2); else it is skipped\n"
	  "  -q, --quiet               no progress on stderr\n",
	  VIEW_OPTS | O_CHANGE | O_NAMESPACE | O_SELECTOR | REPORT_OPTS |
	  O_ASSUME |
	  O_JUNIT, 1, 1, "SNAPSHOT",
	  cmd_whatif },
	{ "diff", "diff OLD NEW [-o FORMAT] [--strict] [--report DIR "
	  "[--format LIST] [--force]]",
	  "what changed between two snapshots of one cluster",
	  "Compares two snapshots: nodes added and removed, nodes whose CPU\n"
	  "labels changed (features lost or gained, host model, vendor),\n"
	  "CPU classes merged or split, VMIs whose verdict or codes changed,\n"
	  "drains that changed.  Exit 1 when something got worse, else 0.\n"
	  "Both inputs are named (context, date, collector); a warning line\n"
	  "when they are of different clusters (the uid of kube-system, else\n"
	  "of the KubeVirt CR; without one, the context) or NEW is older\n"
	  "than OLD.\n"
	  REPORT_HELP
	  "  -o, --output FORMAT       text (default), json or yaml\n"
	  "  --strict                  a warning is an error, and a file\n"
	  "                            that cannot be read refuses the\n"
	  "                            input (exit 2)\n"
	  "  --color WHEN              auto, always or never\n"
	  "  -q, --quiet               no progress on stderr\n",
	  VIEW_OPTS | REPORT_OPTS | O_STRICT, 2, 2, "OLD NEW", cmd_diff },
	{ "fleet", "fleet SNAP...|DIR... [-d DIR] [--reports] [-o FORMAT] "
	  "[-f FILE]",
	  "many snapshots: clusters worst first, new/still/fixed problems",
	  "Reads the snapshots one at a time (a folder without manifest.json\n"
	  "that holds .tar.gz, .tgz, .tar or .zip files or snapshot folders\n"
	  "stands for those), groups them by cluster (the uid diff uses,\n"
	  "else the context) and writes fleet.html, history.html and\n"
	  "fleet.json (docs/fleet.md) into DIR: per cluster its newest\n"
	  "snapshot, the problems new, still open and fixed since the one\n"
	  "before, a trend figure.  An input that cannot be read is a row\n"
	  "\"unreadable: REASON\".  Exit 2 when none could be read, 1 when a\n"
	  "cluster has a VMI that would not migrate, else 0.\n"
	  "  -d, --output-dir DIR  the folder of the index (default\n"
	  "                        kvscope-fleet; with -o json, yaml or\n"
	  "                        prom only when given)\n"
	  "  --reports             also each snapshot's report (HTML and\n"
	  "                        findings.json) in DIR/CLUSTER/DATE/,\n"
	  "                        linked from its row\n"
	  "  -o, --output FORMAT   text (default: a line per cluster), json\n"
	  "                        or yaml (the fleet.json document) or\n"
	  "                        prom (Prometheus text exposition)\n"
	  "  -f, --output-file FILE  with -o prom: write FILE under a\n"
	  "                        temporary name, then rename it\n"
	  "  --color WHEN          auto, always or never\n"
	  "  -q, --quiet           no progress on stderr\n",
	  VIEW_OPTS | O_OUTDIR | O_REPORTS | O_PROM, 1, (size_t)-1,
	  "SNAP", cmd_fleet },
	{ "completion", "completion bash|zsh|fish",
	  "print a shell completion script",
	  "Prints the completion script for the shell, e.g.\n"
	  "  source <(kvscope completion bash)\n"
	  "  kvscope completion fish > "
	      "~/.config/fish/completions/kvscope.fish\n",
	  0, 1, 1, "SHELL", cmd_completion },
	KV_CMD_CONVERT,
	KV_CMD_CROSSCHECK,
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

const kv_cmd *
cli_commands(size_t *n)
{
	*n = NCOMMANDS;
	return commands;
}

static void
usage_all(FILE *f)
{
	fprintf(f, "usage: kvscope COMMAND [ARGS]\n\n"
	    "Offline KubeVirt live-migration analysis of a kvscope snapshot."
	    "\n\nSNAPSHOT: what kvscope-collect writes (.tar.gz, .tar, or the "
	    "folder\nunpacked), a must-gather, oc adm inspect or "
	    "support-bundle-kit\narchive or folder, a .zip of one, one "
	    "kubectl get -o json|yaml file,\nor - for any of these on "
	    "standard input.\n\ncommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name,
		    commands[i].summary);
	fprintf(f, "\n  kvscope COMMAND --help   details of one command "
	    "(or kvscope help COMMAND)\n  kvscope --version\n\nexit "
	    "status: 0 all is well; 1 check found VMIs that would not "
	    "migrate, a drain (check --drain, plan) would stop or block one, "
	    "or what-if or diff found something worse; 2 error\n");
}

int
cli_help(const kv_cmd *cmd)
{
	printf("usage: kvscope %s\n\n%s\n%s", cmd->usage, cmd->summary,
	    cmd->help);
	return 0;
}

/* One warning line; which: NULL, or the input it is about ("old
 * (PATH)", "old and new"). */
static void
warn_line(const char *which, const char *msg)
{
	cli_progress_end();
	fputs("kvscope: warning: ", stderr);
	if (which != NULL) {
		kv_term_puts(stderr, which);
		fputs(": ", stderr);
	}
	kv_term_puts(stderr, msg);
	fputc('\n', stderr);
}

/* Whether a holds a said warning with message msg. */
static bool
has_warning(const kv_analysis *a, const char *msg)
{
	for (size_t i = 0; i < a->ncoded; i++)
		if (kv_warning_said[a->coded[i].code] &&
		    strcmp(a->coded[i].message, msg) == 0)
			return true;
	return false;
}

/* Each coded warning as one stderr line (but pods-launchers, the
 * default scope), on every command that loads (a->coded: the same facts
 * as the documents' warnings). */
static void
cli_warnings(const kv_analysis *a)
{
	for (size_t i = 0; i < a->ncoded; i++)
		if (kv_warning_said[a->coded[i].code])
			warn_line(NULL, a->coded[i].message);
}

void
cli_warnings_pair(const kv_analysis *a0, const char *p0,
    const kv_analysis *a1, const char *p1)
{
	char *w0 = xasprintf("old (%s)", p0), *w1 = xasprintf("new (%s)", p1);

	for (size_t i = 0; i < a0->ncoded; i++)
		if (kv_warning_said[a0->coded[i].code])
			warn_line(has_warning(a1, a0->coded[i].message) ?
			    "old and new" : w0, a0->coded[i].message);
	for (size_t i = 0; i < a1->ncoded; i++)
		if (kv_warning_said[a1->coded[i].code] &&
		    !has_warning(a0, a1->coded[i].message))
			warn_line(w1, a1->coded[i].message);
	free(w0);
	free(w1);
}

bool cli_load_strict;
bool cli_load_quiet_warnings;

/* With KVSCOPE_TIMING: what of the load was jansson's parsing (its CPU
 * seconds on both workers, and the bytes it read after the skip rows). */
static void
timing_parse(void)
{
	double cpu;
	uint64_t bytes;

	jp_parse_spent(&cpu, &bytes);
	if (bytes > 0)
		fprintf(stderr, "kvscope: timing: parse (jansson) cpu %.3f, "
		    "%llu bytes\n", cpu, (unsigned long long)bytes);
}

int
cli_load(const char *path, bool quiet, kv_model **m, kv_analysis **a)
{
	kv_limits lim;
	kv_err err = {0};

	*m = NULL;
	*a = NULL;
	cli_progress_init(quiet);
	kv_timing(NULL);
	cli_progress("load: reading the snapshot");
	if (kv_limits_init(&lim, &err) != KV_OK)
		goto fail;
	lim.strict = cli_load_strict;
	if (kv_model_load(path, &lim, m, &err) != KV_OK)
		goto fail;
	kv_timing("load");
	timing_parse();
	cli_progress("load: %zu nodes, %zu VMIs (%.1f s); analysing",
	    (*m)->nnodes, (*m)->nvmis, cli_lap());
	(*m)->assume = cli_assumed();
	if (kv_analyze(*m, a, &err) != KV_OK)
		goto fail;
	kv_fix_prove(*a);
	cli_progress("analyse: %zu VMIs, %zu CPU classes (%.1f s)",
	    (*a)->nvmis, (*a)->nclasses, cli_lap());
	if (!cli_load_quiet_warnings)
		cli_warnings(*a);
	return 0;
fail:
	cli_progress_end();
	fprintf(stderr, "kvscope: %s\n", err.msg);
	kv_model_free(*m);
	*m = NULL;
	return EXIT_TOOL;
}

/* "unknown command", with the nearest one, then the usage. */
static int
unknown_command(const char *w)
{
	const char *names[NCOMMANDS];
	const char *near;

	for (size_t i = 0; i < NCOMMANDS; i++)
		names[i] = commands[i].name;
	near = cli_nearest(w, names, NCOMMANDS);
	fprintf(stderr, "kvscope: unknown command \"");
	kv_term_puts(stderr, w);
	if (near != NULL)
		fprintf(stderr, "\" (did you mean %s?)\n", near);
	else
		fprintf(stderr, "\"\n");
	usage_all(stderr);
	return EXIT_TOOL;
}

/* kvscope help CMD: what kvscope CMD --help prints. */
static int
help_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(name, commands[i].name) == 0)
			return cli_help(&commands[i]);
	return unknown_command(name);
}

/* A command's status once what it wrote to stdout is out: a write
 * error (a full disk) is one line and exit
 * status 2, unless the command already said so. */
static int
flushed(int rc)
{
	int e = cli_term_done() != 0 ? EIO : 0;

	e = fflush(stdout) != 0 ? errno : e;

	if ((e == 0 && !ferror(stdout)) || rc == EXIT_TOOL)
		return rc;
	fprintf(stderr, "kvscope: stdout: write error%s%s\n", e ? ": " : "",
	    e ? strerror(e) : "");
	return EXIT_TOOL;
}

int
main(int argc, char **argv)
{
	setlocale(LC_ALL, "C");
	if (argc < 2) {
		usage_all(stderr);
		return EXIT_TOOL;
	}
	if (strcmp(argv[1], "--version") == 0 ||
	    strcmp(argv[1], "version") == 0) {
		printf("kvscope %s\n", KV_VERSION);
		return 0;
	}
	if (strcmp(argv[1], "__complete") == 0)	/* completion.c's */
		return cmd_complete(commands, NCOMMANDS, argc - 2,
		    argv + 2);
	if (strcmp(argv[1], "help") == 0 && argc > 2)
		return help_command(argv[2]);
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage_all(stdout);
		return 0;
	}
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(argv[1], commands[i].name) == 0) {
			for (int j = 2; j < argc && strcmp(argv[j], "--"); j++)
				if (strcmp(argv[j], "--help") == 0 ||
				    strcmp(argv[j], "-h") == 0)
					return cli_help(&commands[i]);
			return flushed(commands[i].run(&commands[i],
			    argc - 1, argv + 1));
		}
	return unknown_command(argv[1]);
}
