/*
 * jget.c - see jget.h.
 */
#include "analyze/model/jget.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/read/quantity.h"

static const char *
jtype_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "a list";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
	case JSON_REAL:
		return "a number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "a boolean";
	default:
		return "null";
	}
}

static const char *
want_name(int type)
{
	switch (type) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "a list";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
		return "a whole number";
	case JSON_TRUE:
		return "true or false";
	default:
		return "a value";
	}
}

int
jerr(jctx *c, const char *path, const char *fmt, ...)
{
	char msg[512], what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (c->name != NULL)
		snprintf(what, sizeof(what), "item %zu (%s)", c->index,
		    c->name);
	else
		snprintf(what, sizeof(what), "item %zu", c->index);
	if (c->where_fmt != NULL && c->where_s != NULL)
		snprintf(c->where, sizeof(c->where), c->where_fmt, c->where_s,
		    c->where_i);
	else if (c->where_fmt != NULL)
		snprintf(c->where, sizeof(c->where), c->where_fmt, c->where_i);
	return kv_seterr(c->err, "%s: %s%s%s: %s", what,
	    c->root ? c->root : "", c->where, path, msg);
}

void
jname(jctx *c, const char *name)
{
	c->name = name;
}

const char *
jfullname(jctx *c, const char *ns, const char *name)
{
	char *full = kv_join(ns, '/', name);
	const char *s = kv_intern_str(c->strs, full);

	free(full);
	return s;
}

/* A format with one conversion, "%zu", and no other '%', or one "%s"
 * before it (*with_s). */
static bool
one_index(const char *fmt, bool *with_s)
{
	const char *p = strchr(fmt, '%');

	*with_s = p != NULL && p[1] == 's';
	if (*with_s)
		p = strchr(p + 2, '%');
	return p != NULL && strncmp(p, "%zu", 3) == 0 &&
	    strchr(p + 3, '%') == NULL;
}

void
jwhere(jctx *c, const char *fmt, ...)
{
	va_list ap;
	bool with_s;

	va_start(ap, fmt);
	c->where_fmt = NULL;
	if (strcmp(fmt, "%s") == 0) {	/* the common case, without printf */
		const char *w = va_arg(ap, const char *);
		size_t n = strlen(w);

		if (n >= sizeof(c->where))
			n = sizeof(c->where) - 1;
		memcpy(c->where, w, n);
		c->where[n] = '\0';
	} else if (one_index(fmt, &with_s)) {
		c->where_fmt = fmt;
		c->where_s = with_s ? va_arg(ap, const char *) : NULL;
		c->where_i = va_arg(ap, size_t);
	} else
		vsnprintf(c->where, sizeof(c->where), fmt, ap);
	va_end(ap);
}

static bool
type_ok(json_t *v, int type)
{
	if (type < 0)
		return true;
	if (type == JSON_TRUE)
		return json_is_boolean(v);
	if (type == JSON_INTEGER)
		return json_is_integer(v);
	if (type == JSON_REAL)		/* any number */
		return json_is_number(v);
	return (int)json_typeof(v) == type;
}

/* The value at path's bytes [from, to) (keys between dots) from cur:
 * NULL or null when a step is absent or null; KV_ERR when a step on the
 * way is not an object (the error names the whole path). */
static int
walk(jctx *c, json_t *cur, const char *path, size_t from, size_t to,
    json_t **out)
{
	const char *p = path + from, *end = path + to;

	while (cur != NULL && !json_is_null(cur) && p <= end) {
		const char *dot = memchr(p, '.', (size_t)(end - p));
		size_t len = (size_t)((dot != NULL ? dot : end) - p);

		if (!json_is_object(cur))
			return jerr(c, path, "expected an object on the way, "
			    "got %s", jtype_name(cur));
		cur = json_object_getn(cur, p, len);
		p += len + 1;
	}
	*out = cur;
	return KV_OK;
}

/*
 * The object a path's last key is looked up in (its first n bytes): most
 * reads of an item come in runs under one parent ("spec.domain.cpu.cores",
 * then ".sockets", ".threads"), so the item's last parent is kept (jctx
 * memo) and the walk down to it done once a run.  Only for the item's own
 * tree (c->item), which lives as long as c: a tree made and freed while
 * the item loads could come again at the same address.
 */
