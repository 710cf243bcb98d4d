/*
 * quantity.h - Kubernetes resource quantities ("4Gi", "1500M", "1e3").
 *
 * kv_quantity_parse() returns the value rounded up to a whole number, as
 * Kubernetes' Value() does.  A negative zero ("-0", "-0.0Gi") is 0;
 * other negative values, unknown suffixes, malformed
 * numbers and values beyond KV_QUANTITY_MAX are errors (err says which).
 *
 * KV_QUANTITY_MAX (4Ei, 2^62) bounds every quantity at load, far above
 * any node's memory or CPU and a quarter of int64: sums of a few
 * quantities cannot overflow, and what is computed from them goes
 * through the saturating kv_sat_add()/kv_sat_mul() of util.h.
 */
#ifndef KV_QUANTITY_H
#define KV_QUANTITY_H

#include <stdint.h>

#include "analyze/util/util.h"

#define KV_QUANTITY_MAX ((int64_t)1 << 62)

int kv_quantity_parse(const char *s, int64_t *out, kv_err *err);
/* The value in thousandths ("500m" = 500, "2" = 2000), rounded up, as
 * Kubernetes' MilliValue() (CPU requests). */
int kv_quantity_parse_milli(const char *s, int64_t *out, kv_err *err);

#endif
