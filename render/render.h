/*
 * render.h - the writers: findings.json, HTML, SVG figures, PDF, and the
 * terminal views of the CLI.  Every writer draws only from a kv_analysis.
 *
 * Files are written atomically: kv_output_write() creates a temporary file
 * in the output directory, lets the writer fill it, and renames it into
 * place only when the writer succeeded and the data reached the disk; on
 * any failure nothing is left behind.
 */
#ifndef KV_RENDER_H
#define KV_RENDER_H

#include <jansson.h>
#include <stdio.h>
#include <sys/types.h>

#include "analyze/rules/analysis.h"
#include "analyze/util/bitset.h"

typedef int (*kv_writer_fn)(const kv_analysis *a, FILE *f, void *arg,
    kv_err *err);

/* A set of output files written together: each is staged under a
 * temporary name, and all are renamed into place by kv_output_commit()
 * only when every writer succeeded; kv_output_abort() removes them. */
typedef struct kv_output_job kv_output_job;
typedef struct kv_output {
	char *dir;
	size_t n, cap;
	char **tmp, **dst;
	char **old;		/* the replaced file, moved aside, or NULL */
	kv_output_job *jobs;	/* writers still running (stage_bg) */
	int stop;		/* a write failed: every writer's bytes are
				 * dropped from now on (__atomic) */
} kv_output;

void kv_output_init(kv_output *o, const char *dir);
/* Write dir/name through fn under a temporary name.  Errors name the
 * file. */
int kv_output_stage(kv_output *o, const char *name, kv_writer_fn fn,
    const kv_analysis *a, void *arg, kv_err *err);
/* The same on a thread of its own, while the caller stages the others:
 * the file takes its place in the set now; fn must only read a and arg,
 * which must live until kv_output_join() (commit and abort join first).
 * The join gives the first error of the writers that ran in the
 * background. */
int kv_output_stage_bg(kv_output *o, const char *name, kv_writer_fn fn,
    const kv_analysis *a, void *arg, kv_err *err);
int kv_output_join(kv_output *o, kv_err *err);
/* All or nothing for the set: the files it replaces are moved aside
 * first; when any rename fails, what was renamed into place is removed
 * and the old files are restored, and the error names the file. */
int kv_output_commit(kv_output *o, kv_err *err);
/* rename(2) by default; a test replaces it to make one rename fail. */
extern int (*kv_output_rename)(const char *from, const char *to);
/* Every write of a staged file (write(2); a test makes it fail). */
extern ssize_t (*kv_output_write)(int fd, const void *buf, size_t len);
void kv_output_abort(kv_output *o);

/* findings.json (docs/findings.md), byte-for-byte
 * deterministic. */
int kv_write_findings(const kv_analysis *a, FILE *f, void *arg,
    kv_err *err);

/* check -o sarif (sarif.c, docs/sarif.md): SARIF 2.1.0 of the running
 * VMIs of arg (a const kv_bits *; NULL: all), one result per VMI and
 * code. */
int kv_write_sarif(const kv_analysis *a, FILE *f, void *arg, kv_err *err);

/* The CSV exports (csv.c): vmis.csv, one row per VMI, and drain.csv,
 * one row per VMI of a node in the drain plan; RFC 4180, CRLF, UTF-8,
 * formula-looking cells prefixed with an apostrophe. */
int kv_write_vmis_csv(const kv_analysis *a, FILE *f, void *arg,
    kv_err *err);
int kv_write_drain_csv(const kv_analysis *a, FILE *f, void *arg,
    kv_err *err);

/* The objects findings.json is made of, one at a time, for the CLI's
 * -o json|yaml (the caller owns the json_t): the VMIs set in pick (NULL:
 * all) as the "vmis" array, one cpuClasses, hostModelPairs or
 * namedModels.models element. */
json_t *kv_json_vmis(const kv_analysis *a, const kv_bits *pick);
/* The top-level warnings [{code, message}] (analysis.h kv_warning) of
 * findings.json and of every -o json|yaml document. */
json_t *kv_json_warnings(const kv_analysis *a);
/* The "nodeSets" array the VMIs in pick refer to (ids N1.. local to that
 * document): put it beside kv_json_vmis()'s array so it stands alone. */
json_t *kv_json_node_sets(const kv_analysis *a, const kv_bits *pick);
json_t *kv_json_cpu_class(const kv_analysis *a, size_t i);
json_t *kv_json_host_model_pair(const kv_analysis *a, size_t i);
json_t *kv_json_named_model(const kv_analysis *a, size_t i);
/* findings_config.c: the "config" section (docs/findings.md). */
json_t *kv_json_config(const kv_analysis *a);
/* findings_drain.c: one drain entry (d, or a->drain[i]) and the summary's
 * drainShutdown and drainBlock, added to summary. */
