/*
 * html.h - the HTML writer's private tree helpers (htmltree.c), used by
 * html.c.  Text and attribute values are raw strings; libxml2 escapes
 * them.  A word of text holding a bidi control or zero-width character
 * becomes a <bdi> that shows the character as "<U+202E>"; attribute
 * values show it so too.
 */
#ifndef KV_HTML_H
#define KV_HTML_H

#include <libxml/tree.h>

#include "render/render.h"
#include "render/report.h"

/* A child element tag of parent holding text (may be NULL). */
xmlNodePtr h_el(xmlNodePtr parent, const char *tag, const char *text);
/* h_el() with a class (NULL: none). */
xmlNodePtr h_elc(xmlNodePtr parent, const char *tag, const char *cls,
    const char *text);
/* h_elc() for a name: it breaks only after '/', '-' or '.' (<wbr>). */
xmlNodePtr h_name(xmlNodePtr parent, const char *tag, const char *cls,
    const char *text);
/* h_elc() with a string the caller gives up. */
xmlNodePtr h_el_own(xmlNodePtr parent, const char *tag, const char *cls,
    char *text);
void h_attr(xmlNodePtr n, const char *name, const char *value);
/* Append text to n (no element). */
void h_txt(xmlNodePtr n, const char *text);
/* A <td class="num"> with v. */
xmlNodePtr h_num_cell(xmlNodePtr tr, size_t v);
const char *h_tone_class(enum kv_tone t);	/* "tone-ok" */
/* <span class="badge tone-..">sym word</span> */
void h_badge(xmlNodePtr parent, enum kv_tone t, const char *sym,
    const char *word);
/* A <table> with a header row of n heads (head_cls[i] their classes, or
 * NULL), in a <div class="scroll"> of its own (it scrolls sideways on a
 * narrow screen); the caller adds the <tbody>. */
xmlNodePtr h_table(xmlNodePtr parent, const char *cls,
    const char *const *heads, const char *const *head_cls, size_t n);
/* <section id=id><h2>title</h2> */
xmlNodePtr h_section(xmlNodePtr main, const char *id, const char *title);
/* A two-column table of facts; takes v over. */
void h_facts_table(xmlNodePtr parent, kv_fact *v, size_t n);
/* <details class="more"><summary>summary</summary>, open or collapsed;
 * the caller adds the content to the returned element. */
xmlNodePtr h_details(xmlNodePtr parent, const char *summary, bool open);
/* A long list in a cell: the first `shown` names, each unbroken (a
 * label never wraps inside key:value), then "and N more (all in
 * findings.json)" with every name folded in a <details>; "none" when
 * n is 0. */
void h_names(xmlNodePtr td, const char *const *v, size_t n, size_t shown);
/* h_names() of nodes by index */
void h_node_names(xmlNodePtr td, const kv_analysis *a, const size_t *idx,
    size_t n, size_t shown);

/* "'sha256-...'" of s, for the Content-Security-Policy (html.c); the
 * caller frees. */
char *html_csp_hash(const char *s);
/* html's <head>: charset, a Content-Security-Policy that allows only
 * the compiled-in stylesheet (and with script, report.js), viewport,
 * generator, title and the stylesheet (html.c; the report's and
 * crosscheck's pages). */
void html_head(xmlNodePtr html, const char *title, bool script);
/* h_names() whose "and N more" points to file where all are listed. */
void h_names_in(xmlNodePtr td, const char *const *v, size_t n,
    size_t shown, const char *file);

/* sec_vmis.c: running and not ok, or stopped or held by a drain */
bool html_needs_attention(const kv_vmires *r);
/* the static table of those VMIs, appended to section s */
void html_attention(xmlNodePtr s, const kv_analysis *a);
/* the full VMI list: an empty table and its rows as JSON for the script */
void html_vmi_list(xmlNodePtr s, const kv_analysis *a);
/* sec_diff.c: what a what-if or diff changed, into its section s */
void html_sec_changes(xmlNodePtr s, const kv_analysis *a,
    const kv_report_diff *rd);
/* sec_groups.c: the groups, one line each with the fix, for the summary */
void html_groups_brief(xmlNodePtr s, const kv_analysis *a, size_t max);
/* sec_window.c: the maintenance window, into its section s (figures
 * measured with t, SVG built in doc) */
void html_sec_window(xmlNodePtr s, const kv_analysis *a, xmlDocPtr doc,
    kv_text *t);

#endif
