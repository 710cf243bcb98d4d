/*
 * yamlitems.c - YAML documents as jansson values (see yamlitems.h).
 *
 * A stack of open collections is built from libyaml's events; each node
 * is counted, so that an anchor knows how many nodes it holds and an alias
 * to it can be charged for them before it is copied.
 */
#include "analyze/read/yamlitems.h"

#include <errno.h>
#include <glib.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

typedef struct frame {
	json_t *v;		/* an object or an array */
	char *key;		/* objects: the key waiting for its value */
	char *anchor;		/* the collection's anchor, or NULL */
	size_t nodes_at;	/* nodes of the document when it opened */
} frame;

typedef struct anchor_rec {
	json_t *v;		/* NULL while the anchored node is open */
	size_t nodes;
} anchor_rec;

typedef struct builder {
	const char *file;
	const kv_limits *lim;
	kv_err *err;
	frame *stack;
	size_t depth, cap;
	size_t nodes;		/* of the document, aliases expanded */
	size_t alias_nodes;
	GHashTable *anchors;	/* name -> anchor_rec */
	json_t *root;
	size_t line;		/* of the event being handled */
	yaml_peek_fn peek;
	void *arg;
	char *api, *kind;	/* the document's, once read */
	bool discard;		/* not wanted: only count nesting */
	size_t ddepth;		/* nesting while discarding */
} builder;

static int
yerr(builder *b, const char *what, const char *name)
{
	return kv_seterr(b->err, "%s: line %zu: %s%s%s%s", b->file, b->line,
	    what, name ? " \"" : "", name ? name : "", name ? "\"" : "");
}

static void
anchor_free(gpointer p)
{
	anchor_rec *a = p;

	json_decref(a->v);
	free(a);
}

static bool
matches(const char *s, const char *const *set)
{
	for (; *set != NULL; set++)
		if (strcmp(s, *set) == 0)
			return true;
	return false;
}

/* YAML 1.2 core schema, for a plain scalar. */
static json_t *
resolve_plain(const char *s)
{
	static const char *const nulls[] = { "", "~", "null", "Null", "NULL",
		NULL };
	static const char *const trues[] = { "true", "True", "TRUE", NULL };
	static const char *const falses[] = { "false", "False", "FALSE", NULL };
	const char *p = s + (*s == '-' || *s == '+');
	char *end;

	if (matches(s, nulls))
		return json_null();
	if (matches(s, trues))
		return json_true();
	if (matches(s, falses))
		return json_false();
	if (*p >= '0' && *p <= '9') {
		long long n;
		double d;

		errno = 0;
		n = strtoll(s, &end, 10);
		if (*end == '\0' && errno == 0)
			return json_integer(n);
		if (strspn(p, "0123456789.eE+-") != strlen(p) ||
		    strchr(p, '.') == p)
			return json_string(s);
		d = strtod(s, &end);
		if (*end == '\0' && isfinite(d))
			return json_real(d);
	} else if (*p == '.' && p[1] >= '0' && p[1] <= '9') {
		double d = strtod(s, &end);

		if (*end == '\0' && isfinite(d))
			return json_real(d);
	}
	return json_string(s);
}

/* Give a finished node to its parent (or make it the root).  Takes v. */
static int
attach(builder *b, json_t *v, const char *anchor, size_t nodes_at)
{
	frame *f = b->depth > 0 ? &b->stack[b->depth - 1] : NULL;
	int rc = KV_OK;

	if (anchor != NULL) {
		anchor_rec *a = xcalloc(1, sizeof(*a));

		a->v = json_incref(v);
		a->nodes = b->nodes - nodes_at;
		g_hash_table_replace(b->anchors, xstrdup(anchor), a);
	}
	if (f == NULL) {
		b->root = v;
		return KV_OK;
	}
	if (json_is_array(f->v))
		return json_array_append_new(f->v, v) == 0 ? KV_OK :
		    yerr(b, "cannot hold this value", NULL);
	if (f->key == NULL) {
		json_decref(v);
		return yerr(b, "a mapping key that is not a scalar", NULL);
	}
	if (json_object_get(f->v, f->key) != NULL)
		rc = yerr(b, "duplicate key", f->key);
	else if (json_object_set_new(f->v, f->key, v) != 0)
		rc = yerr(b, "a key that is not valid UTF-8", NULL);
	else
		v = NULL;
	json_decref(v);
	free(f->key);
	f->key = NULL;
	return rc;
}

