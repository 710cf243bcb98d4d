/*
 * findings_vmis.c - the "nodeSets" and "vmis" sections of findings.json
 * (findings.c says why they are not built as a jansson tree): a small
 * emitter writes their structure into a large buffer and lets jansson
 * escape every string; kv_json_vmis() and kv_json_node_sets() give the
 * same text as jansson values for the -o json|yaml views (the caller owns
 * them).
 */
#include <glib.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/json/findings_vmis.h"
#include "render/json/nodesets.h"
#include "render/render.h"

#define DUMP_FLAGS (JSON_COMPACT | JSON_PRESERVE_ORDER)

/* --- the vmis emitter --------------------------------------------------- */

typedef struct emitter {
	FILE *f;			/* NULL: buf grows (a helper's) */
	char *buf;
	size_t len, cap;
	bool failed;
	json_t *scratch;		/* the string em_str() encodes */
	const kv_nodesets *sets;	/* what cpuTargets/targets refer to */
	size_t nnames;
	char **names;			/* node i as an escaped JSON string */
	size_t *name_len;
	bool borrowed;			/* names are another emitter's */
	GHashTable *escaped;		/* em_istr(): address -> esc_text */
	GHashTable *lists;		/* em_selectors(): array -> esc_text */
} emitter;

/* The JSON text of a string that em_istr() has escaped before. */
typedef struct esc_text {
	size_t len;
	char text[];
} esc_text;

static void
em_flush(emitter *e)
{
	if (e->f == NULL)
		return;
	if (e->len > 0 && fwrite(e->buf, 1, e->len, e->f) != e->len)
		e->failed = true;
	e->len = 0;
}

static inline void
em_put(emitter *e, const char *p, size_t n)
{
	if (e->cap - e->len < n && e->f == NULL) {
		e->cap = e->cap * 2 > e->len + n ? e->cap * 2 : e->len + n;
		e->buf = xreallocarray(e->buf, e->cap, 1);
	} else if (e->cap - e->len < n) {
		em_flush(e);
		if (n > e->cap) {
			if (fwrite(p, 1, n, e->f) != n)
				e->failed = true;
			return;
		}
	}
	memcpy(e->buf + e->len, p, n);
	e->len += n;
}

#define em_lit(e, s) em_put((e), (s), sizeof(s) - 1)

static int
em_cb(const char *buf, size_t size, void *data)
{
	em_put(data, buf, size);
	return 0;
}

/* A JSON string, escaped by jansson itself (one reusable string value, so
 * the bytes are exactly what json_dumpf writes for the other sections). */
static void
em_str(emitter *e, const char *s)
{
	if (json_string_set(e->scratch, s) != 0 ||
	    json_dump_callback(e->scratch, em_cb, e,
	    DUMP_FLAGS | JSON_ENCODE_ANY) != 0)
		e->failed = true;
}

/* em_str() of a string that stays at its address, with the same bytes,
 * until the emitter is closed (interned in the model's strings, or
 * static): escaped once, then copied. */
static void
em_istr(emitter *e, const char *s)
{
	esc_text *t = g_hash_table_lookup(e->escaped, s);
	size_t start;

	if (t != NULL) {
		em_put(e, t->text, t->len);
		return;
	}
	if (s == NULL || strlen(s) > 512) {	/* escaped: under 4 KiB */
		em_str(e, s);
		return;
	}
	if (e->cap - e->len < 4096)
		em_flush(e);
	start = e->len;
	em_str(e, s);
	t = xmalloc(sizeof(*t) + (e->len - start));
	t->len = e->len - start;
	memcpy(t->text, e->buf + start, t->len);
	g_hash_table_insert(e->escaped, (gpointer)s, t);
}

/* A VMI's targetSelectors object.  Identical lists share one array
 * (target.c sel_share), so the text of each array is made once, into
 * memory, then copied: most VMIs of a cluster carry one of a few lists of
 * tens of CPU labels. */
