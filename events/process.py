"""Whether a process of this machine still runs, and when it started (Linux's /proc where it
exists): what the store's writer checks and the browser seats' sweeps ask."""

from __future__ import annotations

import os
from pathlib import Path


def pid_running(pid: int) -> bool:
    """Whether process `pid` of this machine still runs: it exists and has not ended. A
    process that ended stays listed, as a zombie, until its parent collects its exit status;
    where its parent died first, pid 1 adopts it, and in a container whose pid 1 is no init
    nothing ever does. A zombie writes nothing, so it counts as gone."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # it exists, run by someone else
    fields = _stat_fields(pid)
    return fields is None or fields[0] not in ("Z", "X")


def _stat_fields(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (Linux; None elsewhere or when the
    process is gone): its state first (``Z`` a zombie, ``X`` dead), its start time at [19]."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name (field 2) may hold spaces; the fields after its closing ')' are fixed.
    fields = stat[stat.rfind(")") + 2 :].split()
    return fields or None


def process_start(pid: int) -> str | None:
    """When process `pid` started, in clock ticks since boot (Linux), to tell reused pids apart."""
    fields = _stat_fields(pid)
    return fields[19] if fields is not None and len(fields) > 19 else None