static int
on_scalar(builder *b, const yaml_event_t *ev)
{
	const char *text = (const char *)ev->data.scalar.value;
	size_t len = ev->data.scalar.length;
	frame *f = b->depth > 0 ? &b->stack[b->depth - 1] : NULL;
	json_t *v;

	if (len > b->lim->string_bytes)
		return yerr(b, "string longer than the limit "
		    "(KVSCOPE_MAX_STRING_BYTES)", NULL);
	if (memchr(text, '\0', len) != NULL)
		return yerr(b, "NUL character in a string", NULL);
	b->nodes++;
	if (f != NULL && json_is_object(f->v) && f->key == NULL) {
		/* said at the key's own line, not where its value ends */
		if (json_object_get(f->v, text) != NULL)
			return yerr(b, "duplicate key", text);
		f->key = xstrdup(text);
		return KV_OK;
	}
	if (b->depth == 1 && f != NULL && json_is_object(f->v)) {
		if (strcmp(f->key, "apiVersion") == 0 && b->api == NULL)
			b->api = xstrdup(text);
		else if (strcmp(f->key, "kind") == 0 && b->kind == NULL)
			b->kind = xstrdup(text);
	}
	v = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE ?
	    resolve_plain(text) : json_string(text);
	if (v == NULL)
		return yerr(b, "a string that is not valid UTF-8", NULL);
	return attach(b, v, (const char *)ev->data.scalar.anchor,
	    b->nodes - 1);
}

static int
on_open(builder *b, const yaml_event_t *ev, bool mapping)
{
	const yaml_char_t *anchor = mapping ? ev->data.mapping_start.anchor :
	    ev->data.sequence_start.anchor;
	frame *top = b->depth > 0 ? &b->stack[b->depth - 1] : NULL;
	frame *f;

	if (top != NULL && json_is_object(top->v) && top->key == NULL)
		return yerr(b, "a mapping key that is not a scalar", NULL);
	if (b->depth + 1 > b->lim->depth)
		return yerr(b, "nesting too deep (KVSCOPE_MAX_DEPTH)", NULL);
	KV_GROW(b->stack, b->cap, b->depth + 1);
	f = &b->stack[b->depth++];
	memset(f, 0, sizeof(*f));
	f->v = mapping ? json_object() : json_array();
	f->nodes_at = b->nodes++;
	if (anchor != NULL) {
		anchor_rec *a = xcalloc(1, sizeof(*a));

		f->anchor = xstrdup((const char *)anchor);
		g_hash_table_replace(b->anchors, xstrdup(f->anchor), a);
	}
	return KV_OK;
}

static int
on_close(builder *b)
{
	frame f = b->stack[--b->depth];
	int rc;

	if (f.key != NULL) {
		free(f.key);
		json_decref(f.v);
		free(f.anchor);
		return yerr(b, "a mapping key without a value", NULL);
	}
	rc = attach(b, f.v, f.anchor, f.nodes_at);
	free(f.anchor);
	return rc;
}

static int
on_alias(builder *b, const yaml_event_t *ev)
{
	const char *name = (const char *)ev->data.alias.anchor;
	anchor_rec *a = g_hash_table_lookup(b->anchors, name);
	frame *f = b->depth > 0 ? &b->stack[b->depth - 1] : NULL;

	if (a == NULL)
		return yerr(b, "alias to an unknown anchor", name);
	if (a->v == NULL)
		return yerr(b, "alias inside its own anchor", name);
	if (f != NULL && json_is_object(f->v) && f->key == NULL)
		return yerr(b, "an alias as a mapping key", name);
	b->alias_nodes += a->nodes;
	b->nodes += a->nodes;
	if (b->alias_nodes > b->lim->alias_nodes)
		return yerr(b, "aliases expand to more than the limit of "
		    "nodes (KVSCOPE_MAX_ALIAS_NODES)", NULL);
	return attach(b, json_deep_copy(a->v), NULL, 0);
}