static void
em_selectors(emitter *e, const kv_labels *sel)
{
	esc_text *t;
	emitter tmp;

	if (sel->n == 0) {
		em_lit(e, "{}");
		return;
	}
	if ((t = g_hash_table_lookup(e->lists, sel->v)) != NULL) {
		em_put(e, t->text, t->len);
		return;
	}
	tmp = *e;			/* e's tables and string value */
	tmp.f = NULL;
	tmp.buf = NULL;
	tmp.len = tmp.cap = 0;
	em_lit(&tmp, "{");
	for (size_t k = 0; k < sel->n; k++) {
		if (k)
			em_lit(&tmp, ",");
		/* interned in the model's strings (target.c) */
		em_istr(&tmp, sel->v[k].key);
		em_lit(&tmp, ":");
		em_istr(&tmp, sel->v[k].value);
	}
	em_lit(&tmp, "}");
	e->failed |= tmp.failed;
	t = xmalloc(sizeof(*t) + tmp.len);
	t->len = tmp.len;
	memcpy(t->text, tmp.buf, tmp.len);
	free(tmp.buf);
	g_hash_table_insert(e->lists, (gpointer)sel->v, t);
	em_put(e, t->text, t->len);
}

static void
em_str_or_null(emitter *e, const char *s)
{
	if (s != NULL)
		em_str(e, s);
	else
		em_lit(e, "null");
}

static void
em_int(emitter *e, int64_t v)
{
	char num[24];
	int n = snprintf(num, sizeof(num), "%" JSON_INTEGER_FORMAT,
	    (json_int_t)v);

	em_put(e, num, (size_t)n);
}

static void
em_bool(emitter *e, bool b)
{
	if (b)
		em_lit(e, "true");
	else
		em_lit(e, "false");
}

/* JSON text made by jansson elsewhere (freed). */
static void
em_raw(emitter *e, char *json)
{
	em_put(e, json, strlen(json));
	free(json);
}

/* A jansson value (taken over), dumped straight into the buffer. */
static void
em_json(emitter *e, json_t *v)
{
	if (json_dump_callback(v, em_cb, e, DUMP_FLAGS | JSON_ENCODE_ANY) != 0)
		e->failed = true;
	json_decref(v);
}

static void
em_issues(emitter *e, const kv_issue *is, size_t n)
{
	em_lit(e, "[");
	for (size_t i = 0; i < n; i++) {
		if (i)
			em_lit(e, ",");
		em_lit(e, "{\"code\":");
		em_istr(e, is[i].rule->code);
		em_lit(e, ",\"message\":");
		/* one copy per text, in the analysis' messages (rule_emit):
		 * most VMIs of a cluster share theirs */
		em_istr(e, is[i].message);
		em_lit(e, "}");
	}
	em_lit(e, "]");
}

/* A set reference: {"set": "N3", "minus": [...]} (findings.md
 * "nodeSets"). */
static void
em_setref(emitter *e, const kv_nodeset *s)
{
	char id[32];
	int n = snprintf(id, sizeof(id), "\"N%zu\"",
	    kv_nodesets_id(e->sets, s->base) + 1);

	em_lit(e, "{\"set\":");
	em_put(e, id, (size_t)n);
	em_lit(e, ",\"minus\":[");
	for (size_t i = 0; i < s->nexcl; i++) {
		if (i)
			em_lit(e, ",");
		em_put(e, e->names[s->excl[i]], e->name_len[s->excl[i]]);
	}
	em_lit(e, "]}");
}

static void
em_targets(emitter *e, const kv_vmires *r)
{
	bool refers = kv_nodesets_refers(r);

	em_lit(e, ",\"cpuTargets\":");
	if (refers)
		em_setref(e, &r->cpu_targets);
	else
		em_lit(e, "null");
	em_lit(e, ",\"targets\":");
	if (refers)
		em_setref(e, &r->targets);
	else
		em_lit(e, "null");
	em_lit(e, ",\"cpuTargetCount\":");
	em_int(e, refers ? (int64_t)r->ncpu_targets : 0);
	em_lit(e, ",\"targetCount\":");
	em_int(e, refers ? (int64_t)r->ntargets : 0);
}

/* "nodeSets" elements: {"id": "N1", "nodes": [...]}, one per line when
 * lines is set. */
static void
em_sets(emitter *e, bool lines)
{
	for (size_t i = 0; i < e->sets->n; i++) {
		char id[32];
		int n = snprintf(id, sizeof(id), "\"N%zu\"", i + 1);
		bool first = true;

		if (lines && i)
			em_lit(e, ",\n");
		else if (lines)
			em_lit(e, "\n");
		else if (i)
			em_lit(e, ",");
		em_lit(e, "{\"id\":");
		em_put(e, id, (size_t)n);
		em_lit(e, ",\"nodes\":[");
		KV_BITS_FOREACH(e->sets->sets[i], k) {
			if (!first)
				em_lit(e, ",");
			first = false;
			em_put(e, e->names[k], e->name_len[k]);
		}
		em_lit(e, "]}");
	}
}

/* One VMI, fields in findings.md order (as the jansson writer of the
 * other sections would lay them out). */
