#!/bin/sh
# Makes dumps-work/ (or WORKDIR) in the current directory for make_fixtures.py: slime's source (git
# archive of the given checkout's HEAD, or of COMMIT: make_rank_fixtures.py needs d38dc29c9), a
# sitecustomize that gives torch 1.13 what slime's modules expect (torch.compile as the identity, a
# placeholder distributed_c10d._world), and an import-only httpx.
set -e
slime=${1:?usage: setup_work.sh /path/to/slime-checkout [COMMIT] [WORKDIR]}
commit=${2:-HEAD}
work=${3:-dumps-work}
mkdir -p "$work/slime" "$work/shim" "$work/stubs/httpx"
git -C "$slime" archive "$commit" | tar -x -C "$work/slime"
cat > "$work/shim/sitecustomize.py" <<'PY'
import torch
if not hasattr(torch, "compile"):
    def _compile(fn=None, **_kwargs):
        return fn if fn is not None else (lambda f: f)
    torch.compile = _compile
import torch.distributed.distributed_c10d as _c10d
if not hasattr(_c10d, "_world"):
    _c10d._world = type("_World", (), {"pg_group_ranks": {}})()
PY
cat > "$work/stubs/httpx/__init__.py" <<'PY'
class AsyncClient: ...
class Client: ...
class Limits:
    def __init__(self, *a, **k): ...
class Timeout:
    def __init__(self, *a, **k): ...
PY
