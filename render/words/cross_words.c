/*
 * cross_words.c - the words crosscheck's text, HTML and PDF share
 * (render/cross.h): the summary line, each side's line, the data to copy
 * and what a reason rules out.  Returned strings are the caller's.
 */
#include <stdio.h>
#include <stdlib.h>

#include "render/cross.h"
#include "render/render.h"

static const char *
vms_word(size_t n)
{
	return n == 1 ? "VM" : "VMs";
}

char *
kv_cross_summary(const kv_cross *x)
{
	return xasprintf("%zu of %zu %s could live-migrate to %s, %zu only "
	    "cold, %zu not", x->counts[XA_LIVE], x->nvms, vms_word(x->nvms),
	    x->side[1].name, x->counts[XA_COLD], x->counts[XA_NO]);
}

char *
kv_cross_side(const kv_cross *x, int i)
{
	const kv_xside *s = &x->side[i];

	return xasprintf("%s: %s (KubeVirt %s, DecentralizedLiveMigration "
	    "%s)", i == 0 ? "SOURCE" : "TARGET", s->name, s->version,
	    s->gate ? "on" : "off");
}

char *
kv_cross_copy(const kv_cross *x)
{
	char *b = kv_fmt_bytes(x->copy_bytes);
	char *s = xasprintf("data to copy: %s (the claims of the VMs that "
	    "could move)", b);

	free(b);
	return s;
}

const char *
kv_cross_rules_out(unsigned blocks)
{
	if ((blocks & XB_LIVE) && (blocks & XB_COLD))
		return "rules out live and cold";
	if (blocks & XB_LIVE)
		return "rules out live";
	if (blocks & XB_COLD)
		return "rules out cold";
	return "said";
}

const char *
kv_cross_meaning(enum kv_xanswer v)
{
	switch (v) {
	case XA_LIVE:
		return "it could live-migrate to TARGET (decentralized live "
		    "migration)";
	case XA_COLD:
		return "it could start on TARGET after a cold move";
	default:
		return "neither: every reason is listed with its fix";
	}
}
