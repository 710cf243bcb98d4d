/*
 * jsonskip.c - the subtrees of an item the model loader never reads
 * (metadata.managedFields of every object, status.images of nodes, the
 * fields of pods' containers other than name, image and resources), found
 * by tracking the keys of an item's first levels and replaced by null in
 * its text before jansson sees them (see jsonitems.c).
 */
#include <stdlib.h>
#include <string.h>

#include "jsonscan.h"

static const char *const key_names[] = {
	[K_METADATA] = "metadata", [K_MANAGED] = "managedFields",
	[K_STATUS] = "status", [K_IMAGES] = "images", [K_SPEC] = "spec",
	[K_CONTAINERS] = "containers", [K_INITCONTAINERS] = "initContainers",
	[K_NAME] = "name", [K_IMAGE] = "image", [K_RESOURCES] = "resources",
};

enum profile
skip_profile(const char *file)
{
	const char *env = getenv("KVSCOPE_NO_SKIP");
	const char *base = strrchr(file, '/');

	if (env != NULL && *env != '\0' && strcmp(env, "0") != 0)
		return P_OFF;
	base = base != NULL ? base + 1 : file;
	if (strcmp(base, "nodes.json") == 0)
		return P_NODES;
	if (strcmp(base, "pods.json") == 0)
		return P_PODS;
	return P_ANY;
}

/* --- skipping ---------------------------------------------------------------- */

static enum key
key_id(const json_items *s)
{
	if (s->key_overflow)
		return K_OTHER;
	for (size_t k = K_METADATA; k < sizeof(key_names) /
	    sizeof(key_names[0]); k++)
		if (strlen(key_names[k]) == s->key_len &&
		    memcmp(key_names[k], s->key, s->key_len) == 0)
			return (enum key)k;
	return K_OTHER;
}

/* The item level the scanner is at, or 0 when its keys are not tracked. */
unsigned
tracked_level(const json_items *s)
{
	unsigned rel;

	if (!s->in_item || s->skipping)
		return 0;
	rel = s->depth - s->item_depth;
	return rel >= 1 && rel <= MAXLV && s->lv[rel].tracked ? rel : 0;
}

static bool
in_containers(const json_items *s)
{
	return s->profile == P_PODS && s->lv[1].key == K_SPEC &&
	    (s->lv[2].key == K_CONTAINERS ||
	    s->lv[2].key == K_INITCONTAINERS);
}

/* Is the value of the current key at level rel never read? */
static bool
skip_value(const json_items *s, unsigned rel)
{
	enum key k = s->lv[rel].key;

	if (rel == 2 && s->lv[1].key == K_METADATA && k == K_MANAGED)
		return true;
	if (rel == 2 && s->profile == P_NODES && s->lv[1].key == K_STATUS &&
	    k == K_IMAGES)
		return true;
	return rel == 4 && in_containers(s) && k != K_NAME &&
	    k != K_IMAGE && k != K_RESOURCES;
}

/* Is a container opened at level rel + 1 (a value of level rel) looked
 * at? */
static bool
tracked_child(const json_items *s, unsigned rel)
{
	enum key k = s->lv[rel].key;

	switch (rel) {
	case 1:
		return k == K_METADATA ||
		    (k == K_STATUS && s->profile == P_NODES) ||
		    (k == K_SPEC && s->profile == P_PODS);
	case 2:
		return in_containers(s);
	case 3:
		return true;	/* an element of containers[] */
	default:
		return false;
	}
}

/* The value about to start at byte i is dropped: the item keeps "null"
 * in its place. */
static void
begin_skip(json_items *s, chunk_in *in, size_t i, bool str)
{
	kv_buf_append(&s->item, in->buf + in->seg, i - in->seg);
	kv_buf_append(&s->item, "null", 4);
	in->seg = SIZE_MAX;
	s->skipping = true;
	s->skip_str = str;
	s->skip_depth = s->depth;
}

void
end_skip(json_items *s, chunk_in *in, size_t i)
{
	s->skipping = false;
	s->skip_str = false;
	in->seg = i + 1;
}

/* A value starts at byte i at tracked level rel: skip it, or say
 * whether a container it opens is tracked. */
bool
value_starts(json_items *s, chunk_in *in, size_t i, unsigned rel, bool str,
    bool *child)
{
	level *l = &s->lv[rel];

	*child = false;
	if (l->is_obj && !l->want_value)
		return false;
	l->want_value = false;
	if (l->is_obj && skip_value(s, rel)) {
		begin_skip(s, in, i, str);
		return true;
	}
	*child = tracked_child(s, rel);
	return false;
}

/* After structural() opened a container inside an item. */
void
opened(json_items *s, bool is_obj, bool tracked)
{
	unsigned rel = s->depth - s->item_depth;

	if (rel < 1 || rel > MAXLV || s->skipping)
		return;
	s->lv[rel] = (level){ .is_obj = is_obj, .tracked = tracked,
	    .want_key = is_obj, .key = K_NONE };
}

/* ',', ':' and scalars at a tracked level. */
void
track_byte(json_items *s, unsigned rel, char c)
{
	level *l = &s->lv[rel];

	if (c == ',') {
		l->want_key = l->is_obj;
		l->want_value = false;
	} else if (c == ':')
		l->want_value = l->is_obj;
	else if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
		l->want_value = false;
}

/* A key string ended: remember which it is. */
void
key_done(json_items *s)
{
	s->lv[s->depth - s->item_depth].key = key_id(s);
}
