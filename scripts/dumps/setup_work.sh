#!/bin/sh
# Makes dumps-work/ in the current directory for make_fixtures.py: slime's source (git archive of
# the given checkout's HEAD), a sitecustomize that gives torch 1.13 what slime's modules expect
# (torch.compile as the identity, a placeholder distributed_c10d._world), and an import-only httpx.
set -e
slime=${1:?usage: setup_work.sh /path/to/slime-checkout}
mkdir -p dumps-work/slime dumps-work/shim dumps-work/stubs/httpx
git -C "$slime" archive HEAD | tar -x -C dumps-work/slime
cat > dumps-work/shim/sitecustomize.py <<'PY'
import torch
if not hasattr(torch, "compile"):
    def _compile(fn=None, **_kwargs):
        return fn if fn is not None else (lambda f: f)
    torch.compile = _compile
import torch.distributed.distributed_c10d as _c10d
if not hasattr(_c10d, "_world"):
    _c10d._world = type("_World", (), {"pg_group_ranks": {}})()
PY
cat > dumps-work/stubs/httpx/__init__.py <<'PY'
class AsyncClient: ...
class Client: ...
class Limits:
    def __init__(self, *a, **k): ...
class Timeout:
    def __init__(self, *a, **k): ...
PY
