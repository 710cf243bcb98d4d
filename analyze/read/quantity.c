/*
 * quantity.c - see quantity.h.  Grammar (k8s.io/apimachinery resource):
 *   <number><suffix>, number = digits [. digits], suffix = binarySI
 *   (Ki Mi Gi Ti Pi Ei) | decimalSI (n u m "" k M G T P E) | e<exp>.
 * The value is computed exactly as mantissa * 2^a * 10^b with a 128-bit
 * integer, so "0.5Gi" and "1500m" round as Kubernetes rounds.  Fraction
 * digits beyond what the mantissa holds only mark the value as "a little
 * more" (sticky), which rounds an exact quotient up by one.
 */
#include "analyze/read/quantity.h"

#include <ctype.h>
#include <string.h>

typedef unsigned __int128 u128;

static const struct {
	const char *sfx;
	int pow2, pow10;
} suffixes[] = {
	{ "Ki", 10, 0 }, { "Mi", 20, 0 }, { "Gi", 30, 0 }, { "Ti", 40, 0 },
	{ "Pi", 50, 0 }, { "Ei", 60, 0 },
	{ "n", 0, -9 }, { "u", 0, -6 }, { "m", 0, -3 }, { "", 0, 0 },
	{ "k", 0, 3 }, { "M", 0, 6 }, { "G", 0, 9 }, { "T", 0, 12 },
	{ "P", 0, 15 }, { "E", 0, 18 },
};

/* The number being read: mantissa, fraction digits, powers and whether a
 * nonzero digit was dropped. */
typedef struct qnum {
	u128 mant;
	int frac, pow2, pow10, digits;
	bool sticky;
} qnum;

static const u128 limit = (u128)KV_QUANTITY_MAX;

/* Digits and fraction; false when the mantissa is out of range. */
static bool
parse_digits(const char **pp, qnum *q)
{
	const char *p = *pp;

	for (; isdigit((unsigned char)*p); p++, q->digits++) {
		q->mant = q->mant * 10 + (u128)(*p - '0');
		if (q->mant > limit * 1000000000000000000ULL)
			return false;
	}
	if (*p == '.') {
		/* Keep fraction digits while the mantissa has room (about
		 * 36 significant digits in all); a nonzero digit beyond
		 * that can only round the result up. */
		for (p++; isdigit((unsigned char)*p); p++, q->digits++) {
			if (q->mant <= limit * 100000000000000000ULL &&
			    q->frac < 400) {
				q->mant = q->mant * 10 + (u128)(*p - '0');
				q->frac++;
			} else if (*p != '0')
				q->sticky = true;
		}
	}
	*pp = p;
	return true;
}

/* An exponent or a suffix: 0, or -1 malformed, -2 out of range. */
static int
parse_suffix(const char *p, qnum *q)
{
	if ((*p == 'e' || *p == 'E') && p[1] != '\0' &&
	    (isdigit((unsigned char)p[1]) || p[1] == '-' || p[1] == '+')) {
		int sign = 1, e = 0;

		p++;
		if (*p == '-' || *p == '+')
			sign = *p++ == '-' ? -1 : 1;
		if (!isdigit((unsigned char)*p))
			return -1;
		for (; isdigit((unsigned char)*p); p++) {
			e = e * 10 + (*p - '0');
			if (e > 100)
				return -2;
		}
		if (*p != '\0')
			return -1;
		q->pow10 = sign * e;
		return 0;
	}
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
		if (strcmp(p, suffixes[i].sfx) == 0) {
			q->pow2 = suffixes[i].pow2;
			q->pow10 = suffixes[i].pow10;
			return 0;
		}
	return -3;
}

/* mant * 2^pow2 * 10^pow10 / 10^frac, rounded up; false when out of
 * range. */
static bool
scale(qnum *q, int64_t *out)
{
	u128 mant = q->mant, div = 1;
	int pow10 = q->pow10 - q->frac;
	bool sticky = q->sticky;

	for (; pow10 > 0; pow10--) {
		mant *= 10;
		if (mant > limit << 20)
			return false;
	}
	for (; pow10 < 0; pow10++) {
		if (div <= (u128)1 << 100)
			div *= 10;
		else {
			/* div is large enough: scale the mantissa instead */
			sticky = sticky || mant % 10 != 0;
			mant /= 10;
		}
	}
	for (int k = q->pow2; k > 0; k--) {
		if (mant > (~(u128)0) >> 1)
			return false;
		mant <<= 1;
		if (mant / div > limit)
			return false;
	}
	/* Round up; a nonzero digit dropped above makes the value a little
	 * more than mant / div, so an exact quotient goes up by one. */
	if (sticky && mant % div == 0)
		mant = mant / div + 1;
	else
		mant = (mant + div - 1) / div;
	if (mant > limit)
		return false;
	*out = (int64_t)mant;
	return true;
}

/* The value times 10^scale10, rounded up. */
static int
parse_scaled(const char *s, int scale10, int64_t *out, kv_err *err)
{
	const char *p = s;
	qnum q = {0};
	bool neg = false;
	int rc;

	if (*p == '+')
		p++;
	if (*p == '-') {
		neg = true;	/* only a zero may be negative: "-0" is 0 */
		p++;
	}
	if (!parse_digits(&p, &q))
		goto big;
	if (neg && (q.mant != 0 || q.sticky))
		return kv_seterr(err, "negative quantity \"%s\"", s);
	if (q.digits == 0)
		return kv_seterr(err, "malformed quantity \"%s\"", s);
	rc = parse_suffix(p, &q);
	if (rc == -1)
		return kv_seterr(err, "malformed quantity \"%s\"", s);
	if (rc == -3)
		return kv_seterr(err, "malformed quantity \"%s\" (unknown "
		    "suffix \"%s\")", s, p);
	q.pow10 += scale10;
	if (rc == 0 && scale(&q, out))
		return KV_OK;
big:
	return kv_seterr(err, "quantity \"%s\" is out of range (beyond "
	    "4Ei)", s);
}

int
kv_quantity_parse(const char *s, int64_t *out, kv_err *err)
{
	return parse_scaled(s, 0, out, err);
}

int
kv_quantity_parse_milli(const char *s, int64_t *out, kv_err *err)
{
	return parse_scaled(s, 3, out, err);
}
