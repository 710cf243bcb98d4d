/*
 * labelsel.c - Kubernetes label selectors (labelsel.h): a lexer and a
 * descent parser with apimachinery's grammar, then matching.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/model/labelsel.h"

const char *const kv_lselop_names[KV_SEL_COUNT] = { "exists", "!", "=",
	"!=", "in", "notin", ">", "<" };

enum tok { T_END, T_ERR, T_RPAR, T_COMMA, T_NOT, T_DEQ, T_EQ, T_GT, T_ID,
	T_IN, T_LT, T_NE, T_NOTIN, T_LPAR };

typedef struct lexer {
	const char *s;
	size_t pos;
	enum tok tok;		/* the current token */
	char *lit;		/* its text */
	kv_err *err;
} lexer;

static bool
special(char c)
{
	return c != '\0' && strchr("=!(),><", c) != NULL;
}

static bool
blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The next token into l->tok, l->lit. */
static void
lex(lexer *l)
{
	static const struct { const char *s; enum tok t; } sym[] = {
		{ "==", T_DEQ }, { "!=", T_NE }, { "=", T_EQ }, { "!", T_NOT },
		{ "(", T_LPAR }, { ")", T_RPAR }, { ",", T_COMMA },
		{ ">", T_GT }, { "<", T_LT } };
	const char *p;
	size_t n = 0;

	free(l->lit);
	while (blank(l->s[l->pos]))
		l->pos++;
	p = l->s + l->pos;
	l->tok = T_END;
	if (*p != '\0' && special(*p)) {
		for (size_t i = 0; i < sizeof(sym) / sizeof(sym[0]); i++)
			if (strncmp(p, sym[i].s, strlen(sym[i].s)) == 0) {
				l->tok = sym[i].t;
				n = strlen(sym[i].s);
				break;
			}
	} else if (*p != '\0') {
		while (p[n] != '\0' && !special(p[n]) && !blank(p[n]))
			n++;
		l->tok = n == 2 && strncmp(p, "in", 2) == 0 ? T_IN :
		    n == 5 && strncmp(p, "notin", 5) == 0 ? T_NOTIN : T_ID;
	}
	l->lit = xstrndup(p, n);
	l->pos += n;
}

/* In a value position "in" and "notin" are values. */
static bool
is_value(const lexer *l)
{
	return l->tok == T_ID || l->tok == T_IN || l->tok == T_NOTIN;
}

static int
expected(lexer *l, const char *what)
{
	return kv_seterr(l->err, "found '%s', expected: %s", l->lit, what);
}

/* [A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?, at most 63; empty if
 * may_be_empty. */
