/*
 * cmd_whatif.c - `kvscope what-if` (the snapshot after some changes,
 * against the snapshot as it is) and `kvscope diff` (two snapshots of one
 * cluster): arguments in, analyze/change/whatif.c and
 * analyze/change/diff.c, the diff view (render/term/view_diff.c) out.
 * Exit 1 when something gets worse.
 * With --report DIR the report of the snapshot after (of NEW) is written
 * first, as `report` writes one, with the diff as its first section and
 * diff.json; then the answer, and in text the files, "report: PATH".
 * what-if -o junit: a test case per VMI of the snapshot after (junit.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "analyze/change/diff.h"
#include "analyze/read/limits.h"
#include "analyze/read/mgtime.h"
#include "render/render.h"
#include "analyze/change/whatif.h"
#include "analyze/change/fixapply.h"
#include "analyze/change/fixproof.h"

static const char *const strategies[] = { "LiveMigrate",
	"LiveMigrateIfPossible", "External", "None" };

/* "cpu-model=X" -> kind; scope options give CH_COUNT and *scope. */
static int
change_kind(const char *opt, size_t len, enum kv_scope_kind *scope)
{
	static const struct {
		const char *name;
		enum kv_scope_kind scope;
	} scopes[] = { { "namespace", SC_NAMESPACE },
	    { "selector", SC_SELECTOR }, { "vmi", SC_VMI } };

	for (int k = 0; k < CH_COUNT; k++)
		if (strlen(kv_change_names[k]) == len &&
		    strncmp(opt, kv_change_names[k], len) == 0)
			return k;
	for (size_t i = 0; i < sizeof(scopes) / sizeof(scopes[0]); i++)
		if (strlen(scopes[i].name) == len &&
		    strncmp(opt, scopes[i].name, len) == 0)
			*scope = scopes[i].scope;
	return CH_COUNT;
}

static int
check_value(const kv_cmd *cmd, kv_change *ch)
{
	if (ch->kind == CH_ADD_NODE_LIKE) {
		char *eq = strchr(ch->value, '='), *end;
		long n = 1;

		if (eq != NULL) {
			n = strtol(eq + 1, &end, 10);
			if (eq == ch->value || *end != '\0' || n < 1 ||
			    n > 10000)
				return cli_fail(cmd, "--add-node-like: \"%s\" "
				    "is not NODE or NODE=COUNT (1-10000)",
				    ch->value);
			*eq = '\0';
		}
		ch->count = (size_t)n;
	}
	if (ch->kind == CH_CLASS_CPU) {
		const char *eq = strchr(ch->value, '=');

		if (eq == NULL || eq == ch->value || eq[1] == '\0')
			return cli_fail(cmd, "--class-cpu: \"%s\" is not "
			    "CLASS=MODEL", ch->value);
	}
	if (ch->kind == CH_EVICTION) {
		for (size_t i = 0; i < 4; i++)
			if (strcmp(ch->value, strategies[i]) == 0)
				return 0;
		return cli_fail(cmd, "--eviction-strategy: unknown value "
		    "\"%s\" (one of: LiveMigrate LiveMigrateIfPossible "
		    "External None)", ch->value);
	}
	return 0;
}

/* --fix's value, comma-separated, into ids (copies). */
static void
fix_ids(const char *v, cli_list *ids)
{
	for (const char *p = v;;) {
		size_t n = strcspn(p, ",");

		if (n > 0) {
			ids->v = xreallocarray(ids->v, ids->n + 1,
			    sizeof(char *));
			ids->v[ids->n++] = xstrndup(p, n);
		}
		if (p[n] == '\0')
			break;
		p += n + 1;
	}
}

/* The changes of o (strings into o->changes), scopes attached to the
 * change before them; the groups of --fix into ids. */
static int
parse_changes(const kv_cmd *cmd, const cli_args *o, kv_change **out,
    size_t *n, cli_list *ids)
{
	kv_change *ch = xcalloc(o->changes.n + 1, sizeof(kv_change));
	size_t k = 0;

	for (size_t i = 0; i < o->changes.n; i++) {
		char *s = o->changes.v[i], *eq = strchr(s, '=');
		enum kv_scope_kind scope = SC_ALL;
		int kind = change_kind(s, (size_t)(eq - s), &scope);

		if (strncmp(s, "fix=", 4) == 0) {
			fix_ids(eq + 1, ids);
			continue;
		}
		if (kind != CH_COUNT) {
			ch[k] = (kv_change){ .kind = kind, .value = eq + 1,
			    .count = 1 };
			if (check_value(cmd, &ch[k++]) != 0)
				goto fail;
			continue;
		}
		if (k == 0 || (ch[k - 1].kind != CH_CPU_MODEL &&
		    ch[k - 1].kind != CH_EVICTION) ||
		    ch[k - 1].scope != SC_ALL) {
			cli_fail(cmd, "--%.*s scopes the --cpu-model or "
			    "--eviction-strategy before it (one scope each)",
			    (int)(eq - s), s);
			goto fail;
		}
		ch[k - 1].scope = scope;
		ch[k - 1].scope_value = eq + 1;
	}
	if (k == 0 && ids->n == 0) {
		cli_fail(cmd, "no change given");
		goto fail;
	}
	*out = ch;
	*n = k;
	return 0;
fail:
	free(ch);
	return EXIT_TOOL;
}