/* ,"checks":[...]: the codes of the checks skipped for want of n */
static void
em_skipped(emitter *e, const kv_analysis *a, const kv_vmires *r,
    enum kv_need n)
{
	bool first = true;

	em_lit(e, ",\"checks\":[");
	for (size_t i = 0; i < kv_nrules; i++) {
		if (!(kv_rule_lacks(a, r, &kv_rules[i]) & KV_NEED_BIT(n)))
			continue;
		if (!first)
			em_lit(e, ",");
		em_istr(e, kv_rules[i].code);
		first = false;
	}
	em_lit(e, "]");
}

/* The resources r lacked: [{"resource": ..., "message": ...,
 * "checks": [...]}] (findings.md). */
static void
em_lacks(emitter *e, const kv_analysis *a, const kv_vmires *r)
{
	bool first = true;

	em_lit(e, "[");
	for (int n = 0; n < NEED_COUNT; n++) {
		if (!(r->not_judged & KV_NEED_BIT(n)))
			continue;
		if (!first)
			em_lit(e, ",");
		em_lit(e, "{\"resource\":");
		em_istr(e, kv_need_rows[n].resource);
		em_lit(e, ",\"message\":");
		em_str(e, a->lack_msg[n]);
		em_skipped(e, a, r, n);
		em_lit(e, "}");
		first = false;
	}
	em_lit(e, "]");
}

/* ,"notJudged":[...],"unchecked":[...]: what the input lacked goes into
 * notJudged for a not-judged VMI ([] otherwise, as findings.md says),
 * into unchecked for a VMI a check that ran judged anyway. */
static void
em_not_judged(emitter *e, const kv_analysis *a, const kv_vmires *r)
{
	bool nj = r->verdict == V_NOT_JUDGED;

	em_lit(e, ",\"notJudged\":");
	if (nj)
		em_lacks(e, a, r);
	else
		em_lit(e, "[]");
	em_lit(e, ",\"unchecked\":");
	if (!nj)
		em_lacks(e, a, r);
	else
		em_lit(e, "[]");
}

static void
em_vmi(emitter *e, const kv_analysis *a, size_t i)
{
	const kv_vmires *r = &a->vmis[i];
	const kv_vmi *v = r->vmi;

	em_lit(e, "{\"name\":");
	em_str(e, v->fullname);
	em_lit(e, ",\"phase\":");
	em_str(e, v->phase);
	em_lit(e, ",\"node\":");
	em_str_or_null(e, v->node);
	em_lit(e, ",\"cpu\":{\"mode\":");
	em_istr(e, kv_mode_names[r->mode]);
	em_lit(e, ",\"model\":");
	em_str(e, r->model);
	em_lit(e, "},\"condition\":{\"status\":");
	em_str(e, r->cond == 'T' ? "True" : r->cond == 'F' ? "False" :
	    "absent");
	em_lit(e, ",\"reason\":");
	em_str(e, r->cond_reason ? r->cond_reason : "");
	em_lit(e, "},\"verdict\":");
	em_istr(e, kv_verdict_names[r->verdict]);
	em_lit(e, ",\"blockers\":");
	em_issues(e, r->blockers, r->nblockers);
	em_lit(e, ",\"warnings\":");
	em_issues(e, r->warnings, r->nwarnings);
	em_lit(e, ",\"conditionMismatch\":");
	em_bool(e, r->mismatch);
	em_lit(e, ",\"targetSelectors\":");
	em_selectors(e, &r->selectors);
	em_targets(e, r);
	em_lit(e, ",\"groups\":");
	em_raw(e, kv_json_vmi_groups(a, i));
	em_lit(e, ",\"outcome\":{\"kind\":");
	em_istr(e, kv_outcome_names[r->outcome]);
	em_lit(e, ",\"afterSeconds\":");
	if (r->after >= 0)
		em_int(e, r->after);
	else
		em_lit(e, "null");
	em_lit(e, "},\"migrationMethod\":");
	em_str(e, r->method);
	em_lit(e, ",\"completionTimeoutSeconds\":");
	if (r->completion_timeout >= 0)
		em_int(e, r->completion_timeout);
	else	/* the VMI states no memory */
		em_lit(e, "null");
	em_lit(e, ",\"evictionStrategy\":");
	em_str(e, r->eviction);
	em_lit(e, ",\"onDrain\":");
	em_str_or_null(e, kv_on_drain_names[r->on_drain]);
	em_lit(e, ",\"restarts\":");
	if (r->restarts < 0)
		em_lit(e, "null");
	else if (r->restarts)
		em_lit(e, "true");
	else
		em_lit(e, "false");
	em_lit(e, ",\"restartWhy\":");
	if (r->on_drain == DRAIN_SHUTDOWN && r->restart_why != NULL)
		em_str(e, r->restart_why);
	else
		em_lit(e, "null");
	em_lit(e, ",\"migration\":");
	em_json(e, kv_json_migration(a, i));
	em_not_judged(e, a, r);
	em_lit(e, "}");
}

