/*
 * fuzz_pipeline.c - libFuzzer harness for everything after the loader:
 * the input is written as a directory snapshot (fuzz.h, the format of
 * fuzz_load), loaded and analysed (groups and fixes included); then every
 * terminal view (check, groups, explain, models, pairs, check --drain,
 * plan) in each output format into /dev/null, the documents of -o prom
 * and -o sarif and the fleet index of the snapshot (fleet.json, .html,
 * history, text) into /dev/null, every report writer (HTML,
 * SVG figures, PDF on its own thread as `report` does, findings.json,
 * CSV, YAML) into a fresh directory, and a what-if: a second copy of the
 * snapshot, changed (which change: the input's length picks), analysed,
 * diffed against the first, viewed and reported with its Changes
 * section.  Every failure must be one clean line; the directories are
 * removed after each input.  To keep an input within a second or so, the
 * typeset writers (PDF, HTML, SVG) run on small snapshots only (TINY:
 * the seeds are small; the full samples are fuzz_load's).
 */
#define KV_FUZZ_SNAPSHOT
#include "fuzz.h"

#include "analyze/decide/drain.h"
#include "analyze/decide/groups.h"
#include "render/view.h"
#include "analyze/change/whatif.h"
#include "analyze/change/diff.h"
#include "analyze/fleet/fleet.h"
#include "render/fleet.h"

/* the largest snapshot (VMIs, nodes) the PDF, HTML and SVG writers see */
#define TINY 16

static FILE *null_out;

/* rm -rf dir (a directory of fuzz_dir()). */
static void
remove_dir(const char *dir)
{
	char *cmd = xasprintf("rm -rf '%s'", dir);

	if (system(cmd) != 0)
		abort();
	free(cmd);
}

/* A view's status: KV_OK, or one clean line. */
static void
viewed(int rc, const kv_err *err)
{
	if (rc != KV_OK)
		fuzz_check_msg(err);
}

/* check --drain of every node, and a plan of them two at a time. */
static void
drain_views(const kv_analysis *a, const kv_term *t)
{
	kv_bits nodes = {0};
	kv_drain *d;
	kv_plan p = {0};
	kv_err err = {0};
	size_t n = 0;
	double seconds[2] = {0, 0};

	kv_bits_init(&nodes, a->m->nnodes);
	kv_bits_fill(&nodes);
	d = kv_drain_nodes(a, &nodes, &n, seconds);
	viewed(kv_view_drain(a, d, n, seconds, 3600, ALLOW_NONE, t, &err),
	    &err);
	(void)kv_drain_fails(d, n, true);
	kv_drain_list_free(d, n);
	kv_plan_build(a, &nodes, 2, &p);
	viewed(kv_view_plan(a, &p, "role=worker", ALLOW_NONE, 3600, t,
	    &err), &err);
	(void)kv_plan_fails(&p, false);
	kv_plan_free(&p);
	kv_bits_free(&nodes);
}

/* Every terminal view in format fmt. */
static void
views(const kv_analysis *a, kv_outfmt fmt)
{
	kv_term t = { .f = null_out, .fmt = fmt,
		.color = fmt == KV_OUT_TEXT, .all = fmt == KV_OUT_WIDE,
		.width = fmt == KV_OUT_WIDE ? 200 : 80 };
	kv_bits pick = {0}, nodes = {0};
	kv_err err = {0};
	size_t bad = 0;

	kv_bits_init(&pick, a->nvmis);
	kv_bits_fill(&pick);
	kv_bits_init(&nodes, a->m->nnodes);
	kv_bits_fill(&nodes);
	viewed(kv_view_check(a, &pick, &t, &bad, &err), &err);
	viewed(kv_view_groups(a, &pick, &t, true, &err), &err);
	viewed(kv_view_groups(a, &pick, &t, false, &err), &err);
	for (size_t i = 0; i < a->nvmis && i < 4; i++)
		viewed(kv_view_explain(a, i, &t, &err), &err);
	viewed(kv_view_models(a, &nodes, &t, &err), &err);
	viewed(kv_view_pairs(a, &t, &err), &err);
	drain_views(a, &t);
	kv_bits_free(&nodes);
	kv_bits_free(&pick);
}

