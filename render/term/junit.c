/*
 * junit.c - `-o junit` (view.h): JUnit XML, as Jenkins' junit plugin and
 * GitLab's unit-test reports read it, so that a CI gate shows each VMI
 * as a test case: <testsuites> holding one <testsuite> (name, tests,
 * failures, errors, skipped, time), a <testcase> per VMI (classname the
 * namespace, name the VMI, time), <failure message type> with the codes
 * and the fixes of the VMI's groups, <skipped> for a VMI not running.
 * Every string from the snapshot goes in through libxml2's xmlNewProp and
 * xmlNewTextChild, which escape it.
 */
#include <libxml/tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/decide/groups.h"
#include "render/render.h"
#include "render/view.h"

static void
prop_size(xmlNodePtr n, const char *name, size_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%zu", v);
	xmlNewProp(n, BAD_CAST name, BAD_CAST buf);
}

/* The failure's text: the message, its codes with theirs, then the fix
 * of each group the VMI is in. */
static char *
failure_text(const kv_analysis *a, const kv_vmires *r, const char *msg)
{
	kv_buf b = { 0 };

	kv_buf_printf(&b, "%s\n", msg);
	for (size_t k = 0; k < r->nblockers; k++)
		kv_buf_printf(&b, "%s: %s\n", r->blockers[k].rule->code,
		    r->blockers[k].message ? r->blockers[k].message : "");
	for (size_t k = 0; k < r->ngroups; k++) {
		const kv_group *g = &a->groups[r->groups[k]];
		char *badge = kv_fix_badge(g);

		kv_buf_printf(&b, "%s %s: %s\n  fix %s%s: %s\n", g->id,
		    g->code, g->summary, kv_fix_names[g->fix.action], badge,
		    g->fix.text);
		free(badge);
	}
	kv_buf_append(&b, "", 1);
	return b.data;
}

static void
test_case(const kv_analysis *a, const kv_jcase *c, xmlNodePtr suite)
{
	const kv_vmires *r = &a->vmis[c->vmi];
	xmlNodePtr tc = xmlNewChild(suite, NULL, BAD_CAST "testcase", NULL);
	xmlNodePtr f;
	char *text;

	xmlNewProp(tc, BAD_CAST "classname", BAD_CAST r->vmi->ns);
	xmlNewProp(tc, BAD_CAST "name", BAD_CAST r->vmi->name);
	xmlNewProp(tc, BAD_CAST "time", BAD_CAST "0");
	if (c->state == KV_JCASE_SKIPPED) {
		f = xmlNewChild(tc, NULL, BAD_CAST "skipped", NULL);
		xmlNewProp(f, BAD_CAST "message", BAD_CAST (c->message ?
		    c->message : "not running"));
	} else if (c->state == KV_JCASE_FAILED) {
		text = failure_text(a, r, c->message);
		f = xmlNewTextChild(tc, NULL, BAD_CAST "failure",
		    BAD_CAST text);
		xmlNewProp(f, BAD_CAST "message", BAD_CAST c->message);
		xmlNewProp(f, BAD_CAST "type", BAD_CAST c->type);
		free(text);
	}
}

int
kv_view_junit(const kv_analysis *a, const char *suite_name,
    const kv_jcase *c, size_t n, const kv_term *t, kv_err *err)
{
	xmlDocPtr doc = xmlNewDoc(BAD_CAST "1.0");
	xmlNodePtr root = xmlNewDocNode(doc, NULL, BAD_CAST "testsuites",
	    NULL), suite;
	size_t failed = 0, skipped = 0;
	int rc = KV_OK;

	xmlDocSetRootElement(doc, root);
	suite = xmlNewChild(root, NULL, BAD_CAST "testsuite", NULL);
	for (size_t i = 0; i < n; i++) {
		failed += c[i].state == KV_JCASE_FAILED;
		skipped += c[i].state == KV_JCASE_SKIPPED;
	}
	xmlNewProp(root, BAD_CAST "name", BAD_CAST "kvscope");
	prop_size(root, "tests", n);
	prop_size(root, "failures", failed);
	prop_size(root, "errors", 0);
	xmlNewProp(suite, BAD_CAST "name", BAD_CAST suite_name);
	prop_size(suite, "tests", n);
	prop_size(suite, "failures", failed);
	prop_size(suite, "errors", 0);
	prop_size(suite, "skipped", skipped);
	xmlNewProp(suite, BAD_CAST "time", BAD_CAST "0");
	for (size_t i = 0; i < n; i++)
		test_case(a, &c[i], suite);
	if (xmlDocFormatDump(t->f, doc, 1) < 0 || fflush(t->f) != 0 ||
	    ferror(t->f))
		rc = kv_seterr(err, "stdout: write error");
	xmlFreeDoc(doc);
	return rc;
}
