/*
 * jget.h - typed, path-addressed reads from a jansson object, with errors
 * that name the field ("spec.volumes[2].hostDisk.shared: expected true or
 * false, got a string").
 *
 * A missing field or JSON null is not an error: the out value is left at
 * its "absent" value (NULL, -1).  A field of the wrong type is an error.
 * Strings are interned in c->strs (up to a NUL byte: jansson refuses one
 * in a string unless told otherwise); label maps are copied into arrays the
 * caller owns (free(l->v)).
 */
#ifndef KV_JGET_H
#define KV_JGET_H

#include <jansson.h>

#include "analyze/model/intern.h"
#include "analyze/read/jsonitems.h"
#include "analyze/read/limits.h"
#include "analyze/model/model.h"
#include "analyze/util/util.h"

typedef struct jctx {
	kv_intern *strs;
	const kv_limits *lim;
	kv_err *err;
	size_t index;		/* item index in its file */
	const char *name;	/* jname's, or NULL: errors say "item 3 (w1)" */
	/* the prefix for paths ("spec.volumes[2]."): where, or where_fmt
	 * with where_i (and where_s) when jwhere was given one "%zu" (after
	 * one "%s"), formatted only when an error names it: jwhere runs for
	 * every element read */
	char where[160];
	const char *where_fmt;
	const char *where_s;	/* lives as long as the where (a literal) */
	size_t where_i;
	const char *root;	/* before where, or NULL: a part read as an
				   object of its own ("spec.template.") */
	const json_aside *aside; /* the item's text set aside, or NULL */
	json_t *item;		/* the item's tree, or NULL */
	/* jget's last parent in item: the path memo (memo_len bytes, not
	 * terminated) leads to memo_node (NULL: absent) */
	bool memo_set;
	char memo[64];
	size_t memo_len;
	json_t *memo_node;
} jctx;

/* The value at a dotted path, NULL when absent; KV_ERR when a step or the
 * value (type >= 0) has the wrong JSON type. */
int jget(jctx *c, json_t *o, const char *path, int type, json_t **out);
int jstr(jctx *c, json_t *o, const char *path, const char **out);
int jbool(jctx *c, json_t *o, const char *path, int *out);
int jint(jctx *c, json_t *o, const char *path, int64_t *out);
int jquantity(jctx *c, json_t *o, const char *path, int64_t *out);
/* The same in thousandths (CPU: "500m" = 500); -1 when absent. */
int jquantity_milli(jctx *c, json_t *o, const char *path, int64_t *out);
/* The quantity v itself (path names it in errors); -1 when NULL. */
int jquantity_of(jctx *c, json_t *v, const char *path, bool milli,
    int64_t *out);
int jlabels(jctx *c, json_t *o, const char *path, kv_labels *out);
/* An array of strings, interned; *out owned by the caller. */
int jstrarray(jctx *c, json_t *o, const char *path, const char ***out,
    size_t *n);
/* metadata.name (required, names the object in later errors) and, when
 * namespaced, metadata.namespace (required); both interned. */
/* The condition of type `type` in o's status.conditions (the last one
 * listed): *st 'T', 'F', or 0 when absent; its reason and message when
 * reason, message are not NULL (else NULL). */
int jcondition(jctx *c, json_t *o, const char *type, char *st,
    const char **reason, const char **message);
int jmeta(jctx *c, json_t *o, const char **name, const char **ns,
    bool namespaced);
/* Name the object in later errors: "item <index> (<name>)".  name is
 * kept, not copied: it must live as long as c (interned). */
void jname(jctx *c, const char *name);
/* "<ns>/<name>", interned in c->strs. */
const char *jfullname(jctx *c, const char *ns, const char *name);
/* Report a field error: "<what>: <where><path>: <msg>". */
int jerr(jctx *c, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The prefix of the paths of later errors.  A format with one "%zu" and
 * no other conversion, or one "%s" before it, is kept, not formatted
 * (until an error names it): it must be a string literal, and so must
 * the string given for "%s". */
void jwhere(jctx *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
