/*
 * jsonscan.h - the item scanner's state, shared by jsonitems.c (the byte
 * loop and the structure of Lists, JSON Lines and arrays) and jsonskip.c
 * (the subtrees the loader never reads).  Private to those two files.
 */
#ifndef KV_JSONSCAN_H
#define KV_JSONSCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/read/jsonitems.h"
#include "analyze/read/jsonpool.h"

enum mode { M_TOP, M_OBJECT, M_LIST, M_AFTER_LIST };

/* What may come next inside the items array. */
enum next { N_FIRST, N_ITEM, N_COMMA };

/* Keys the skip rules look at (names in jsonskip.c); K_OTHER is any
 * other key, K_ESCAPED one written with an escape (never dropped by a
 * keep list, matching no name), K_ELEM stands for the elements of an
 * array in a path. */
enum key { K_NONE, K_OTHER, K_ESCAPED, K_ELEM, K_METADATA, K_SPEC, K_STATUS,
	K_MANAGED, K_FINALIZERS, K_OWNERS, K_IMAGES, K_CONDITIONS,
	K_ADDRESSES, K_VOLINUSE, K_VOLATTACHED, K_DAEMON, K_CONTAINERS,
	K_INITCONTAINERS, K_CSTATUSES, K_ICSTATUSES, K_NAME, K_IMAGE,
	K_IMAGEID, K_RESOURCES, K_ANNOTATIONS, K_VOLUMES, K_TYPE, K_REASON,
	K_MESSAGE, K_TEMPLATE, K_DOMAIN, K_CPU, K_MODEL, K_EVICTION,
	K_NAMESPACE, K_LABELS, K_CREATED, K_DELETED, K_UID, K_OVERHEAD,
	K_PRIORITY, K_NODENAME, K_NODESELECTOR, K_AFFINITY, K_SPREAD,
	K_PHASE, K_ARCH, K_NETWORKS, K_TOLERATIONS, K_MACHINE, K_HINTS,
	K_MIGSTATE, K_GUESTOS, K_VOLSTATUS, K_MIGVOLS, K_SCNAME, K_VOLMODE,
	K_VOLNAME, K_ACCESSMODES, K_CAPACITY, K_FIRMWARE, K_DEVICES,
	K_DISKS, K_CDROM, K_LUN, K_CLOUDINIT, K_CONFIGDRIVE, K_USERDATA,
	K_PVCINFO, K_CLAIMNAME, K_KEY, K_OPERATOR, K_VALUE, K_EFFECT,
	K_REQUESTS, K_KEYS,
	K_ASIDE };	/* not a key: a row's mark (jsonskip.c) */

/* Which rules apply, from the file name. */
enum profile { P_OFF, P_ANY, P_NODES, P_PODS, P_VMIS, P_VMS, P_PVCS,
	P_DVS };

/* A set of skip rules (jsonskip.c), by their indexes. */
typedef uint64_t rule_set;

#define MAXLV 6		/* item levels whose keys are tracked */

#define NO_MEMBER UINT64_MAX

/* One open container of an item, 1 = the item's own object.  Offsets
 * are in the item's text as it is being built (item_at). */
typedef struct level {
	bool is_obj;
	bool tracked;		/* keys and values here are looked at */
	bool want_key, want_value;
	bool comma_fresh;	/* a ',' after a member was the last byte
				 * but whitespace */
	bool had_member;	/* a key has started here */
	enum key key;		/* the current key (objects) */
	rule_set rules;		/* skip rules whose path leads here */
	uint64_t comma_at;	/* where that ',' is */
	uint64_t member_at;	/* where the current member starts with its
				 * ',', or NO_MEMBER: a dropped value then
				 * leaves its key and null */
} level;

struct json_items {
	const char *file;
	const kv_limits *lim;
	json_item_fn fn;
	void *arg;

	enum mode mode;
	bool is_list;		/* a List was seen: nothing may follow it */
	unsigned depth;
	unsigned arr_depth;	/* depth inside the items array: 2, or 1 for
				 * a bare array */
	bool in_str, esc;
	uint64_t str_len;
	uint64_t offset;	/* bytes consumed */
	unsigned bom;		/* BOM bytes matched; 3 once past the start */

	/* depth-1 key tracking, to recognise "items": [ */
	bool expect_key;
	bool cap_top, cap_item;	/* the string is a key being captured */
	char key[32];
	size_t key_len;
	bool key_overflow;
	bool key_escaped;	/* it holds an escape: no name matches it */
	bool last_key_items;

	kv_buf item;		/* bytes of the current item */
	kv_buf wrap;		/* the List, with "items": [] */
	enum next next;
	bool in_item;
	unsigned item_depth;	/* depth at which the item value started */
	uint64_t item_start;
	size_t nitems;

	enum profile profile;
	level lv[MAXLV + 1];
	rule_set child_rules;	/* rules for the container opening next */
	bool skipping, skip_str;
	bool skip_scalar;	/* a scalar member being dropped (jsonskip.c) */
	unsigned skip_depth;	/* depth at which the skipped value began */

	/* the value a row sets aside (jsonskip.c): its bytes whole, while
	 * the item gets them pruned by the rows below it */
	bool aside_next;	/* the container opening next is it */
	bool aside_on;		/* its bytes are being taken */
	unsigned aside_depth;	/* depth at which it began */
	kv_buf aside;

	jp_queue q;
	bool threaded;
};

/* The bytes of one feed call, and where the current item's uncopied
 * bytes start in them (SIZE_MAX: none). */
typedef struct chunk_in {
	const char *buf;
	size_t len;
	uint64_t base;
	size_t seg;
	size_t aside_seg;	/* where bytes set aside start, or SIZE_MAX */
} chunk_in;

/* Where byte i of the buffer falls in the item's text: the bytes kept
 * so far, then the uncopied ones from in->seg (set). */
static inline uint64_t
item_at(const json_items *s, const chunk_in *in, size_t i)
{
	return s->item.len + (i - in->seg);
}

/* The item level the scanner is at, or 0 when its keys are not tracked
 * (asked at every byte outside strings: inline). */
static inline unsigned
tracked_level(const json_items *s)
{
	unsigned rel;

	if (!s->in_item || s->skipping)
		return 0;
	rel = s->depth - s->item_depth;
	return rel >= 1 && rel <= MAXLV && s->lv[rel].tracked ? rel : 0;
}

/* jsonskip.c */
enum profile skip_profile(const char *file);
bool value_starts(json_items *s, chunk_in *in, size_t i, unsigned rel,
    bool str, bool *child);
void opened(json_items *s, bool is_obj, bool tracked);
void track_byte(json_items *s, chunk_in *in, size_t i, unsigned rel, char c);
bool scalar_skipped(json_items *s, chunk_in *in, size_t i, char c);
void key_starts(json_items *s, unsigned rel);
void key_done(json_items *s);
void end_skip(json_items *s, chunk_in *in, size_t i);
void end_aside(json_items *s, chunk_in *in, size_t i);

#endif