/* -o sarif, and the fleet index of a's snapshot (taken twice, so the
 * comparison runs) with -o prom, into /dev/null. */
static void
exports(const kv_analysis *a)
{
	kv_term t = { .f = null_out, .fmt = KV_OUT_TEXT, .width = 80 };
	kv_fleet fl;
	kv_err err = {0};

	viewed(kv_write_sarif(a, null_out, NULL, &err), &err);
	kv_fleet_init(&fl);
	kv_fleet_summarize(a, kv_fleet_add(&fl, "one"));
	kv_fleet_summarize(a, kv_fleet_add(&fl, "two"));
	kv_fleet_trim(&fl);
	kv_fleet_unreadable(kv_fleet_add(&fl, "bad"), "bad: unreadable");
	kv_fleet_build(&fl);
	viewed(kv_write_prom(NULL, null_out, &fl, &err), &err);
	viewed(kv_write_fleet_json(NULL, null_out, &fl, &err), &err);
	viewed(kv_write_fleet_html(NULL, null_out, &fl, &err), &err);
	viewed(kv_write_fleet_history(NULL, null_out, &fl, &err), &err);
	viewed(kv_view_fleet(&fl, &t, &err), &err);
	kv_fleet_free(&fl);
}

/* findings' VMIs, node sets, groups and drains as one YAML document (what
 * `-o yaml` writes). */
static int
write_yaml(const kv_analysis *a, FILE *f, void *arg, kv_err *err)
{
	json_t *doc = json_object(), *groups = json_array();
	json_t *drain = json_array();
	int rc;

	(void)arg;
	json_object_set_new(doc, "vmis", kv_json_vmis(a, NULL));
	json_object_set_new(doc, "nodeSets", kv_json_node_sets(a, NULL));
	for (size_t i = 0; i < a->ngroups; i++)
		json_array_append_new(groups, kv_json_group(a, i));
	json_object_set_new(doc, "groups", groups);
	json_object_set_new(doc, "drain", drain);
	for (size_t i = 0; i < a->ndrain && i < 4; i++)
		json_array_append_new(drain, kv_json_drain_at(a, i));
	rc = kv_doc_write(doc, KV_OUT_YAML, f, err);
	json_decref(doc);
	return rc;
}

/* Every file of `report` (with d: of what-if --report) into a new
 * directory, committed, then removed; the typeset ones when `typeset`. */
static void
report(const kv_analysis *a, const kv_report_diff *d, bool typeset)
{
	kv_report_opts ro = { .pdf_all = d == NULL, .diff = d };
	char *dir = xasprintf("%s/out", fuzz_dir());
	kv_output o;
	kv_err err = {0};
	int rc;

	if (mkdir(dir, 0755) != 0)
		abort();
	kv_output_init(&o, dir);
	rc = typeset ? kv_output_stage_bg(&o, "report.pdf", kv_write_pdf, a,
	    &ro, &err) : KV_OK;
	if (rc == KV_OK && d != NULL)
		rc = kv_output_stage(&o, "diff.json", kv_write_diff_json, a,
		    (void *)d, &err);
	if (rc == KV_OK)
		rc = kv_output_stage(&o, "findings.json", kv_write_findings,
		    a, NULL, &err);
	if (rc == KV_OK && typeset)
		rc = kv_output_stage(&o, "report.html", kv_write_html, a, &ro,
		    &err);
	if (rc == KV_OK && d == NULL && typeset)
		rc = kv_stage_svgs(&o, a, &err);
	if (rc == KV_OK && d == NULL)
		rc = kv_output_stage(&o, "vmis.csv", kv_write_vmis_csv, a,
		    NULL, &err);
	if (rc == KV_OK && d == NULL)
		rc = kv_output_stage(&o, "drain.csv", kv_write_drain_csv, a,
		    NULL, &err);
	if (rc == KV_OK && d == NULL)
		rc = kv_output_stage(&o, "findings.yaml", write_yaml, a, NULL,
		    &err);
	if (rc == KV_OK)
		rc = kv_output_join(&o, &err);
	if (rc == KV_OK)
		rc = kv_output_commit(&o, &err);
	else
		kv_output_abort(&o);
	if (rc != KV_OK)
		fuzz_check_msg(&err);
	remove_dir(dir);
	free(dir);
}