static void reset_document(builder *b);

/* Both apiVersion and kind read: is the document wanted? */
static void
maybe_discard(builder *b)
{
	size_t depth = b->depth;

	if (b->peek == NULL || b->discard || b->api == NULL ||
	    b->kind == NULL || b->peek(b->arg, b->api, b->kind))
		return;
	reset_document(b);
	b->discard = true;
	b->ddepth = depth;
}

/* An event of a document being dropped. */
static int
on_discarded(builder *b, const yaml_event_t *ev)
{
	switch (ev->type) {
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		if (++b->ddepth > b->lim->depth)
			return yerr(b, "nesting too deep (KVSCOPE_MAX_DEPTH)",
			    NULL);
		break;
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		b->ddepth--;
		break;
	case YAML_SCALAR_EVENT:
		if (ev->data.scalar.length > b->lim->string_bytes)
			return yerr(b, "string longer than the limit "
			    "(KVSCOPE_MAX_STRING_BYTES)", NULL);
		break;
	default:
		break;
	}
	return KV_OK;
}

static void
reset_document(builder *b)
{
	while (b->depth > 0) {
		frame *f = &b->stack[--b->depth];

		json_decref(f->v);
		free(f->key);
		free(f->anchor);
	}
	json_decref(b->root);
	b->root = NULL;
	b->nodes = b->alias_nodes = 0;
	g_hash_table_remove_all(b->anchors);
	free(b->api);
	free(b->kind);
	b->api = b->kind = NULL;
	b->discard = false;
}

/* One event; *done at the end of the stream. */
static int
on_event(builder *b, const yaml_event_t *ev, size_t *ndocs, size_t *doc_line,
    yaml_doc_fn fn, void *arg)
{
	int rc = KV_OK;

	b->line = ev->start_mark.line + 1;
	if (b->discard && ev->type != YAML_DOCUMENT_END_EVENT &&
	    ev->type != YAML_STREAM_END_EVENT)
		return on_discarded(b, ev);
	switch (ev->type) {
	case YAML_DOCUMENT_START_EVENT:
		*doc_line = b->line;
		if (++*ndocs > b->lim->items)
			return yerr(b, "more documents than the limit "
			    "(KVSCOPE_MAX_ITEMS)", NULL);
		break;
	case YAML_DOCUMENT_END_EVENT:
		if (b->root != NULL)
			rc = fn(arg, b->root, *doc_line, b->err);
		reset_document(b);
		break;
	case YAML_SCALAR_EVENT:
		rc = on_scalar(b, ev);
		maybe_discard(b);
		return rc;
	case YAML_SEQUENCE_START_EVENT:
		return on_open(b, ev, false);
	case YAML_MAPPING_START_EVENT:
		return on_open(b, ev, true);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		return on_close(b);
	case YAML_ALIAS_EVENT:
		return on_alias(b, ev);
	default:
		break;
	}
	return rc;
}

int
yaml_documents(const char *file, const char *text, size_t len,
    const kv_limits *lim, yaml_doc_fn fn, yaml_peek_fn peek, void *arg,
    kv_err *err)
{
	builder b = { .file = file, .lim = lim, .err = err, .peek = peek,
	    .arg = arg };
	yaml_parser_t p;
	size_t ndocs = 0, doc_line = 1;
	int rc = KV_OK;

	if (!yaml_parser_initialize(&p))
		kv_fatal("out of memory (libyaml)");
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	b.anchors = g_hash_table_new_full(g_str_hash, g_str_equal, free,
	    anchor_free);
	for (;;) {
		yaml_event_t ev;

		if (!yaml_parser_parse(&p, &ev)) {
			rc = kv_seterr(err,
			    "%s: line %zu: not valid YAML: %s%s%s",
			    file, p.problem_mark.line + 1,
			    p.problem ? p.problem : "error",
			    p.context ? " " : "", p.context ? p.context : "");
			break;
		}
		rc = on_event(&b, &ev, &ndocs, &doc_line, fn, arg);
		if (ev.type == YAML_STREAM_END_EVENT || rc != KV_OK) {
			yaml_event_delete(&ev);
			break;
		}
		yaml_event_delete(&ev);
	}
	reset_document(&b);
	free(b.stack);
	g_hash_table_destroy(b.anchors);
	yaml_parser_delete(&p);
	return rc;
}