static int
parent_of(jctx *c, json_t *o, const char *path, size_t n, json_t **out)
{
	bool mine = o == c->item && o != NULL && n < sizeof(c->memo);

	if (mine && c->memo_set && c->memo_len == n &&
	    memcmp(c->memo, path, n) == 0) {
		*out = c->memo_node;
		return KV_OK;
	}
	if (walk(c, o, path, 0, n, out) != KV_OK)
		return KV_ERR;
	if (mine) {
		memcpy(c->memo, path, n);
		c->memo_len = n;
		c->memo_node = *out;
		c->memo_set = true;
	}
	return KV_OK;
}

int
jget(jctx *c, json_t *o, const char *path, int type, json_t **out)
{
	const char *last = strrchr(path, '.');
	size_t key = last != NULL ? (size_t)(last - path) + 1 : 0;
	json_t *cur = o;

	*out = NULL;
	if ((last != NULL && parent_of(c, o, path, key - 1, &cur) != KV_OK) ||
	    walk(c, cur, path, key, strlen(path), &cur) != KV_OK)
		return KV_ERR;
	if (cur == NULL || json_is_null(cur))
		return KV_OK;
	if (!type_ok(cur, type))
		return jerr(c, path, "expected %s, got %s", want_name(type),
		    jtype_name(cur));
	*out = cur;
	return KV_OK;
}

int
jstr(jctx *c, json_t *o, const char *path, const char **out)
{
	json_t *v;

	*out = NULL;
	if (jget(c, o, path, JSON_STRING, &v) != KV_OK)
		return KV_ERR;
	if (v != NULL)
		*out = kv_intern_str(c->strs, json_string_value(v));
	return KV_OK;
}

int
jbool(jctx *c, json_t *o, const char *path, int *out)
{
	json_t *v;

	*out = -1;
	if (jget(c, o, path, JSON_TRUE, &v) != KV_OK)
		return KV_ERR;
	if (v != NULL)
		*out = json_is_true(v);
	return KV_OK;
}

int
jint(jctx *c, json_t *o, const char *path, int64_t *out)
{
	json_t *v;

	*out = -1;
	if (jget(c, o, path, JSON_INTEGER, &v) != KV_OK)
		return KV_ERR;
	if (v != NULL) {
		if (json_integer_value(v) < 0)
			return jerr(c, path, "expected a non-negative number");
		*out = json_integer_value(v);
	}
	return KV_OK;
}

/* Quantities come as strings ("4Gi") or, rarely, bare numbers. */
int
jquantity_of(jctx *c, json_t *v, const char *path, bool milli,
    int64_t *out)
{
	kv_err qerr = {0};
	char num[64];
	const char *s;

	*out = -1;
	if (v == NULL || json_is_null(v))
		return KV_OK;
	if (json_is_integer(v)) {
		snprintf(num, sizeof(num), "%lld",
		    (long long)json_integer_value(v));
		s = num;
	} else if (json_is_string(v))
		s = json_string_value(v);
	else
		return jerr(c, path, "expected a quantity, got %s",
		    jtype_name(v));
	if ((milli ? kv_quantity_parse_milli(s, out, &qerr) :
	    kv_quantity_parse(s, out, &qerr)) != KV_OK)
		return jerr(c, path, "%s", qerr.msg);
	return KV_OK;
}

static int
quantity_at(jctx *c, json_t *o, const char *path, bool milli, int64_t *out)
{
	json_t *v;

	*out = -1;
	if (jget(c, o, path, -1, &v) != KV_OK || v == NULL)
		return c->err->set ? KV_ERR : KV_OK;
	return jquantity_of(c, v, path, milli, out);
}

int
jquantity(jctx *c, json_t *o, const char *path, int64_t *out)
{
	return quantity_at(c, o, path, false, out);
}

int
jquantity_milli(jctx *c, json_t *o, const char *path, int64_t *out)
{
	return quantity_at(c, o, path, true, out);
}