static void em_open(emitter *e, FILE *f, const kv_model *m);
static void em_borrow(emitter *e, const emitter *from);
static int em_close(emitter *e);

/* --- the VMIs in blocks, two at once ------------------------------------ */

/*
 * The VMIs go in blocks of VMI_BLOCK.  With a second core a helper thread
 * formats every second block into memory (an emitter of its own, the node
 * names and sets borrowed: em_vmi() only reads the analysis), at most two
 * blocks ahead; the writer formats the others itself and writes the
 * helper's in between, so the bytes are those one emitter would write.
 */
#define VMI_BLOCK 256

typedef struct helper {
	pthread_t th;
	const kv_analysis *a;
	emitter e;			/* f NULL */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	kv_buf slot[2];			/* block 2k+1 in slot[k % 2] */
	bool full[2];
} helper;

static void
em_block(emitter *e, const kv_analysis *a, size_t b)
{
	size_t end = (b + 1) * VMI_BLOCK < a->nvmis ? (b + 1) * VMI_BLOCK :
	    a->nvmis;

	for (size_t i = b * VMI_BLOCK; i < end; i++) {
		if (i)
			em_lit(e, ",\n");
		else
			em_lit(e, "\n");
		em_vmi(e, a, i);
	}
}

static void *
help(void *arg)
{
	helper *h = arg;
	size_t nblocks = (h->a->nvmis + VMI_BLOCK - 1) / VMI_BLOCK;

	for (size_t b = 1; b < nblocks; b += 2) {
		kv_buf *out = &h->slot[b / 2 % 2], was;

		/* the writer takes every block: a full slot empties */
		pthread_mutex_lock(&h->mu);
		while (h->full[b / 2 % 2])
			pthread_cond_wait(&h->cv, &h->mu);
		pthread_mutex_unlock(&h->mu);
		h->e.len = 0;
		em_block(&h->e, h->a, b);
		/* the block's text to the slot, the slot's buffer back */
		was = *out;
		*out = (kv_buf){ h->e.buf, h->e.len, h->e.cap };
		h->e.cap = was.data != NULL ? was.cap : 1 << 20;
		h->e.buf = was.data != NULL ? was.data : xmalloc(h->e.cap);
		pthread_mutex_lock(&h->mu);
		h->full[b / 2 % 2] = true;
		pthread_cond_broadcast(&h->cv);
		pthread_mutex_unlock(&h->mu);
	}
	return NULL;
}

/* Block b (odd) from the helper, written after what e holds. */
static void
take(helper *h, emitter *e, size_t b)
{
	kv_buf *in = &h->slot[b / 2 % 2];

	pthread_mutex_lock(&h->mu);
	while (!h->full[b / 2 % 2])
		pthread_cond_wait(&h->cv, &h->mu);
	pthread_mutex_unlock(&h->mu);
	em_flush(e);
	if (in->len > 0 && fwrite(in->data, 1, in->len, e->f) != in->len)
		e->failed = true;
	pthread_mutex_lock(&h->mu);
	h->full[b / 2 % 2] = false;
	pthread_cond_broadcast(&h->cv);
	pthread_mutex_unlock(&h->mu);
}

/* Every VMI, with a helper when there are two blocks and two cores. */
static void
em_vmis(emitter *e, const kv_analysis *a)
{
	size_t nblocks = (a->nvmis + VMI_BLOCK - 1) / VMI_BLOCK;
	helper h = { .a = a };
	bool two = nblocks >= 2 && kv_threads() > 1, helped = false;

	if (two) {
		em_borrow(&h.e, e);
		pthread_mutex_init(&h.mu, NULL);
		pthread_cond_init(&h.cv, NULL);
		helped = pthread_create(&h.th, NULL, help, &h) == 0;
	}
	for (size_t b = 0; b < nblocks; b++) {
		if (helped && b % 2 == 1)
			take(&h, e, b);
		else
			em_block(e, a, b);
	}
	if (!two)
		return;
	if (helped)
		pthread_join(h.th, NULL);
	if (em_close(&h.e) != KV_OK)
		e->failed = true;
	for (int k = 0; k < 2; k++)
		free(h.slot[k].data);
	pthread_cond_destroy(&h.cv);
	pthread_mutex_destroy(&h.mu);
}