/* The changes of the what-if: the input's length picks one of four
 * sets, on the snapshot's first node and storage class. */
static size_t
changes(const kv_model *m, size_t size, kv_change *ch)
{
	const char *node = m->nnodes > 0 ? m->nodes[0].name : "nosuch";
	const char *sc = m->nscs > 0 ? m->scs[0].name : "nosuch";
	size_t n = 0;

	switch (size % 4) {
	case 0:
		ch[n++] = (kv_change){ .kind = CH_CORDON, .value = node,
			.count = 1 };
		ch[n++] = (kv_change){ .kind = CH_CPU_MODEL,
			.value = "Haswell-noTSX", .count = 1 };
		break;
	case 1:
		ch[n++] = (kv_change){ .kind = CH_REMOVE_NODE, .value = node,
			.count = 1 };
		ch[n++] = (kv_change){ .kind = CH_CLUSTER_CPU_MODEL,
			.value = "host-model", .count = 1 };
		break;
	case 2:
		ch[n++] = (kv_change){ .kind = CH_ADD_NODE_LIKE, .value = node,
			.count = 2 };
		ch[n++] = (kv_change){ .kind = CH_EVICTION,
			.value = "LiveMigrate", .count = 1 };
		break;
	default:
		ch[n++] = (kv_change){ .kind = CH_STORAGE_RWX, .value = sc,
			.count = 1 };
		ch[n++] = (kv_change){ .kind = CH_UNCORDON, .value = node,
			.count = 1 };
		break;
	}
	return n;
}

/* The what-if: the snapshot at path again, changed, analysed, compared
 * with a, viewed and reported. */
static void
whatif(const char *path, const kv_analysis *a, size_t size, bool typeset)
{
	kv_limits lim;
	kv_model *m = NULL;
	kv_analysis *b = NULL;
	kv_change ch[4];
	kv_whatif w = {0};
	kv_err err = {0};
	size_t n;

	fuzz_limits(&lim);
	if (kv_model_load(path, &lim, &m, &err) != KV_OK)
		abort();	/* it loaded a moment ago */
	n = changes(m, size, ch);
	if (kv_whatif_apply(m, ch, n, &w, &err) != KV_OK)
		fuzz_check_msg(&err);
	else if (kv_analyze(m, &b, &err) != KV_OK)
		fuzz_check_msg(&err);
	else {
		kv_strs skip = { w.nremoved, w.removed_nodes };
		kv_diff_notes notes = { .notes = w.notes, .nnotes = w.nnotes,
		    .restarts = w.restarts };
		kv_diff d;
		kv_report_diff rd = { &d, &notes, a };

		kv_diff_build(a, b, &skip, &d);
		for (int f = 0; f < KV_OUT_COUNT; f++) {
			kv_term t = { .f = null_out, .fmt = (kv_outfmt)f,
				.color = f == 0, .all = f == 1, .width = 80 };

			viewed(kv_view_diff(&d, &notes, &t, &err), &err);
		}
		report(b, &rd, typeset);
		kv_diff_free(&d);
		kv_analysis_free(b);
	}
	kv_whatif_free(&w);
	kv_model_free(m);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_write_snapshot(data, size);
	kv_limits lim;
	kv_model *m = NULL;
	kv_analysis *a = NULL;
	kv_err err = {0};
	bool tiny;

	if (null_out == NULL && (null_out = fopen("/dev/null", "w")) == NULL)
		abort();
	fuzz_limits(&lim);
	if (kv_model_load(path, &lim, &m, &err) != KV_OK) {
		fuzz_check_msg(&err);
		return 0;
	}
	if (kv_analyze(m, &a, &err) != KV_OK) {
		fuzz_check_msg(&err);
		kv_model_free(m);
		return 0;
	}
	tiny = m->nvmis <= TINY && m->nnodes <= TINY;
	for (int f = 0; f < KV_OUT_COUNT; f++)
		views(a, (kv_outfmt)f);
	exports(a);
	report(a, NULL, tiny);
	whatif(path, a, size, tiny);
	kv_analysis_free(a);
	kv_model_free(m);
	return 0;
}
