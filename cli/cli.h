/*
 * cli.h - the subcommands of kvscope and what they share.
 *
 * Each subcommand is a row of the command table in main.c: name, usage,
 * one-line summary and the function that runs it with its own argv
 * (argv[0] is the subcommand).  Exit status: 0 all is well, 1 `check`
 * found VMIs that would not migrate, 2 usage, input or tool error.
 */
#ifndef KV_CLI_H
#define KV_CLI_H

#include <stdio.h>

#include "analysis.h"

#define EXIT_FINDINGS 1
#define EXIT_TOOL 2

typedef struct kv_cmd {
	const char *name;
	const char *usage;
	const char *summary;
	const char *help;
	int (*run)(const struct kv_cmd *cmd, int argc, char **argv);
} kv_cmd;

/* Load and analyse a snapshot; on failure print the error and return
 * EXIT_TOOL.  The caller frees both with kv_analysis_free and
 * kv_model_free. */
int cli_load(const char *path, kv_model **m, kv_analysis **a);
/* Print "usage: kvscope <usage>" and return EXIT_TOOL. */
int cli_usage(const kv_cmd *cmd);
/* Print the command's help to stdout and return 0. */
int cli_help(const kv_cmd *cmd);

int cmd_report(const kv_cmd *cmd, int argc, char **argv);
int cmd_check(const kv_cmd *cmd, int argc, char **argv);
int cmd_explain(const kv_cmd *cmd, int argc, char **argv);
int cmd_models(const kv_cmd *cmd, int argc, char **argv);
int cmd_pairs(const kv_cmd *cmd, int argc, char **argv);
int cmd_convert(const kv_cmd *cmd, int argc, char **argv);

/* The command table's row for `convert` (cmd_convert.c). */
#define KV_CMD_CONVERT { "convert", "convert INPUT --output SNAP.tar.gz", \
	"write a must-gather or support bundle as a kvscope snapshot", \
	"Reads INPUT (a must-gather, a support bundle or a folder of\n" \
	"kubectl get -o yaml|json output; a directory, .tar, .tar.gz or\n" \
	".zip) and writes the objects kvscope reads as a snapshot:\n" \
	"manifest.json with sizes and SHA-256, redaction applied as\n" \
	"kvscope-collect applies it.  The file appears complete or not at\n" \
	"all.\n" \
	"  --output FILE   the snapshot to write (.tar.gz)\n", cmd_convert }

#endif
