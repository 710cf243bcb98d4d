/*
 * quantity.h - Kubernetes resource quantities ("4Gi", "1500M", "1e3").
 *
 * kv_quantity_parse() returns the value rounded up to a whole number, as
 * Kubernetes' Value() does.  A negative zero ("-0", "-0.0Gi") is 0;
 * other negative values, unknown suffixes, malformed
 * numbers and values beyond int64 are errors (err says which).
 */
#ifndef KV_QUANTITY_H
#define KV_QUANTITY_H

#include <stdint.h>

#include "util.h"

int kv_quantity_parse(const char *s, int64_t *out, kv_err *err);
/* The value in thousandths ("500m" = 500, "2" = 2000), rounded up, as
 * Kubernetes' MilliValue() (CPU requests). */
int kv_quantity_parse_milli(const char *s, int64_t *out, kv_err *err);

#endif