/* The fixes of the groups ids of a0 before the changes ch[0..*n);
 * exit 2 for an unknown group, and when no fix named gives a change. */
static int
add_fixes(const kv_cmd *cmd, const kv_analysis *a0, const cli_list *ids,
    kv_fixset *fs, kv_change **ch, size_t *n)
{
	kv_err err = {0};
	kv_change *all;

	if (ids->n == 0)
		return 0;
	if (kv_fix_expand(a0, (const char *const *)ids->v, ids->n, fs,
	    &err) != KV_OK)
		return cli_fail(cmd, "%s", err.msg);
	if (fs->napplied == 0) {
		for (size_t i = 0; i + 1 < fs->nnotes; i++)
			cli_error(cmd, "%s", fs->notes[i]);
		return cli_fail(cmd, "%s", fs->nnotes ?
		    fs->notes[fs->nnotes - 1] : "--fix: no group");
	}
	all = xcalloc(fs->n + *n + 1, sizeof(kv_change));
	memcpy(all, fs->changes, fs->n * sizeof(kv_change));
	if (*n > 0)
		memcpy(all + fs->n, *ch, *n * sizeof(kv_change));
	free(*ch);
	*ch = all;
	*n += fs->n;
	return 0;
}

/* A CPU model a change names must be one KubeVirt can know: an unknown
 * name is a usage error with the nearest known ones. */
static int
check_models(const kv_cmd *cmd, const kv_analysis *a, const kv_change *ch,
    size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *v = ch[i].value, *eq = strchr(v, '=');
		const char *near[3];
		size_t nn;
		char buf[256];
		size_t off = 0;

		if (ch[i].kind == CH_CLASS_CPU && eq != NULL)
			v = eq + 1;
		else if (ch[i].kind != CH_CPU_MODEL &&
		    ch[i].kind != CH_CLUSTER_CPU_MODEL)
			continue;
		if (kv_cpu_model_known(a, v))
			continue;
		nn = kv_cpu_model_nearest(a, v, near, 3);
		buf[0] = '\0';
		for (size_t k = 0; k < nn && off < sizeof(buf); k++)
			off += (size_t)snprintf(buf + off, sizeof(buf) - off,
			    "%s%s", k == 0 ? "; did you mean " : k + 1 == nn ?
			    " or " : ", ", near[k]);
		return cli_fail(cmd, "--%s %s: no CPU model of that name "
		    "(libvirt's names are case-sensitive)%s%s",
		    kv_change_names[ch[i].kind], ch[i].value, buf,
		    nn > 0 ? "?" : "");
	}
	return 0;
}

/* The files --report wrote, after a text answer (json and yaml keep
 * stdout one document). */
static int
list_files(const kv_cmd *cmd, const kv_term *t, const cli_list *files)
{
	if (t->fmt != KV_OUT_TEXT && t->fmt != KV_OUT_WIDE)
		return 0;
	for (size_t i = 0; i < files->n; i++) {
		fputs("report: ", t->f);
		kv_term_puts(t->f, files->v[i]);
		fputc('\n', t->f);
	}
	if (fflush(t->f) != 0 || ferror(t->f))
		return cli_error(cmd, "stdout: write error");
	return 0;
}

/* The answer on the terminal; with --report first the report of b (the
 * snapshot after the changes, or NEW), all or nothing. */
static int
finish(const kv_cmd *cmd, const kv_analysis *a, const kv_analysis *b,
    const kv_strs *skip, const kv_diff_notes *notes, const cli_args *o,
    bool ours)
{
	kv_diff d;
	kv_term t;
	kv_err err = {0};
	cli_list files = { 0, NULL };
	size_t bad = 0;
	int rc = 0;

	kv_diff_build(a, b, skip, &d);
	if (o->report != NULL) {
		kv_report_diff rd = { &d, notes, a };
		char *made = NULL;

		if ((rc = cli_outdir_create(cmd, o->report, &made)) == 0 &&
		    (rc = cli_report_write(o, o->report, ours, b, &rd,
		    &files)) != 0)
			cli_outdir_unmake(o->report, &made);
		free(made);
		if (rc != 0)
			goto out;
	}
	cli_progress_end();
	cli_term(o, &t);
	cli_term_wrap(&t);
	if (t.fmt == KV_OUT_JUNIT)
		rc = cli_junit_whatif(b, &d, o, &t, &bad);
	else if (kv_view_diff(&d, notes, &t, &err) != KV_OK) {
		fprintf(stderr, "kvscope: %s\n", err.msg);
		rc = EXIT_TOOL;
	} else if ((rc = list_files(cmd, &t, &files)) == 0)
		bad = o->fail_on.n > 0 ? cli_whatif_bad(b, &d, o) : d.worse;
	if (rc == 0 && bad > 0)
		rc = EXIT_FINDINGS;
out:
	cli_list_free(&files);
	kv_diff_free(&d);
	return rc;
}