static bool
name_ok(const char *s, size_t n, bool may_be_empty)
{
	if (n == 0)
		return may_be_empty;
	if (n > 63 || !isalnum((unsigned char)s[0]) ||
	    !isalnum((unsigned char)s[n - 1]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && strchr("-_.", s[i]) ==
		    NULL)
			return false;
	return true;
}

/* A DNS-1123 subdomain: lower-case labels joined by dots, <= 253. */
static bool
subdomain_ok(const char *s, size_t n)
{
	size_t start = 0;

	if (n == 0 || n > 253)
		return false;
	for (size_t i = 0; i <= n; i++) {
		if (i < n && s[i] != '.') {
			if (!islower((unsigned char)s[i]) &&
			    !isdigit((unsigned char)s[i]) && s[i] != '-')
				return false;
			continue;
		}
		if (i == start || s[start] == '-' || s[i - 1] == '-')
			return false;
		start = i + 1;
	}
	return true;
}

static int
check_key(lexer *l, const char *k)
{
	const char *slash = strchr(k, '/');
	const char *name = slash ? slash + 1 : k;

	if (slash != NULL && (strchr(name, '/') != NULL ||
	    !subdomain_ok(k, (size_t)(slash - k))))
		return kv_seterr(l->err, "key \"%s\": the prefix must be a "
		    "DNS subdomain (example.com/name)", k);
	if (!name_ok(name, strlen(name), false))
		return kv_seterr(l->err, "key \"%s\": the name must be 1-63 "
		    "characters [A-Za-z0-9-_.], starting and ending with a "
		    "letter or digit", k);
	return KV_OK;
}

static void
add_value(kv_selreq *r, const char *v)
{
	for (size_t i = 0; i < r->nvals; i++)
		if (strcmp(r->vals[i], v) == 0)
			return;		/* a set, as sets.String */
	r->vals = xreallocarray(r->vals, r->nvals + 1, sizeof(char *));
	r->vals[r->nvals++] = xstrdup(v);
}

/* "(" [values] ")" with empty elements allowed ("(a,,b)", "()"). */
static int
value_set(lexer *l, kv_selreq *r)
{
	bool want_value = true;

	lex(l);
	if (l->tok != T_LPAR)
		return expected(l, "'('");
	for (lex(l); l->tok != T_RPAR; lex(l)) {
		if (is_value(l) && want_value) {
			add_value(r, l->lit);
			want_value = false;
		} else if (l->tok == T_COMMA) {
			if (want_value)
				add_value(r, "");
			want_value = true;
		} else
			return expected(l, want_value ? "',', ')' or "
			    "identifier" : "',' or ')'");
	}
	if (want_value && r->nvals > 0)
		add_value(r, "");	/* "(a,)" */
	if (r->nvals == 0)
		add_value(r, "");	/* "()" */
	lex(l);
	return KV_OK;
}

static int
operator(lexer *l, kv_selreq *r)
{
	switch (l->tok) {
	case T_IN: case T_NOTIN:
		r->op = l->tok == T_IN ? KV_SEL_IN : KV_SEL_NOTIN;
		return value_set(l, r);
	case T_EQ: case T_DEQ: case T_NE: case T_GT: case T_LT:
		r->op = l->tok == T_NE ? KV_SEL_NE : l->tok == T_GT ?
		    KV_SEL_GT : l->tok == T_LT ? KV_SEL_LT : KV_SEL_EQ;
		lex(l);
		if (l->tok == T_END || l->tok == T_COMMA) {
			add_value(r, "");
			return KV_OK;
		}
		if (!is_value(l))
			return expected(l, "identifier");
		add_value(r, l->lit);
		lex(l);
		return KV_OK;
	default:
		return expected(l, "in, notin, =, ==, !=, gt, lt");
	}
}

static int
check_values(lexer *l, const kv_selreq *r)
{
	for (size_t i = 0; i < r->nvals; i++) {
		const char *v = r->vals[i];
		char *end = NULL;

		if (!name_ok(v, strlen(v), true))
			return kv_seterr(l->err, "value \"%s\" of %s: at most "
			    "63 characters [A-Za-z0-9-_.], starting and "
			    "ending with a letter or digit", v, r->key);
		errno = 0;
		if ((r->op == KV_SEL_GT || r->op == KV_SEL_LT) &&
		    (strtoll(v, &end, 10), *v == '\0' || *end != '\0' ||
		    errno != 0))
			return kv_seterr(l->err, "value \"%s\" of %s: for "
			    "'>' and '<' an integer", v, r->key);
	}
	return KV_OK;
}

/* [!] KEY [op values], then the lexer on the token after it. */
static int
requirement(lexer *l, kv_selreq *r)
{
	bool not = l->tok == T_NOT;

	if (not)
		lex(l);
	if (!is_value(l))
		return expected(l, "identifier");
	r->key = xstrdup(l->lit);
	if (check_key(l, r->key) != KV_OK)
		return KV_ERR;
	lex(l);
	if (not || l->tok == T_END || l->tok == T_COMMA) {
		r->op = not ? KV_SEL_NOT_EXISTS : KV_SEL_EXISTS;
		return KV_OK;
	}
	if (operator(l, r) != KV_OK)
		return KV_ERR;
	return check_values(l, r);
}

static void
req_free(kv_selreq *r)
{
	free(r->key);
	for (size_t i = 0; i < r->nvals; i++)
		free(r->vals[i]);
	free(r->vals);
}

int
kv_selector_parse(const char *s, kv_selector *sel, kv_err *err)
{
	lexer l = { .s = s, .err = err };
	size_t before = sel->n;
	int rc = KV_OK;

	for (lex(&l); rc == KV_OK && l.tok != T_END;) {
		kv_selreq r = { 0 };

		if ((rc = requirement(&l, &r)) != KV_OK) {
			req_free(&r);
			break;
		}
		sel->r = xreallocarray(sel->r, sel->n + 1, sizeof(kv_selreq));
		sel->r[sel->n++] = r;
		if (l.tok == T_COMMA) {
			lex(&l);
			if (!is_value(&l) && l.tok != T_NOT)
				rc = expected(&l, "identifier after ','");
		} else if (l.tok != T_END)
			rc = expected(&l, "',' or 'end of string'");
	}
	free(l.lit);
	while (rc != KV_OK && sel->n > before)
		req_free(&sel->r[--sel->n]);
	if (sel->n == 0) {
		free(sel->r);
		sel->r = NULL;
	}
	return rc;
}

static bool
has_value(const kv_selreq *r, const char *v)
{
	for (size_t i = 0; i < r->nvals; i++)
		if (strcmp(r->vals[i], v) == 0)
			return true;
	return false;
}

static bool
req_matches(const kv_selreq *r, const kv_labels *l)
{
	const char *v = kv_labels_get(l, r->key);
	char *end = NULL;
	long long a, b;

	switch (r->op) {
	case KV_SEL_EXISTS:
		return v != NULL;
	case KV_SEL_NOT_EXISTS:
		return v == NULL;
	case KV_SEL_EQ: case KV_SEL_IN:
		return v != NULL && has_value(r, v);
	case KV_SEL_NE: case KV_SEL_NOTIN:
		return v == NULL || !has_value(r, v);
	case KV_SEL_GT: case KV_SEL_LT:
		if (v == NULL || *v == '\0')
			return false;
		errno = 0;
		a = strtoll(v, &end, 10);
		if (*end != '\0' || errno != 0)
			return false;
		b = strtoll(r->vals[0], NULL, 10);
		return r->op == KV_SEL_GT ? a > b : a < b;
	case KV_SEL_COUNT:
		break;
	}
	return false;
}

bool
kv_selector_matches(const kv_selector *sel, const kv_labels *l)
{
	for (size_t i = 0; i < sel->n; i++)
		if (!req_matches(&sel->r[i], l))
			return false;
	return true;
}

void
kv_selector_free(kv_selector *sel)
{
	for (size_t i = 0; i < sel->n; i++)
		req_free(&sel->r[i]);
	free(sel->r);
	sel->n = 0;
	sel->r = NULL;
}