static int
label_cmp(const void *a, const void *b)
{
	return strcmp(((const kv_label *)a)->key, ((const kv_label *)b)->key);
}

int
jlabels(jctx *c, json_t *o, const char *path, kv_labels *out)
{
	json_t *v, *val;
	const char *key;
	size_t i = 0;

	out->n = 0;
	out->v = NULL;
	if (jget(c, o, path, JSON_OBJECT, &v) != KV_OK || v == NULL)
		return c->err->set ? KV_ERR : KV_OK;
	if (json_object_size(v) > c->lim->labels)
		return jerr(c, path, "%zu entries, more than the limit of %llu "
		    "(KVSCOPE_MAX_LABELS)", json_object_size(v),
		    (unsigned long long)c->lim->labels);
	out->v = xcalloc(json_object_size(v), sizeof(kv_label));
	json_object_foreach(v, key, val) {
		if (!json_is_string(val)) {
			free(out->v);
			out->v = NULL;
			return jerr(c, path, "value of \"%s\": expected a "
			    "string, got %s", key, jtype_name(val));
		}
		out->v[i].key = kv_intern_str(c->strs, key);
		out->v[i].value = kv_intern_str(c->strs,
		    json_string_value(val));
		i++;
	}
	out->n = i;
	/* the API server writes a map's keys sorted: then checking the
	 * order is all (a node has hundreds of labels) */
	for (i = 1; i < out->n; i++)
		if (label_cmp(&out->v[i - 1], &out->v[i]) > 0) {
			kv_qsort(out->v, out->n, sizeof(kv_label), label_cmp);
			break;
		}
	return KV_OK;
}

int
jstrarray(jctx *c, json_t *o, const char *path, const char ***out, size_t *n)
{
	json_t *v, *e;
	size_t i;

	*out = NULL;
	*n = 0;
	if (jget(c, o, path, JSON_ARRAY, &v) != KV_OK || v == NULL)
		return c->err->set ? KV_ERR : KV_OK;
	*out = xcalloc(json_array_size(v) + 1, sizeof(char *));
	json_array_foreach(v, i, e) {
		if (!json_is_string(e)) {
			free(*out);
			*out = NULL;
			return jerr(c, path, "element %zu: expected a string, "
			    "got %s", i, jtype_name(e));
		}
		(*out)[(*n)++] = kv_intern_str(c->strs, json_string_value(e));
	}
	return KV_OK;
}

int
jmeta(jctx *c, json_t *o, const char **name, const char **ns,
    bool namespaced)
{
	if (jstr(c, o, "metadata.name", name) != KV_OK)
		return KV_ERR;
	if (*name == NULL || **name == '\0')
		return jerr(c, "metadata.name", "missing");
	jname(c, *name);
	if (!namespaced)
		return KV_OK;
	if (jstr(c, o, "metadata.namespace", ns) != KV_OK)
		return KV_ERR;
	if (*ns == NULL || **ns == '\0')
		return jerr(c, "metadata.namespace", "missing");
	return KV_OK;
}

int
jcondition(jctx *c, json_t *o, const char *type, char *st,
    const char **reason, const char **message)
{
	json_t *conds, *e;
	size_t i;

	*st = 0;
	if (reason != NULL)
		*reason = NULL;
	if (message != NULL)
		*message = NULL;
	if (jget(c, o, "status.conditions", JSON_ARRAY, &conds))
		return KV_ERR;
	if (conds == NULL)
		return KV_OK;
	json_array_foreach(conds, i, e) {
		const char *t, *s;

		jwhere(c, "status.conditions[%zu].", i);
		if (!json_is_object(e))
			return jerr(c, "", "expected an object");
		if (jstr(c, e, "type", &t) || jstr(c, e, "status", &s))
			return KV_ERR;
		if (t == NULL || strcmp(t, type) != 0)
			continue;
		if ((reason != NULL && jstr(c, e, "reason", reason)) ||
		    (message != NULL && jstr(c, e, "message", message)))
			return KV_ERR;
		*st = s != NULL && strcmp(s, "True") == 0 ? 'T' : 'F';
	}
	jwhere(c, "%s", "");
	return KV_OK;
}