json_t *kv_json_drain(const kv_analysis *a, const kv_drain *d);
/* findings_window.c: the migration estimate (estimate.h): [low, high]
 * as whole numbers, a VMI's "migration" (null when it would not
 * migrate), the top-level "window", a drain's time against --window
 * (window: seconds, 0 none). */
json_t *kv_json_range(const double r[2]);
json_t *kv_json_migration(const kv_analysis *a, size_t i);
json_t *kv_json_window(const kv_analysis *a);
json_t *kv_json_window_drain(const kv_analysis *a, const kv_drain *d,
    size_t n, const double secs[2], double window);
json_t *kv_json_drain_at(const kv_analysis *a, size_t i);
void kv_json_drain_summary(const kv_analysis *a, json_t *summary);
/* findings_groups.c: one "groups" element, and a VMI's "groups" as
 * compact JSON text (caller frees). */
json_t *kv_json_group(const kv_analysis *a, size_t i);
/* The groups (kv_json_group objects, in id order) that a VMI of pick
 * refers to: the document answers without findings.json. */
json_t *kv_json_groups_of(const kv_analysis *a, const kv_bits *pick);
char *kv_json_vmi_groups(const kv_analysis *a, size_t i);
/* A group what-if --fix applied, and how many of its VMIs are in no
 * group of its code after (kv_fix_left, analyze/change/fixapply.h). */
typedef struct kv_fixed {
	const struct kv_group *g;
	size_t left;
} kv_fixed;
/* what-if's "fixes": per group applied its id, code, vmis, fixes (the
 * snapshot after) and proof (fix.fixes, fix.worse, fix.proven). */
json_t *kv_json_fixed(const kv_fixed *f, size_t n);

/* The report of a what-if or a diff (what-if|diff --report DIR): the
 * report of the snapshot after the changes (of NEW) opens with a section
 * on what changed.  Everything is borrowed: the diff (analyze/change/diff.h,
 * computed by the caller), the what-if's notes (view.h; notes->notes
 * NULL: a diff of two snapshots) and the analysis before (its date). */
struct kv_diff;
struct kv_diff_notes;
typedef struct kv_report_diff {
	const struct kv_diff *d;
	const struct kv_diff_notes *notes;
	const kv_analysis *before;
} kv_report_diff;

/* The arg of kv_write_html and kv_write_pdf: NULL is a plain report
 * (every field zero). */
typedef struct kv_report_opts {
	bool pdf_all;			/* --pdf-detail all: every VMI and
					 * node in the PDF */
	const kv_report_diff *diff;	/* NULL: no Changes section */
} kv_report_opts;

/* The self-contained HTML report (html.c); arg: a kv_report_opts or
 * NULL. */
int kv_write_html(const kv_analysis *a, FILE *f, void *arg, kv_err *err);
/* The typeset PDF report (pdf.c); cairo writes through f.  arg: a
 * kv_report_opts or NULL. */
int kv_write_pdf(const kv_analysis *a, FILE *f, void *arg, kv_err *err);
/* diff.json (view_diff.c): the document what-if and diff print with
 * -o json, byte for byte; arg: the kv_report_diff (a is unused). */
int kv_write_diff_json(const kv_analysis *a, FILE *f, void *arg,
    kv_err *err);
/* Every standalone SVG figure (svg.c), staged into o. */
int kv_stage_svgs(kv_output *o, const kv_analysis *a, kv_err *err);

/* How a group's fix was checked (format.c), for every writer beside
 * the fix text: " (proven: fixes 3 of 4)", with ", 1 worse" when it
 * makes VMIs worse; " (not proven)" when kvscope cannot write the
 * change (the text says why); "" for none.  Caller frees. */
struct kv_group;
char *kv_fix_badge(const struct kv_group *g);

/* The flavor's word for a thing (vocab.c): "VirtualMachine" for a DVP
 * cluster where KubeVirt says "VMI", and so on. */
enum kv_word {
	KV_WORD_VM, KV_WORD_VMS, KV_WORD_CONDITION, KV_WORD_MIGRATION,
	KV_WORD_POLICY, KV_WORD_CPU, KV_WORD_CONFIG, KV_WORD_DEFAULTS,
	KV_WORD_PRODUCT, KV_WORD_COUNT
};
const char *kv_word(const kv_analysis *a, enum kv_word w);
/* Who acts when a node is drained, in the words of the snapshot's
 * version (PodDisruptionBudgets up to v1.5, versions.c). */
const char *kv_drain_by(const kv_analysis *a);
/* A rule's title and remediation in the flavor's terms. */
void kv_rule_text(const kv_analysis *a, const kv_rule *r, const char **title,
    const char **remediation);

/* Terminal text: s with control characters replaced, so a hostile name
 * cannot move the cursor or forge lines. */
void kv_term_puts(FILE *f, const char *s);

#endif