/* --format, --pdf-detail and --force go with --report; its folder is
 * checked before anything is loaded. */
static int
report_usage(const kv_cmd *cmd, const cli_args *o, bool *ours)
{
	*ours = false;
	if (o->report == NULL) {
		if (o->formats.n > 0 || o->force || o->pdf_all)
			return cli_fail(cmd, "--format, --pdf-detail and "
			    "--force go with --report DIR");
		return 0;
	}
	return cli_outdir_prepare(cmd, o->report, o->force, ours);
}

/* The snapshot again, changed, then analysed. */
static int
load_changed(const kv_cmd *cmd, const char *path, const kv_change *ch,
    size_t nch, kv_whatif *w, kv_model **m, kv_analysis **a)
{
	kv_limits lim;
	kv_err err = {0};

	cli_progress("what-if: applying %zu change%s", nch, nch == 1 ? "" :
	    "s");
	if (kv_limits_init(&lim, &err) == KV_OK)
		lim.strict = cli_load_strict;
	if (err.set || kv_model_load(path, &lim, m, &err) != KV_OK) {
		fprintf(stderr, "kvscope: %s\n", err.msg);
		return EXIT_TOOL;
	}
	if (kv_whatif_apply(*m, ch, nch, w, &err) != KV_OK)
		return cli_fail(cmd, "%s", err.msg);
	if (kv_analyze(*m, a, &err) != KV_OK) {
		fprintf(stderr, "kvscope: %s\n", err.msg);
		return EXIT_TOOL;
	}
	kv_fix_prove(*a);
	return 0;
}

int
cmd_whatif(const kv_cmd *cmd, int argc, char **argv)
{
	cli_args o;
	kv_model *m0 = NULL, *m1 = NULL;
	kv_analysis *a0 = NULL, *a1 = NULL;
	kv_change *ch = NULL;
	kv_whatif w = {0};
	kv_fixset fs = {0};
	kv_fixed *fixed = NULL;
	cli_list ids = { 0, NULL };
	size_t nch = 0;
	bool ours;
	int rc;

	if ((rc = cli_parse(cmd, argc, argv, &o)) != 0)
		return rc;
	if ((rc = parse_changes(cmd, &o, &ch, &nch, &ids)) != 0 ||
	    (rc = report_usage(cmd, &o, &ours)) != 0)
		goto out;
	if ((rc = cli_load(o.pos[0], o.quiet, &m0, &a0)) != 0 ||
	    (rc = add_fixes(cmd, a0, &ids, &fs, &ch, &nch)) != 0 ||
	    (rc = check_models(cmd, a0, ch, nch)) != 0)
		goto out;
	if ((rc = load_changed(cmd, o.pos[0], ch, nch, &w, &m1, &a1)) != 0)
		goto out;
	kv_whatif_prepend(&w, fs.notes, fs.nnotes);
	fs.nnotes = 0;
	fixed = xcalloc(fs.napplied + 1, sizeof(*fixed));
	for (size_t i = 0; i < fs.napplied; i++) {
		kv_whatif_append(&w, kv_fix_proof(fs.applied[i], a1));
		fixed[i].g = fs.applied[i];
		fixed[i].left = kv_fix_left(fs.applied[i], a1);
	}
	{
		kv_strs skip = { w.nremoved, w.removed_nodes };
		kv_diff_notes notes = { w.notes, w.nnotes, w.restarts, NULL,
		    0, NULL, 0, m1->flavor->vocab, false, fixed,
		    fs.napplied };

		for (size_t i = 0; i < ids.n; i++)
			notes.fix_all |= strcmp(ids.v[i], "all") == 0;

		rc = finish(cmd, a0, a1, &skip, &notes, &o, ours);
	}
out:
	cli_progress_end();
	kv_whatif_free(&w);
	kv_fixset_free(&fs);
	free(fixed);
	cli_list_free(&ids);
	free(ch);
	cli_args_free(&o);
	kv_analysis_free(a1);
	kv_model_free(m1);
	kv_analysis_free(a0);
	kv_model_free(m0);
	return rc;
}

