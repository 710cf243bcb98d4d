/*
 * quantity.c - see quantity.h.  Grammar (k8s.io/apimachinery resource):
 *   <number><suffix>, number = digits [. digits], suffix = binarySI
 *   (Ki Mi Gi Ti Pi Ei) | decimalSI (n u m "" k M G T P E) | e<exp>.
 * The value is computed exactly as mantissa * 2^a * 10^b with a 128-bit
 * integer, so "0.5Gi" and "1500m" round as Kubernetes rounds.  Fraction
 * digits beyond what the mantissa holds only mark the value as "a little
 * more" (sticky), which rounds an exact quotient up by one.
 */
#include "quantity.h"

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

int
kv_quantity_parse(const char *s, int64_t *out, kv_err *err)
{
	const char *p = s;
	u128 mant = 0, limit = (u128)INT64_MAX, div = 1;
	int frac = 0, pow2 = 0, pow10 = 0, digits = 0;
	bool found = false, sticky = false, neg = false;

	if (*p == '+')
		p++;
	if (*p == '-') {
		neg = true;	/* only a zero may be negative: "-0" is 0 */
		p++;
	}
	for (; isdigit((unsigned char)*p); p++, digits++) {
		mant = mant * 10 + (u128)(*p - '0');
		if (mant > limit * 1000000000000000000ULL)
			goto big;
	}
	if (*p == '.') {
		/* Keep fraction digits while the mantissa has room (about
		 * 36 significant digits in all); a nonzero digit beyond
		 * that can only round the result up. */
		for (p++; isdigit((unsigned char)*p); p++, digits++) {
			if (mant <= limit * 100000000000000000ULL &&
			    frac < 400) {
				mant = mant * 10 + (u128)(*p - '0');
				frac++;
			} else if (*p != '0')
				sticky = true;
		}
	}
	if (neg && (mant != 0 || sticky))
		return kv_seterr(err, "negative quantity \"%s\"", s);
	if (digits == 0)
		return kv_seterr(err, "malformed quantity \"%s\"", s);
	if ((*p == 'e' || *p == 'E') && p[1] != '\0' &&
	    (isdigit((unsigned char)p[1]) || p[1] == '-' || p[1] == '+')) {
		int sign = 1, e = 0;

		p++;
		if (*p == '-' || *p == '+')
			sign = *p++ == '-' ? -1 : 1;
		if (!isdigit((unsigned char)*p))
			return kv_seterr(err, "malformed quantity \"%s\"", s);
		for (; isdigit((unsigned char)*p); p++) {
			e = e * 10 + (*p - '0');
			if (e > 100)
				goto big;
		}
		if (*p != '\0')
			return kv_seterr(err, "malformed quantity \"%s\"", s);
		pow10 = sign * e;
		found = true;
	} else {
		for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]);
		    i++)
			if (strcmp(p, suffixes[i].sfx) == 0) {
				pow2 = suffixes[i].pow2;
				pow10 = suffixes[i].pow10;
				found = true;
				break;
			}
	}
	if (!found)
		return kv_seterr(err, "malformed quantity \"%s\" (unknown "
		    "suffix \"%s\")", s, p);
	pow10 -= frac;
	for (; pow10 > 0; pow10--) {
		mant *= 10;
		if (mant > limit << 20)
			goto big;
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
	for (; pow2 > 0; pow2--) {
		if (mant > (~(u128)0) >> 1)
			goto big;
		mant <<= 1;
		if (mant / div > limit)
			goto big;
	}
	/* Round up; a nonzero digit dropped above makes the value a little
	 * more than mant / div, so an exact quotient goes up by one. */
	if (sticky && mant % div == 0)
		mant = mant / div + 1;
	else
		mant = (mant + div - 1) / div;
	if (mant > limit)
		goto big;
	*out = (int64_t)mant;
	return KV_OK;
big:
	return kv_seterr(err, "quantity \"%s\" is out of range", s);
}
