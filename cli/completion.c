/*
 * completion.c - `kvscope completion bash|zsh|fish`: shell completion
 * scripts written from the command table and the option table, so they
 * cannot drift from what the parser takes.  Values that name nodes,
 * namespaces, VMIs, CPU models or storage classes (cli_option.complete)
 * the scripts ask of `kvscope __complete` (complete.c), which reads the
 * snapshot already on the command line.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

/* The words to complete after option op of cmd, or NULL. */
static const char *
values(const kv_cmd *cmd, const cli_option *op)
{
	if (strcmp(op->name, "output") == 0 && CLI_OUTPUT_IS_FORMATS(cmd))
		return "html svg pdf json csv all";	/* report: formats */
	if (strcmp(op->name, "output") == 0)
		return cli_formats(cmd);
	return op->values;
}

static void
bash_options(const kv_cmd *cmd)
{
	printf("\t%s) opts=\"", cmd->name);
	for (size_t i = 0; cli_options[i].name; i++)
		if (cmd->opts & cli_options[i].bit) {
			if (cli_options[i].shortname)
				printf("-%c ", cli_options[i].shortname);
			printf("--%s ", cli_options[i].name);
		}
	printf("--help\" ;;\n");
}

static void
bash(const kv_cmd *cmds, size_t n)
{
	printf("# bash completion for kvscope: source <(kvscope completion "
	    "bash)\n_kvscope() {\n\tlocal cur=${COMP_WORDS[COMP_CWORD]}\n"
	    "\tlocal prev=${COMP_WORDS[COMP_CWORD-1]} cmd=${COMP_WORDS[1]} "
	    "opts words\n\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n"
	    "\t\tCOMPREPLY=($(compgen -W \"");
	for (size_t i = 0; i < n; i++)
		printf("%s ", cmds[i].name);
	printf("help --help --version\" -- \"$cur\"))\n\t\treturn\n\tfi\n"
	    "\tif [ \"$cmd\" = completion ]; then\n\t\tCOMPREPLY=($(compgen "
	    "-W \"bash zsh fish\" -- \"$cur\"))\n\t\treturn\n\tfi\n"
	    "\t# names from the snapshot on the line (kvscope __complete)\n"
	    "\tif words=$(\"${COMP_WORDS[0]}\" __complete "
	    "\"${COMP_WORDS[@]:1:COMP_CWORD}\" 2>/dev/null); then\n"
	    "\t\t[ \"$cur\" = = ] && cur=\n"
	    "\t\tCOMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
	    "\t\treturn\n\tfi\n"
	    "\tcase $cmd:$prev in\n\t*:-d|*:--output-dir|*:--report) "
	    "COMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n"
	    "\treport:-o|report:--output) COMPREPLY=($(compgen -W \"html "
	    "svg pdf json csv all\" -- \"$cur\")); return ;;\n");
	for (size_t i = 0; cli_options[i].name; i++) {
		const cli_option *op = &cli_options[i];

		if (op->values == NULL || strcmp(op->name, "output") == 0)
			continue;
		printf("\t*:--%s", op->name);
		if (op->shortname)
			printf("|*:-%c", op->shortname);
		printf(") COMPREPLY=($(compgen -W \"%s\" -- \"$cur\")); "
		    "return ;;\n", op->values);
	}
	for (size_t i = 0; i < n; i++)
		if ((cmds[i].opts & O_OUTPUT) &&
		    !CLI_OUTPUT_IS_FORMATS(&cmds[i]))
			printf("\t%s:-o|%s:--output) COMPREPLY=($(compgen -W "
			    "\"%s\" -- \"$cur\")); return ;;\n", cmds[i].name,
			    cmds[i].name, cli_formats(&cmds[i]));
	printf("\tesac\n\tcase $cmd in\n");
	for (size_t i = 0; i < n; i++)
		bash_options(&cmds[i]);
	printf("\tesac\n\tcase $cur in\n\t-*) COMPREPLY=($(compgen -W "
	    "\"$opts\" -- \"$cur\")) ;;\n\t*) COMPREPLY=($(compgen -f -- "
	    "\"$cur\")) ;;\n\tesac\n}\ncomplete -o filenames -F _kvscope "
	    "kvscope\n");
}

/* zsh's action for a value without a word list. */
static const char *
zsh_free(const kv_cmd *cmd, const cli_option *op)
{
	if (op->complete != CC_NONE)
		return "{_kvscope_names}";
	if (strcmp(op->name, "output-file") == 0)
		return "_files";
	return strcmp(op->name, "output-dir") == 0 ||
	    strcmp(op->name, "report") == 0 ? "_files -/" : " ";
}

