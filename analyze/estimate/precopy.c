/*
 * precopy.c - the pre-copy model (estimate.h): round i sends what the
 * guest dirtied while round i-1 was sent, until the rest can be sent
 * within the downtime limit, when the guest is paused for it (Clark et
 * al., "Live Migration of Virtual Machines", NSDI 2005; Akoush et al.,
 * MASCOTS 2010).  With lambda = dirty/bps the rounds shrink by lambda;
 * lambda >= 1 never converges unless QEMU's auto-converge throttles the
 * guest: modelled with QEMU's defaults (cpu-throttle-initial 20 %,
 * -increment 10 %, at most 99 %, raised each round in which the guest
 * dirtied more than half of what the round sent: qemu migration/ram.c
 * mig_throttle_guest_down, throttle-trigger-threshold 50).
 */
#include <math.h>

#include "analyze/estimate/estimate.h"

#define MAX_ROUNDS 4000
#define MAX_SECONDS 1.0e7

void
kv_precopy_run(double mem, double bps, double dirty, double downtime,
    bool autoconverge, kv_precopy *out)
{
	double left = mem > 0 ? mem : 0, t = 0, throttle = 0;

	out->copy = INFINITY;
	out->remaining = left;
	out->rounds = 0;
	if (bps <= 0)
		return;
	if (dirty < 0)
		dirty = 0;
	for (int r = 1; r <= MAX_ROUNDS && t < MAX_SECONDS; r++) {
		double dt = left / bps;
		double dirtied = dirty * (1 - throttle) * dt;

		t += dt;
		if (dirtied > mem)
			dirtied = mem;	/* the guest has no more to dirty */
		out->rounds = r;
		if (dirtied <= bps * downtime) {
			out->copy = t + dirtied / bps;
			out->remaining = dirtied;
			return;
		}
		if (autoconverge && dirtied > left / 2)
			throttle = throttle == 0 ? 0.2 :
			    fmin(0.99, throttle + 0.1);
		else if (!autoconverge && dirtied >= left)
			break;		/* no progress: never converges */
		left = dirtied;
	}
	out->remaining = left;
}
