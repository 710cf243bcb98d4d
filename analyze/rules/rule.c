/*
 * rule.c - looking up rule rows and recording what a check finds
 * (rule.h, rule_ctx.h).  The table itself is analyze/ruletable.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "analyze/rules/rule_ctx.h"

const kv_rule *
kv_rule_find(const char *code)
{
	for (size_t i = 0; i < kv_nrules; i++)
		if (strcmp(kv_rules[i].code, code) == 0)
			return &kv_rules[i];
	return NULL;
}

bool
kv_rule_explains(const kv_rule *r, enum kv_flavor_id f, const char *why)
{
	if (kv_flavors[f]->base != NULL)
		f = kv_flavors[f]->base->id;	/* its KubeVirt's reasons */
	for (size_t k = 0; why != NULL && k < KV_RULE_REASONS &&
	    r->reasons[f][k] != NULL; k++)
		if (strcmp(r->reasons[f][k], why) == 0)
			return true;
	return false;
}

const kv_rule *
kv_rule_by_reason(enum kv_flavor_id f, const char *why)
{
	for (size_t i = 0; why != NULL && i < kv_nrules; i++)
		if (kv_rule_explains(&kv_rules[i], f, why))
			return &kv_rules[i];
	return NULL;
}

bool
kv_rule_applies(const kv_rule *r, enum kv_flavor_id f)
{
	return r->only == 0 || (r->only & KV_ONLY(f)) != 0;
}

void
kv_rule_words_of(const kv_rule *r, const kv_flavor *f, const char **title,
    const char **remediation)
{
	const kv_rule_words *w = &r->words[f->id];

	*title = w->title ? w->title : r->words[KV_FLAVOR_KUBEVIRT].title;
	*remediation = w->remediation ? w->remediation :
	    r->words[KV_FLAVOR_KUBEVIRT].remediation;
}

bool
rule_has(const rule_ctx *c, const kv_rule *r)
{
	for (size_t i = 0; i < c->r->nblockers; i++)
		if (c->r->blockers[i].rule == r)
			return true;
	return false;
}

bool
rule_any_blocked(const rule_ctx *c)
{
	for (size_t i = 0; i < c->r->nblockers; i++)
		if (c->r->blockers[i].rule->verdict == V_BLOCKED)
			return true;
	return false;
}

void
rule_emit(rule_ctx *c, const kv_rule *r, const char *fmt, ...)
{
	va_list ap;
	kv_issue *is;
	char small[512], *msg = small;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if ((size_t)n >= sizeof(small)) {
		msg = xmalloc((size_t)n + 1);
		va_start(ap, fmt);
		vsnprintf(msg, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	if (r->severity == SEV_BLOCKER) {
		KV_GROW(c->r->blockers, c->cap_blockers, c->r->nblockers + 1);
		is = &c->r->blockers[c->r->nblockers++];
	} else {
		KV_GROW(c->r->warnings, c->cap_warnings, c->r->nwarnings + 1);
		is = &c->r->warnings[c->r->nwarnings++];
	}
	is->rule = r;
	if (c->a->messages_mu != NULL)
		pthread_mutex_lock(c->a->messages_mu);
	is->message = g_string_chunk_insert_const(c->a->messages, msg);
	if (c->a->messages_mu != NULL)
		pthread_mutex_unlock(c->a->messages_mu);
	if (msg != small)
		free(msg);
	is->seq = c->r->nblockers + c->r->nwarnings;
}
