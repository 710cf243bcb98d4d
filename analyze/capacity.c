/*
 * capacity.c - room on nodes (capacity.h).
 */
#include "capacity.h"

/* Every one of CPU, memory and pod count of need is left in free. */
bool
kv_res_fits(const kv_res *free, const kv_res *need)
{
	return need->cpu_millis <= free->cpu_millis &&
	    need->memory <= free->memory && need->pods <= free->pods;
}

/* Use need up from free. */
void
kv_res_take(kv_res *free, const kv_res *need)
{
	free->cpu_millis -= need->cpu_millis;
	free->memory -= need->memory;
	free->pods -= need->pods;
}
