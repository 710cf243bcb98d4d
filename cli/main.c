/*
 * main.c - kvscope's entry point and command table.
 */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "limits.h"
#include "render.h"

static const kv_cmd commands[] = {
	{ "report", "report SNAPSHOT [--format html,svg,pdf,json] "
	  "[--output DIR]",
	  "write the report (HTML, SVG figures, PDF, findings.json)",
	  "Analyses SNAPSHOT (a .tar.gz, .tar or directory written by\n"
	  "kvscope-collect) and writes the chosen formats into DIR\n"
	  "(default: kvscope-report), all or nothing.\n"
	  "  --format LIST   comma-separated: html, svg, pdf, json, or all\n"
	  "                  (default: all)\n"
	  "  --output DIR    output directory, created if missing\n",
	  cmd_report },
	{ "check", "check SNAPSHOT [--node NODE ...]",
	  "exit 1 when a VMI would not migrate (pre-maintenance gate)",
	  "Prints one line per running VMI (on the given nodes, or anywhere)\n"
	  "whose live migration would not succeed, and exits 1 if there is\n"
	  "any, 0 if there is none.\n"
	  "  --node NODE     only VMIs running on NODE (repeatable)\n",
	  cmd_check },
	{ "explain", "explain SNAPSHOT NAMESPACE/NAME",
	  "the full reasoning for one VMI",
	  "Shows the VMI's target pod selector, each node with the first\n"
	  "constraint it fails, and every blocker with a remediation.\n",
	  cmd_explain },
	{ "models", "models SNAPSHOT [--nodes a,b,...] [--selector key=value]",
	  "named CPU models common to a set of nodes, best first",
	  "Lists the named CPU models every chosen node can run (default: all\n"
	  "KubeVirt nodes), best first, with level, AVX2 and AVX-512, then\n"
	  "the better models and which node rules each out.\n"
	  "  --nodes LIST      comma-separated node names\n"
	  "  --selector K=V    nodes whose label K equals V (repeatable)\n",
	  cmd_models },
	{ "pairs", "pairs SNAPSHOT",
	  "host-model migration matrix between CPU classes",
	  "Prints the CPU classes and, for every ordered pair, whether a\n"
	  "host-model VMI can move from one to the other, with the missing\n"
	  "labels of each refused pair.\n",
	  cmd_pairs },
	KV_CMD_CONVERT,
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void
usage_all(FILE *f)
{
	fprintf(f, "usage: kvscope COMMAND [ARGS]\n\n"
	    "Offline KubeVirt live-migration analysis of a kvscope snapshot."
	    "\n\ncommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n  kvscope COMMAND --help   details of one command\n"
	    "  kvscope --version\n\nexit status: 0 all is well, 1 check "
	    "found VMIs that would not migrate, 2 error\n");
}

int
cli_usage(const kv_cmd *cmd)
{
	fprintf(stderr, "usage: kvscope %s\n", cmd->usage);
	return EXIT_TOOL;
}

int
cli_help(const kv_cmd *cmd)
{
	printf("usage: kvscope %s\n\n%s\n%s", cmd->usage, cmd->summary,
	    cmd->help);
	return 0;
}

int
cli_load(const char *path, kv_model **m, kv_analysis **a)
{
	kv_limits lim;
	kv_err err = {0};

	*m = NULL;
	*a = NULL;
	kv_timing(NULL);
	if (kv_limits_init(&lim, &err) != KV_OK ||
	    kv_model_load(path, &lim, m, &err) != KV_OK ||
	    (kv_timing("load"), kv_analyze(*m, a, &err)) != KV_OK) {
		fprintf(stderr, "kvscope: %s\n", err.msg);
		kv_model_free(*m);
		*m = NULL;
		return EXIT_TOOL;
	}
	return 0;
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
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage_all(stdout);
		return 0;
	}
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(argv[1], commands[i].name) == 0) {
			for (int j = 2; j < argc; j++)
				if (strcmp(argv[j], "--help") == 0 ||
				    strcmp(argv[j], "-h") == 0)
					return cli_help(&commands[i]);
			return commands[i].run(&commands[i], argc - 1,
			    argv + 1);
		}
	fprintf(stderr, "kvscope: unknown command \"");
	kv_term_puts(stderr, argv[1]);
	fprintf(stderr, "\"\n");
	usage_all(stderr);
	return EXIT_TOOL;
}