/* "nodeSets" and "vmis": [ one element per line ], as put_list() writes
 * them. */
int
kv_json_put_vmis(FILE *f, const kv_analysis *a)
{
	emitter e;
	int rc;

	em_open(&e, f, a->m);
	e.sets = kv_nodesets_build(a, NULL);
	em_lit(&e, "\"nodeSets\": [");
	em_sets(&e, true);
	if (e.sets->n)
		em_lit(&e, "\n],\n");
	else
		em_lit(&e, "],\n");
	em_lit(&e, "\"vmis\": [");
	em_vmis(&e, a);
	if (a->nvmis)
		em_lit(&e, "\n],\n");
	else
		em_lit(&e, "],\n");
	kv_nodesets_free((kv_nodesets *)e.sets);
	rc = em_close(&e);
	return rc;
}

/* What every emitter holds of its own: its buffer, the string value
 * em_str() escapes with, em_istr()'s and em_selectors()' texts. */
static void
em_init(emitter *e, FILE *f)
{
	memset(e, 0, sizeof(*e));
	e->f = f;
	e->cap = 1 << 20;
	e->buf = xmalloc(e->cap);
	e->scratch = json_string("");
	e->escaped = g_hash_table_new_full(g_direct_hash, g_direct_equal,
	    NULL, free);
	e->lists = g_hash_table_new_full(g_direct_hash, g_direct_equal,
	    NULL, free);
}

static void
em_open(emitter *e, FILE *f, const kv_model *m)
{
	em_init(e, f);
	e->nnames = m->nnodes;
	e->names = xcalloc(m->nnodes + 1, sizeof(char *));
	e->name_len = xcalloc(m->nnodes + 1, sizeof(size_t));
	for (size_t n = 0; n < m->nnodes; n++) {
		size_t start = e->len;

		/* escape each name once, through the emitter itself */
		em_str(e, m->nodes[n].name);
		e->names[n] = xmalloc(e->len - start);
		memcpy(e->names[n], e->buf + start, e->len - start);
		e->name_len[n] = e->len - start;
		e->len = start;
	}
}

/* An emitter into memory (f NULL) with from's node names and sets. */
static void
em_borrow(emitter *e, const emitter *from)
{
	em_init(e, NULL);
	e->sets = from->sets;
	e->nnames = from->nnames;
	e->names = from->names;
	e->name_len = from->name_len;
	e->borrowed = true;
}

static int
em_close(emitter *e)
{
	em_flush(e);
	for (size_t n = 0; !e->borrowed && n < e->nnames; n++)
		free(e->names[n]);
	if (!e->borrowed) {
		free(e->names);
		free(e->name_len);
	}
	free(e->buf);
	json_decref(e->scratch);
	g_hash_table_destroy(e->escaped);
	g_hash_table_destroy(e->lists);
	return e->failed ? KV_ERR : KV_OK;
}

/* The "vmis" array of the VMIs in pick, or (sets) the "nodeSets" they
 * refer to, as a jansson value. */
static json_t *
json_doc(const kv_analysis *a, const kv_bits *pick, bool sets)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_t *v = NULL;
	emitter e;
	bool first = true;

	if (f == NULL)
		kv_fatal("out of memory (a VMI document)");
	em_open(&e, f, a->m);
	e.sets = kv_nodesets_build(a, pick);
	em_lit(&e, "[");
	if (sets)
		em_sets(&e, false);
	for (size_t i = 0; !sets && i < a->nvmis; i++)
		if (pick == NULL || kv_bits_test(pick, i)) {
			if (!first)
				em_lit(&e, ",");
			first = false;
			em_vmi(&e, a, i);
		}
	em_lit(&e, "]");
	kv_nodesets_free((kv_nodesets *)e.sets);
	if (em_close(&e) == KV_OK && fclose(f) == 0)
		v = json_loadb(buf, len, 0, NULL);
	else
		fclose(f);
	free(buf);
	if (v == NULL)
		kv_fatal("out of memory (a VMI document)");
	return v;
}

json_t *
kv_json_vmis(const kv_analysis *a, const kv_bits *pick)
{
	return json_doc(a, pick, false);
}

json_t *
kv_json_node_sets(const kv_analysis *a, const kv_bits *pick)
{
	return json_doc(a, pick, true);
}