static void
zsh_options(const kv_cmd *cmd)
{
	printf("\t%s)\n\t\t_arguments -s", cmd->name);
	for (size_t i = 0; cli_options[i].name; i++) {
		const cli_option *op = &cli_options[i];
		const char *v = values(cmd, op);

		if (!(cmd->opts & op->bit))
			continue;
		if (op->arg == NULL) {
			printf(" '--%s'", op->name);
			if (op->shortname)
				printf(" '-%c'", op->shortname);
			continue;
		}
		printf(" '--%s=:%s:%s%s%s'", op->name, op->arg, v ? "(" :
		    "", v ? v : zsh_free(cmd, op), v ? ")" : "");
		if (op->shortname)
			printf(" '-%c+:%s:%s%s%s'", op->shortname, op->arg,
			    v ? "(" : "", v ? v : zsh_free(cmd, op),
			    v ? ")" : "");
	}
	if (strcmp(cmd->name, "completion") == 0)
		printf(" '1:shell:(bash zsh fish)' ;;\n");
	else if (strstr(cmd->argnames, "NAME") != NULL)
		printf(" '1:snapshot:_files' '2:VMI:{_kvscope_names}' ;;\n");
	else
		printf(" '*:snapshot:_files' ;;\n");
}

static void
zsh(const kv_cmd *cmds, size_t n)
{
	printf("#compdef kvscope\n# zsh completion for kvscope: kvscope "
	    "completion zsh > \"${fpath[1]}/_kvscope\"\n"
	    "# names from the snapshot on the line (kvscope __complete)\n"
	    "_kvscope_names() {\n\tlocal out\n\tout=$($_kvscope_bin "
	    "__complete \"${(@)words[1,CURRENT]}\" 2>/dev/null) || "
	    "return 1\n\tcompadd -- ${(f)out}\n}\n_kvscope() {\n"
	    "\tlocal -a cmds\n\tcmds=(\n");
	for (size_t i = 0; i < n; i++)
		printf("\t\t'%s:%s'\n", cmds[i].name, cmds[i].summary);
	printf("\t)\n\tif (( CURRENT == 2 )); then\n\t\t_describe command "
	    "cmds\n\t\treturn\n\tfi\n\t_kvscope_bin=$words[1]\n"
	    "\tshift words\n\t(( CURRENT-- ))\n"
	    "\tcase $words[1] in\n");
	for (size_t i = 0; i < n; i++)
		zsh_options(&cmds[i]);
	printf("\tesac\n}\ncompdef _kvscope kvscope 2>/dev/null || "
	    "_kvscope \"$@\"\n");
}

static void
fish(const kv_cmd *cmds, size_t n)
{
	printf("# fish completion for kvscope: kvscope completion fish > "
	    "~/.config/fish/completions/kvscope.fish\ncomplete -c kvscope "
	    "-f\n# names from the snapshot on the line (kvscope __complete)\n"
	    "function __kvscope_names\n\tset -l w (commandline -opc)\n"
	    "\tkvscope __complete $w[2..-1] (commandline -ct) 2>/dev/null\n"
	    "end\n");
	for (size_t i = 0; i < n; i++)
		printf("complete -c kvscope -n __fish_use_subcommand -a %s "
		    "-d '%s'\n", cmds[i].name, cmds[i].summary);
	for (size_t i = 0; i < n; i++) {
		const char *c = cmds[i].name;

		printf("complete -c kvscope -n '__fish_seen_subcommand_from "
		    "%s' %s\n", c, strcmp(c, "completion") == 0 ?
		    "-a 'bash zsh fish'" : "-F");
		for (size_t k = 0; cli_options[k].name; k++) {
			const cli_option *op = &cli_options[k];
			const char *v = values(&cmds[i], op);

			if (!(cmds[i].opts & op->bit))
				continue;
			printf("complete -c kvscope -n '__fish_seen_subcommand_"
			    "from %s' -l %s", c, op->name);
			if (op->shortname)
				printf(" -s %c", op->shortname);
			if (op->arg && v)
				printf(" -x -a '%s'", v);
			else if (op->arg && op->complete != CC_NONE)
				printf(" -x -a '(__kvscope_names)'");
			else if (op->arg)
				printf(" -r");
			printf("\n");
		}
	}
}

int
cmd_completion(const kv_cmd *cmd, int argc, char **argv)
{
	cli_args o;
	size_t n;
	const kv_cmd *cmds = cli_commands(&n);
	int rc;

	if ((rc = cli_parse(cmd, argc, argv, &o)) != 0)
		return rc;
	if (strcmp(o.pos[0], "bash") == 0)
		bash(cmds, n);
	else if (strcmp(o.pos[0], "zsh") == 0)
		zsh(cmds, n);
	else if (strcmp(o.pos[0], "fish") == 0)
		fish(cmds, n);
	else
		rc = cli_fail(cmd, "unknown shell \"%s\" (bash, zsh or fish)",
		    o.pos[0]);
	cli_args_free(&o);
	if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout)))
		rc = cli_error(cmd, "stdout: write error");
	return rc;
}
