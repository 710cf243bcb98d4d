#!/usr/bin/env python3
"""interrupt.py SIGNAL LOG PATTERN RCFILE COMMAND...

Run COMMAND (with SIGINT and SIGTERM at their defaults, as at a terminal,
even when this helper was started in the background), wait until a line of
LOG contains PATTERN, send SIGNAL (INT or TERM) to COMMAND and write its exit
status to RCFILE. Fails if the pattern never shows up within 180 s (the
command is waited for, not timed: under load it may take long to get
there) or the command takes more than 30 s to stop after the signal.
"""

import os
import signal
import subprocess
import sys
import time


def defaults():
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def main():
    sig, log, pattern, rcfile = sys.argv[1:5]
    cmd = sys.argv[5:]
    p = subprocess.Popen(cmd, preexec_fn=defaults)
    deadline = time.time() + 180
    while time.time() < deadline:
        if p.poll() is not None:
            print("interrupt.py: command ended before the signal (status %d)" % p.returncode)
            return 1
        try:
            with open(log) as f:
                if any(pattern in line for line in f):
                    break
        except FileNotFoundError:
            pass
        time.sleep(0.05)
    else:
        p.kill()
        print("interrupt.py: %r never showed up in %s" % (pattern, log))
        return 1
    sent = time.time()
    p.send_signal(getattr(signal, "SIG" + sig))
    try:
        rc = p.wait(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        print("interrupt.py: still running 30 s after SIG%s" % sig)
        return 1
    print("interrupt.py: SIG%s, status %d after %.2f s" % (sig, rc, time.time() - sent))
    with open(rcfile, "w") as f:
        f.write("%d\n" % (rc if rc >= 0 else 128 - rc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