/* OLD or NEW as its manifest and its cluster uid say; the line "old:
 * PATH (context C, collected T, collector N V)". */
static void
input_of(const char *which, const char *path, const kv_model *m,
    kv_diff_input *in)
{
	const snap_manifest *f = &m->manifest;
	enum kv_uid_from from;

	in->which = which;
	in->path = path;
	in->context = f->context;
	in->created_at = f->created_at;
	in->collector_name = f->collector_name;
	in->collector_version = f->collector_version;
	in->cluster_uid = kv_cluster_uid(m, &from);
	in->uid_from = from == UID_NONE ? NULL : kv_uid_from_names[from];
	in->line = xasprintf("%s: %s (context %s, collected %s, collector "
	    "%s%s%s)", which, path, f->context ? f->context : "-",
	    f->created_at ? f->created_at : "-", f->collector_name ?
	    f->collector_name : "-", f->collector_version ? " " : "",
	    f->collector_version ? f->collector_version : "");
}

/* The warnings about the pair: other cluster, NEW older than OLD.  The
 * cluster is the uid both have (kv_cluster_uid_cmp) when they have one:
 * another uid says other cluster whatever the contexts (a kubeconfig's
 * own name for it), the same uid says one cluster; without one, another
 * context says other cluster.  Times compare as instants (an offset
 * counts), not as strings. */
static size_t
pair_warnings(const kv_model *a, const kv_model *b, char **w)
{
	const snap_manifest *x = &a->manifest, *y = &b->manifest;
	bool ctx = x->context && y->context &&
	    strcmp(x->context, y->context) != 0;
	char *uid = NULL;
	enum kv_uid_from from = kv_cluster_uid_cmp(a, b, &uid);
	int64_t tx, ty;
	size_t n = 0;

	if (uid != NULL && ctx)
		w[n++] = xasprintf("OLD and NEW are of different clusters "
		    "(context %s, context %s; %s): what differs is not a "
		    "change of one cluster", x->context, y->context, uid);
	else if (uid != NULL)
		w[n++] = xasprintf("OLD and NEW are of different clusters "
		    "(%s): what differs is not a change of one cluster", uid);
	else if (ctx && from == UID_NONE)
		w[n++] = xasprintf("OLD and NEW are of different clusters "
		    "(context %s, context %s): what differs is not a change of "
		    "one cluster", x->context, y->context);
	free(uid);
	if (kv_rfc3339_us(x->created_at, &tx) &&
	    kv_rfc3339_us(y->created_at, &ty) && ty < tx)
		w[n++] = xasprintf("NEW (collected %s) is older than OLD "
		    "(collected %s): the changes read backwards", y->created_at,
		    x->created_at);
	return n;
}

int
cmd_diff(const kv_cmd *cmd, int argc, char **argv)
{
	cli_args o;
	kv_model *m0 = NULL, *m1 = NULL;
	kv_analysis *a0 = NULL, *a1 = NULL;
	kv_diff_notes notes = { NULL, 0, 0, NULL, 0, NULL, 0, NULL, false,
	    NULL, 0 };
	kv_diff_input in[2] = {{0}};
	char *warn[2] = { NULL, NULL };
	bool ours;
	int rc;

	if ((rc = cli_parse(cmd, argc, argv, &o)) != 0)
		return rc;
	cli_load_quiet_warnings = true;
	if ((rc = report_usage(cmd, &o, &ours)) != 0 ||
	    (rc = cli_load(o.pos[0], o.quiet, &m0, &a0)) != 0 ||
	    (rc = cli_load(o.pos[1], o.quiet, &m1, &a1)) != 0)
		goto out;
	cli_warnings_pair(a0, o.pos[0], a1, o.pos[1]);
	input_of("old", o.pos[0], m0, &in[0]);
	input_of("new", o.pos[1], m1, &in[1]);
	notes.words = m1->flavor->vocab;
	notes.inputs = in;
	notes.ninputs = 2;
	notes.warnings = warn;
	notes.nwarnings = pair_warnings(m0, m1, warn);
	for (size_t i = 0; o.strict && i < notes.nwarnings; i++)
		rc = cli_error(cmd, "--strict: %s", warn[i]);
	if (rc != 0)
		goto out;
	rc = finish(cmd, a0, a1, NULL, &notes, &o, ours);
out:
	cli_progress_end();
	for (size_t i = 0; i < 2; i++) {
		free(in[i].line);
		free(warn[i]);
	}
	cli_args_free(&o);
	kv_analysis_free(a1);
	kv_model_free(m1);
	kv_analysis_free(a0);
	kv_model_free(m0);
	return rc;
}