/* --- the line of a field ------------------------------------------------ */

typedef struct pframe {
	bool map, want_key;
	char *key;
	size_t key_line;
	size_t idx;
} pframe;

typedef struct pathfind {
	const char *want;	/* "items[3].metadata.labels" */
	pframe *st;
	size_t depth, cap;
	size_t best;		/* line of the deepest prefix met */
	bool found;
} pathfind;

/* A node starts at line: is it the field, or on the way to it? */
static void
pf_node(pathfind *pf, size_t line)
{
	kv_buf path = {0};
	size_t n;

	for (size_t i = 0; i < pf->depth; i++) {
		const pframe *f = &pf->st[i];

		if (f->map)
			kv_buf_printf(&path, "%s%s", path.len ? "." : "",
			    f->key ? f->key : "");
		else
			kv_buf_printf(&path, "[%zu]", f->idx);
	}
	n = path.len;
	if (pf->depth > 0 && pf->st[pf->depth - 1].map)
		line = pf->st[pf->depth - 1].key_line;
	if (n == 0 || (strncmp(pf->want, path.data, n) == 0 &&
	    (pf->want[n] == '\0' || pf->want[n] == '.' ||
	    pf->want[n] == '['))) {
		pf->best = line;
		pf->found = pf->want[n] == '\0';
	}
	kv_buf_free(&path);
}

/* A value ended: the parent moves to its next key or item. */
static void
pf_next(pathfind *pf)
{
	pframe *f = pf->depth > 0 ? &pf->st[pf->depth - 1] : NULL;

	if (f == NULL)
		return;
	if (f->map) {
		free(f->key);
		f->key = NULL;
		f->want_key = true;
	} else
		f->idx++;
}

/* One event of the document; false once the field is found. */
static bool
pf_event(pathfind *pf, const yaml_event_t *ev)
{
	size_t line = ev->start_mark.line + 1;
	pframe *top = pf->depth > 0 ? &pf->st[pf->depth - 1] : NULL;

	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		if (top != NULL && top->map && top->want_key) {
			top->key = xstrdup((const char *)
			    ev->data.scalar.value);
			top->key_line = line;
			top->want_key = false;
			return true;
		}
		/* fall through */
	case YAML_ALIAS_EVENT:
		pf_node(pf, line);
		pf_next(pf);
		break;
	case YAML_MAPPING_START_EVENT:
	case YAML_SEQUENCE_START_EVENT:
		pf_node(pf, line);
		KV_GROW(pf->st, pf->cap, pf->depth + 1);
		top = &pf->st[pf->depth++];
		memset(top, 0, sizeof(*top));
		top->map = ev->type == YAML_MAPPING_START_EVENT;
		top->want_key = top->map;
		break;
	case YAML_MAPPING_END_EVENT:
	case YAML_SEQUENCE_END_EVENT:
		if (pf->depth > 0)
			free(pf->st[--pf->depth].key);
		pf_next(pf);
		break;
	default:
		break;
	}
	return !pf->found;
}

size_t
yaml_field_line(const char *text, size_t len, size_t doc_line,
    const char *field)
{
	pathfind pf = { .want = field };
	yaml_parser_t p;
	bool in_doc = false, more = true;

	if (!yaml_parser_initialize(&p))
		kv_fatal("out of memory (libyaml)");
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	while (more) {
		yaml_event_t ev;

		if (!yaml_parser_parse(&p, &ev))
			break;
		if (ev.type == YAML_DOCUMENT_START_EVENT)
			in_doc = ev.start_mark.line + 1 == doc_line;
		else if (in_doc && ev.type == YAML_DOCUMENT_END_EVENT)
			more = false;
		else if (in_doc)
			more = pf_event(&pf, &ev);
		if (ev.type == YAML_STREAM_END_EVENT)
			more = false;
		yaml_event_delete(&ev);
	}
	while (pf.depth > 0)
		free(pf.st[--pf.depth].key);
	free(pf.st);
	yaml_parser_delete(&p);
	return pf.best;
}
