/*
 * foreign.c - must-gathers, support bundles and plain kubectl output read
 * as a virtual snapshot (see foreign.h).
 */
#include "analyze/read/foreign.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analyze/model/flavor.h"
#include "analyze/read/container.h"
#include "analyze/read/jsonitems.h"
#include "analyze/read/mgtime.h"
#include "analyze/read/redact.h"
#include "analyze/read/resrows.h"
#include "analyze/read/yamlitems.h"

/* The rows of resources.def: what a kind may become. */
static const struct row {
	const char *plural, *group, *need;
} rows[] = {
#define KV_RESOURCE(plural, group, scope, prefix, rank, loader, need) \
	{ plural, group, #need },
#include "analyze/read/resources.def"
#undef KV_RESOURCE
};
#define NROWS (sizeof(rows) / sizeof(rows[0]))

#define STAMP_BYTES 4096	/* a timestamp file: a few lines */

typedef struct record {
	size_t row;
	char *src;		/* the file it came from, "<file> line N" */
	char *ns, *name;
	char *text;		/* compact JSON */
	size_t len;
	size_t yfile;		/* YAML: 1 + index in ytext, else 0 */
	size_t doc_line;	/* YAML: the line its document starts on */
	long item;		/* its index in a List's items, or -1 */
} record;

struct foreign_input {
	const char *path;
	const kv_limits *lim;
	bool redact;
	snap_input kind;
	GHashTable *seen;	/* uid or row/ns/name -> NULL */
	record *recs;
	size_t nrecs, cap;
	size_t count[NROWS];
	size_t dups, files, skipped_files;
	size_t objects;		/* with apiVersion and kind, of any kind */
	bool lone;		/* the input is one plain file */
	char *newest;		/* newest creationTimestamp */
	char *captured;		/* newest line of the timestamp files */
	json_t *redactions;	/* field -> count */
	kv_buf member[NROWS];
	char *paths[NROWS];	/* member names, NULL when empty */
	size_t first[NROWS];	/* index of the row's first record */
	/* the file being read, and the line of the YAML document */
	char *cur;
	size_t cur_line;
	long cur_item;		/* index in the List's items, or -1 */
	size_t cur_nrecs;	/* records before the file */
	/* the YAML files objects were kept from, for the line of a field
	 * in an error (field_source()) */
	kv_buf *ytext;
	char **yname;
	size_t nyaml, ycap;
	bool cur_yaml, cur_skip;
	bool cur_sniff;		/* lone, no known suffix: not yet told */
	bool cur_guessed;	/* lone, no known suffix: told as YAML */
	bool cur_stamp;		/* a must-gather's timestamp file */
	kv_buf cur_text;
	json_items *cur_json;
	/* files skipped (not --strict): per row the first one's "PATH:
	 * why" and how many; those of no known row, one line each */
	char *skip_why[NROWS];
	size_t nskip[NROWS];
	char **skip_other;
	size_t nskip_other;
	char *first_skip;	/* the first one's error, "INPUT: FILE: why" */
};

static const char *
sget(json_t *o, const char *a, const char *b)
{
	json_t *v = json_object_get(o, a);

	if (b != NULL)
		v = json_object_get(v, b);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* One object of a kind kvscope may read: keep it once. */
static void
keep(foreign_input *fi, size_t row, json_t *o)
{
	const char *uid = sget(o, "metadata", "uid");
	const char *ns = sget(o, "metadata", "namespace");
	const char *name = sget(o, "metadata", "name");
	const char *ts = sget(o, "metadata", "creationTimestamp");
	char *key = uid ? xstrdup(uid) : xasprintf("%zu/%s/%s", row,
	    ns ? ns : "", name ? name : "");
	record *r;

	if (!g_hash_table_add(fi->seen, key)) {	/* had it: one key kept */
		fi->dups++;
		return;
	}
	if (ts != NULL && (fi->newest == NULL || strcmp(ts, fi->newest) > 0)) {
		free(fi->newest);
		fi->newest = xstrdup(ts);
	}
	/* A tree from the item scanner lives in its parse arena: redaction
	 * edits a copy of it made here. */
	if (fi->redact) {
		o = json_deep_copy(o);
		kv_redact_object(o, rows[row].plural, rows[row].group,
		    fi->redactions);
	}
	r = KV_PUSH(fi->recs, fi->nrecs, fi->cap);
	r->row = row;
	r->src = fi->cur_yaml ? xasprintf("%s line %zu", fi->cur,
	    fi->cur_line) : xstrdup(fi->cur);
	r->ns = xstrdup(ns ? ns : "");
	r->name = xstrdup(name ? name : "");
	r->yfile = fi->cur_yaml ? fi->nyaml + 1 : 0;
	r->doc_line = fi->cur_line;
	r->item = fi->cur_item;
	r->text = json_dumps(o, JSON_COMPACT);
	if (r->text == NULL)
		kv_fatal("out of memory (JSON)");
	r->len = strlen(r->text);
	fi->count[row]++;
	if (fi->redact)
		json_decref(o);
}

static void
one_object(foreign_input *fi, json_t *o, const char *api, const char *kind)
{
	int row;

	if (api == NULL || kind == NULL ||
	    (row = kv_resrow_of_kind(api, kind)) < 0)
		return;		/* not a kind kvscope reads */
	keep(fi, (size_t)row, o);
}

/* An object, a List or a <Kind>List. */
static int
object_cb(void *arg, json_t *o, const json_aside *aside, size_t index,
    kv_err *err)
{
	foreign_input *fi = arg;
	const char *api = sget(o, "apiVersion", NULL);
	const char *kind = sget(o, "kind", NULL);
	json_t *items = json_object_get(o, "items");
	size_t n, i;
	json_t *it;

	if (!json_is_object(o))
		return KV_OK;
	if (api != NULL && kind != NULL)
		fi->objects++;
	fi->cur_item = -1;
	if (kind == NULL || !json_is_array(items) || (n = strlen(kind)) < 4 ||
	    strcmp(kind + n - 4, "List") != 0) {
		one_object(fi, o, api, kind);
		return KV_OK;
	}
	json_array_foreach(items, i, it) {
		char *k;

		fi->cur_item = (long)i;
		if (!json_is_object(it))
			continue;
		if (sget(it, "kind", NULL) != NULL || n == 4) {
			one_object(fi, it, sget(it, "apiVersion", NULL) ?
			    sget(it, "apiVersion", NULL) : api,
			    sget(it, "kind", NULL));
			continue;
		}
		/* typed lists may leave kind and apiVersion to the list */
		k = xstrndup(kind, n - 4);
		one_object(fi, it, sget(it, "apiVersion", NULL) ?
		    sget(it, "apiVersion", NULL) : api, k);
		free(k);
	}
	return KV_OK;
}

/* Worth building: a kind kvscope reads, or a list of anything. */
static bool
yaml_peek(void *arg, const char *api, const char *kind)
{
	size_t n = strlen(kind);
	bool want = (n >= 4 && strcmp(kind + n - 4, "List") == 0) ||
	    kv_resrow_of_kind(api, kind) >= 0;

	if (!want)
		((foreign_input *)arg)->objects++;
	return want;
}

static int
yaml_cb(void *arg, json_t *doc, size_t line, kv_err *err)
{
	((foreign_input *)arg)->cur_line = line;
	return object_cb(arg, doc, NULL, line, err);
}

/* --- the files of the input --------------------------------------------- */

static int
f_begin(void *arg, const char *path, uint64_t declared, kv_err *err)
{
	foreign_input *fi = arg;

	fi->cur = xstrdup(path);
	fi->cur_yaml = kv_path_ends_with(path, ".yaml") ||
	    kv_path_ends_with(path, ".yml");
	fi->cur_skip = !fi->cur_yaml && !kv_path_ends_with(path, ".json") &&
	    !kv_path_ends_with(path, ".jsonl");
	/* one file given alone is read whatever its name: told by its
	 * first bytes (sniff()) */
	fi->cur_sniff = fi->lone && fi->cur_skip;
	fi->cur_guessed = fi->cur_stamp = false;
	fi->cur_nrecs = fi->nrecs;
	if (fi->cur_sniff)
		fi->cur_skip = false;
	fi->cur_text.len = 0;
	if (kv_path_has_component(path, "cluster-scoped-resources") ||
	    (kv_path_has_component(path, "namespaces") &&
	    fi->kind == SNAP_INPUT_PLAIN))
		fi->kind = kv_path_has_component(path, "yamls") ?
		    SNAP_INPUT_SUPPORT_BUNDLE : SNAP_INPUT_MUST_GATHER;
	else if (kv_path_has_component(path, "yamls"))
		fi->kind = SNAP_INPUT_SUPPORT_BUNDLE;
	if (fi->cur_skip) {
		fi->skipped_files++;
		fi->cur_stamp = !fi->lone && (strcmp(path, "timestamp") == 0 ||
		    kv_path_ends_with(path, "/timestamp"));
		fi->cur_skip = !fi->cur_stamp;
		return KV_OK;
	}
	fi->files++;
	if (fi->cur_yaml && declared > fi->lim->yaml_bytes)
		return kv_seterr(err, "%s: %s: larger than %llu bytes "
		    "(KVSCOPE_MAX_YAML_BYTES)", fi->path, path,
		    (unsigned long long)fi->lim->yaml_bytes);
	if (!fi->cur_yaml && !fi->cur_sniff) {
		/* objects are kept (and converted) whole */
		fi->cur_json = json_items_new(fi->cur, fi->lim, object_cb, fi);
		json_items_keep_all(fi->cur_json);
	}
	return KV_OK;
}

static int
prefixed(foreign_input *fi, kv_err *err)
{
	char *tmp = xasprintf("%s: %s", fi->path, err->msg);

	snprintf(err->msg, sizeof(err->msg), "%s", tmp);
	free(tmp);
	return KV_ERR;
}

/* A file whose content cannot be parsed: without --strict (and unless a
 * limit refused it, or it is the whole input) it is skipped and its row,
 * told by its path (resrows.h), counts as partial (foreign_manifest).
 * The objects it gave before the error stay. */
static int
skip_or_fail(foreign_input *fi, kv_err *err)
{
	const char *why = err->msg;
	size_t n = strlen(fi->cur);
	int row;

	if (fi->lim->strict || fi->lone || kv_err_is_limit(err))
		return prefixed(fi, err);
	if (fi->first_skip == NULL)	/* said if nothing else is read */
		fi->first_skip = xasprintf("%s: %s", fi->path, err->msg);
	if (strncmp(why, fi->cur, n) == 0 && strncmp(why + n, ": ", 2) == 0)
		why += n + 2;
	row = kv_resrow_of_path(fi->cur);
	if (row < 0) {
		fi->skip_other = xreallocarray(fi->skip_other,
		    fi->nskip_other + 1, sizeof(char *));
		fi->skip_other[fi->nskip_other++] = xasprintf("%s skipped: "
		    "%s; which resource it holds is unknown: its objects are "
		    "not in the analysis", fi->cur, why);
	} else if (fi->nskip[row]++ == 0)
		fi->skip_why[row] = xasprintf("%s skipped: %s", fi->cur, why);
	fi->cur_skip = true;
	json_items_free(fi->cur_json);
	fi->cur_json = NULL;
	kv_clearerr(err);
	return KV_OK;
}

/* The first bytes of a lone file without a known suffix, until one is
 * not blank: "{" is JSON, anything else YAML; a NUL byte is neither. */
static int
sniff(foreign_input *fi, const char *buf, size_t len, kv_err *err)
{
	size_t i, start = 0;
	const char *t;

	if (memchr(buf, '\0', len) != NULL) {
		fi->cur_sniff = false;
		fi->cur_skip = true;
		return KV_OK;
	}
	kv_buf_append(&fi->cur_text, buf, len);
	t = fi->cur_text.data;
	if (fi->cur_text.len >= 3 && memcmp(t, "\xef\xbb\xbf", 3) == 0)
		start = 3;
	for (i = start; i < fi->cur_text.len && strchr(" \t\r\n", t[i]);
	    i++)
		;
	if (i == fi->cur_text.len)
		return KV_OK;	/* blank so far */
	fi->cur_sniff = false;
	if (t[i] != '{') {
		fi->cur_yaml = fi->cur_guessed = true;
		return KV_OK;
	}
	fi->cur_json = json_items_new(fi->cur, fi->lim, object_cb, fi);
	json_items_keep_all(fi->cur_json);
	i = fi->cur_text.len - start;
	fi->cur_text.len = 0;	/* the bytes stay where they are */
	return json_items_feed(fi->cur_json, t + start, i, err);
}

static int
f_data(void *arg, const char *buf, size_t len, kv_err *err)
{
	foreign_input *fi = arg;

	if (fi->cur_skip)
		return KV_OK;
	if (fi->cur_stamp) {
		if (fi->cur_text.len + len > STAMP_BYTES)
			fi->cur_skip = true;	/* not oc's */
		else
			kv_buf_append(&fi->cur_text, buf, len);
		return KV_OK;
	}
	if (fi->cur_sniff && fi->cur_text.len + len <= fi->lim->yaml_bytes)
		return sniff(fi, buf, len, err) == KV_OK ? KV_OK :
		    prefixed(fi, err);
	if (fi->cur_json != NULL)
		return json_items_feed(fi->cur_json, buf, len, err) == KV_OK ?
		    KV_OK : skip_or_fail(fi, err);
	if (fi->cur_text.len + len > fi->lim->yaml_bytes)
		return kv_seterr(err, "%s: %s: larger than %llu bytes "
		    "(KVSCOPE_MAX_YAML_BYTES)", fi->path, fi->cur,
		    (unsigned long long)fi->lim->yaml_bytes);
	kv_buf_append(&fi->cur_text, buf, len);
	return KV_OK;
}

/* kv_walk_ops.settle: the JSON items read so far, failed as by f_data() */
static int
f_settle(void *arg, kv_err *err)
{
	foreign_input *fi = arg;

	return fi->cur_json == NULL || fi->cur_skip ||
	    json_items_settle(fi->cur_json, err) == KV_OK ? KV_OK :
	    skip_or_fail(fi, err);
}

static void
f_abort(void *arg)
{
	foreign_input *fi = arg;

	json_items_free(fi->cur_json);
	fi->cur_json = NULL;
	free(fi->cur);
	fi->cur = NULL;
}

/* The newest line of a must-gather's timestamp files (mgtime.h). */
static void
stamp_lines(foreign_input *fi, const char *t, size_t len)
{
	char *copy = xstrndup(t, len), *save = NULL, *line, *utc;

	for (line = strtok_r(copy, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if ((utc = kv_go_time_utc(line)) == NULL)
			continue;
		if (fi->captured == NULL || strcmp(utc, fi->captured) > 0) {
			free(fi->captured);
			fi->captured = utc;
		} else
			free(utc);
	}
	free(copy);
}

static void
f_lone(void *arg)
{
	((foreign_input *)arg)->lone = true;
}

static int
f_end(void *arg, kv_err *err)
{
	foreign_input *fi = arg;
	const char *t = fi->cur_text.data ? fi->cur_text.data : "";
	int rc = KV_OK;

	if (fi->cur_stamp && !fi->cur_skip)
		stamp_lines(fi, t, fi->cur_text.len);
	else if (fi->cur_skip || fi->cur_sniff)
		;
	else if (fi->cur_json != NULL) {
		if (json_items_finish(fi->cur_json, err) != KV_OK)
			rc = skip_or_fail(fi, err);
	} else if (yaml_documents(fi->cur, t, fi->cur_text.len, fi->lim,
	    yaml_cb, yaml_peek, fi, err) != KV_OK) {
		/* a text that is not kubectl's is said as such, not as the
		 * YAML parser's complaint about it */
		if (fi->cur_guessed && !kv_looks_kubectl(t, fi->cur_text.len))
			rc = kv_seterr(err, "%s: %s", fi->path,
			    KV_NOT_AN_INPUT);
		else
			rc = skip_or_fail(fi, err);
	}
	if (rc == KV_OK && fi->cur_yaml && fi->nrecs > fi->cur_nrecs) {
		/* kept for field_source() */
		KV_GROW(fi->ytext, fi->ycap, fi->nyaml + 1);
		fi->yname = xreallocarray(fi->yname, fi->ycap,
		    sizeof(char *));
		fi->ytext[fi->nyaml] = fi->cur_text;
		fi->yname[fi->nyaml++] = xstrdup(fi->cur);
		memset(&fi->cur_text, 0, sizeof(fi->cur_text));
	}
	f_abort(fi);
	return rc;
}

/* --- the virtual snapshot ----------------------------------------------- */

static int
rec_cmp(const void *a, const void *b)
{
	const record *x = a, *y = b;
	int c;

	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	if ((c = strcmp(x->ns, y->ns)) != 0)
		return c;
	return strcmp(x->name, y->name);
}

static void
build_members(foreign_input *fi)
{
	kv_qsort(fi->recs, fi->nrecs, sizeof(record), rec_cmp);
	for (size_t i = fi->nrecs; i > 0; i--)
		fi->first[fi->recs[i - 1].row] = i - 1;
	for (size_t i = 0; i < NROWS; i++)
		if (fi->count[i] > 0)
			fi->paths[i] = xasprintf("resources/%s%s%s.json",
			    rows[i].plural, rows[i].group[0] ? "." : "",
			    rows[i].group);
	for (size_t i = 0; i < fi->nrecs; i++) {
		record *r = &fi->recs[i];

		kv_buf_append(&fi->member[r->row], r->text, r->len);
		kv_buf_append(&fi->member[r->row], "\n", 1);
		free(r->text);
		r->text = NULL;
	}
}

int
foreign_load(const char *path, const kv_limits *lim, bool redact,
    foreign_input **out, kv_err *err)
{
	foreign_input *fi = xcalloc(1, sizeof(*fi));
	kv_walk_ops ops = { f_begin, f_data, f_end, f_abort, f_lone,
	    f_settle };
	int rc;

	*out = NULL;
	fi->path = path;
	fi->lim = lim;
	fi->redact = redact;
	fi->kind = SNAP_INPUT_PLAIN;
	fi->seen = g_hash_table_new_full(g_str_hash, g_str_equal, free, NULL);
	fi->redactions = json_object();
	rc = kv_walk(path, lim, false, &ops, fi, err);
	if (rc == KV_OK && fi->nrecs == 0 && fi->first_skip != NULL)
		rc = kv_seterr(err, "%s", fi->first_skip);
	else if (rc == KV_OK && fi->nrecs == 0 && fi->lone &&
	    fi->objects == 0)
		rc = kv_seterr(err, "%s: %s", path, KV_NOT_AN_INPUT);
	else if (rc == KV_OK && fi->nrecs == 0)
		rc = kv_seterr(err, "%s: no manifest.json in the snapshot, and "
		    "no Kubernetes object kvscope reads in its %zu JSON and "
		    "YAML file%s", path, fi->files, fi->files == 1 ? "" : "s");
	if (rc != KV_OK) {
		foreign_free(fi);
		return rc;
	}
	build_members(fi);
	*out = fi;
	return KV_OK;
}

size_t
foreign_nmembers(const foreign_input *fi)
{
	return NROWS;
}

const char *
foreign_member_path(const foreign_input *fi, size_t i)
{
	return fi->paths[i];
}

const kv_buf *
foreign_member_data(const foreign_input *fi, size_t i)
{
	return &fi->member[i];
}

json_t *
foreign_redactions(const foreign_input *fi)
{
	json_t *arr = json_array();
	const char *k;
	json_t *v;

	json_object_foreach(fi->redactions, k, v)
		json_array_append_new(arr, json_pack("{s:s,s:O}", "field", k,
		    "count", v));
	return arr;
}

void
foreign_free(foreign_input *fi)
{
	if (fi == NULL)
		return;
	f_abort(fi);
	for (size_t i = 0; i < fi->nrecs; i++) {
		free(fi->recs[i].src);
		free(fi->recs[i].ns);
		free(fi->recs[i].name);
		free(fi->recs[i].text);
	}
	free(fi->recs);
	for (size_t i = 0; i < NROWS; i++) {
		kv_buf_free(&fi->member[i]);
		free(fi->paths[i]);
	}
	kv_buf_free(&fi->cur_text);
	for (size_t i = 0; i < fi->nyaml; i++) {
		kv_buf_free(&fi->ytext[i]);
		free(fi->yname[i]);
	}
	free(fi->ytext);
	free(fi->yname);
	for (size_t i = 0; i < NROWS; i++)
		free(fi->skip_why[i]);
	for (size_t i = 0; i < fi->nskip_other; i++)
		free(fi->skip_other[i]);
	free(fi->skip_other);
	free(fi->first_skip);
	g_hash_table_destroy(fi->seen);
	json_decref(fi->redactions);
	free(fi->newest);
	free(fi->captured);
	free(fi);
}

/* --- the synthesized manifest ------------------------------------------- */

static const char *const input_words[SNAP_INPUT_COUNT] = {
	[SNAP_INPUT_SNAPSHOT] = "a kvscope snapshot",
	[SNAP_INPUT_MUST_GATHER] = "a must-gather",
	[SNAP_INPUT_SUPPORT_BUNDLE] = "a support bundle",
	[SNAP_INPUT_PLAIN] = "plain kubectl output",
};

/* The flavor whose own API groups the input holds objects of (DVP's),
 * unless it holds KubeVirt's VMIs (*kv_vmis set): plain KubeVirt. */
static const kv_flavor *
flavor_of(const foreign_input *fi, bool *kv_vmis)
{
	const kv_flavor *own = NULL;

	for (size_t i = 0; i < NROWS; i++) {
		if (fi->count[i] == 0)
			continue;
		for (size_t f = 0; f < KV_NFLAVORS; f++)
			if (kv_flavor_owns_group(kv_flavors[f], rows[i].group))
				own = kv_flavors[f];
		*kv_vmis |= strcmp(rows[i].plural, "virtualmachineinstances") ==
		    0 && strcmp(rows[i].group, "kubevirt.io") == 0;
	}
	return own != NULL && !*kv_vmis ? own : &kv_flavor_kubevirt;
}

char *
foreign_summary(const foreign_input *fi)
{
	return xasprintf("%zu objects kept from %zu JSON and YAML files (%zu "
	    "other files not read), %zu seen twice", fi->nrecs, fi->files,
	    fi->skipped_files, fi->dups);
}

/* Whether a row not found in a foreign input of flavor f is missing
 * from the input, not absent from the API: a needed one (ALWAYS, or f's
 * name), a row of a group every cluster (core, storage.k8s.io) or f
 * serves, KubeVirt's VMs beside its VMIs (`kubectl get vmis` alone). */
static bool
lacking_row(size_t i, const kv_flavor *f, bool kv_vmis)
{
	return strcmp(rows[i].need, "ALWAYS") == 0 ||
	    (kv_vmis && strcmp(rows[i].plural, "virtualmachines") == 0 &&
	    strcmp(rows[i].group, "kubevirt.io") == 0) ||
	    (f->served_group != NULL &&
	    strcmp(rows[i].group, f->served_group) == 0) ||
	    strcasecmp(rows[i].need, f->name) == 0 ||
	    *rows[i].group == '\0' ||
	    strcmp(rows[i].group, "storage.k8s.io") == 0;
}

void
foreign_manifest(const foreign_input *fi, snap_manifest *m)
{
	bool kv_vmis = false;
	const kv_flavor *flavor = flavor_of(fi, &kv_vmis);
	char *summary = foreign_summary(fi);

	memset(m, 0, sizeof(*m));
	m->input = fi->kind;
	m->integrity_checked = false;
	m->nforeign_dups = fi->dups;
	m->format_version = 1;
	m->time_source = fi->captured ? SNAP_TIME_CAPTURED : fi->newest ?
	    SNAP_TIME_NEWEST_OBJECT : SNAP_TIME_UNKNOWN;
	m->created_at = xstrdup(fi->captured ? fi->captured : fi->newest ?
	    fi->newest : "1970-01-01T00:00:00Z");
	m->flavor = xstrdup(flavor->name);
	m->resources = xcalloc(NROWS, sizeof(*m->resources));
	for (size_t i = 0; i < NROWS; i++) {
		snap_resource *r = &m->resources[m->nresources++];

		r->resource = xstrdup(rows[i].plural);
		r->group = xstrdup(rows[i].group);
		r->file = fi->paths[i] ? xstrdup(fi->paths[i]) : NULL;
		r->status = xstrdup(fi->nskip[i] > 0 ? "partial" :
		    fi->count[i] > 0 ? "ok" : lacking_row(i, flavor, kv_vmis) ?
		    "missing" : "absent");
		if (fi->nskip[i] > 0)
			r->message = fi->nskip[i] == 1 ? xasprintf("partial: "
			    "%s", fi->skip_why[i]) : xasprintf("partial: %s; "
			    "%zu files skipped in all", fi->skip_why[i],
			    fi->nskip[i]);
		r->count = (long long)fi->count[i];
	}
	m->notes = xcalloc(2 + fi->nskip_other, sizeof(char *));
	for (size_t i = 0; i < fi->nskip_other; i++)
		m->notes[m->nnotes++] = xstrdup(fi->skip_other[i]);
	m->notes[m->nnotes++] = xasprintf("input: %s, not a kvscope "
	    "snapshot; no manifest, so no integrity check; %s",
	    input_words[fi->kind], summary);
	if (m->time_source != SNAP_TIME_CAPTURED)
		m->notes[m->nnotes++] = snap_time_unknown(m);
	free(summary);
}

/* Where a loader's complaint about a YAML object points: rest is what
 * follows "item N" (" (ns/name): spec.x[0].y: what"); the line of that
 * field in the file, else of the object's document. */
static char *
field_source(const foreign_input *fi, const record *r, const char *rest)
{
	const char *p = rest, *q;
	char *field, *path;
	size_t line = 0;

	if (r->yfile == 0)
		return xstrdup(r->src);
	if (strncmp(p, " (", 2) == 0 && (q = strstr(p, "): ")) != NULL)
		p = q + 3;
	else if (strncmp(p, ": ", 2) == 0)
		p += 2;
	if ((q = strstr(p, ": ")) == NULL || memchr(p, ' ', q - p) != NULL)
		return xstrdup(r->src);
	field = xstrndup(p, (size_t)(q - p));
	path = r->item >= 0 ? xasprintf("items[%ld].%s", r->item, field) :
	    xstrdup(field);
	line = yaml_field_line(fi->ytext[r->yfile - 1].data ?
	    fi->ytext[r->yfile - 1].data : "", fi->ytext[r->yfile - 1].len,
	    r->doc_line, path);
	free(field);
	free(path);
	return line > 0 ? xasprintf("%s line %zu", fi->yname[r->yfile - 1],
	    line) : xstrdup(r->src);
}

/* "resources/pods.json: item 4 (...)..." from the loader names the file
 * and line the object came from instead. */
static void
name_source(const foreign_input *fi, size_t row, const char *input,
    kv_err *err)
{
	const char *p = err->msg + strlen(fi->paths[row]);
	unsigned long idx;
	char *end, *tmp;

	if (strncmp(p, ": item ", 7) != 0 ||
	    (idx = strtoul(p + 7, &end, 10), end == p + 7) ||
	    idx >= fi->count[row]) {
		tmp = xasprintf("%s: %s", input, err->msg);
	} else {
		char *src = field_source(fi, &fi->recs[fi->first[row] + idx],
		    end);

		tmp = xasprintf("%s: %s: %s%s", input, src, rows[row].plural,
		    end);
		free(src);
	}
	snprintf(err->msg, sizeof(err->msg), "%s", tmp);
	free(tmp);
}

static int
feed_member(const foreign_input *fi, size_t i, const snap_sink *sink,
    const char *input, kv_err *err)
{
	kv_err e = {0};
	void *st = sink->begin(sink->arg, fi->paths[i],
	    (uint64_t)fi->member[i].len, &e);

	if (e.set)
		goto fail;
	if (st == NULL)
		return KV_OK;
	if (sink->data(st, fi->member[i].data, fi->member[i].len, &e) !=
	    KV_OK) {
		if (sink->abort != NULL)
			sink->abort(st);
		goto fail;
	}
	if (sink->end(st, &e) == KV_OK)
		return KV_OK;
fail:
	*err = e;
	if (kv_startswith(err->msg, fi->paths[i]))
		name_source(fi, i, input, err);
	else {
		char *tmp = xasprintf("%s: %s", input, e.msg);

		snprintf(err->msg, sizeof(err->msg), "%s", tmp);
		free(tmp);
	}
	err->set = true;
	return KV_ERR;
}

int
foreign_read(const char *path, const kv_limits *lim, const snap_sink *sink,
    snap_manifest *m, kv_err *err)
{
	foreign_input *fi;
	int rc;

	memset(m, 0, sizeof(*m));
	if (foreign_load(path, lim, false, &fi, err) != KV_OK)
		return KV_ERR;
	foreign_manifest(fi, m);
	rc = KV_OK;
	for (size_t i = 0; i < NROWS && rc == KV_OK; i++)
		if (fi->paths[i] != NULL)
			rc = feed_member(fi, i, sink, path, err);
	foreign_free(fi);
	if (rc != KV_OK)
		snap_manifest_free(m);
	return rc;
}
