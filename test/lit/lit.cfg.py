"""lit configuration for mlc's FileCheck tests: `mlc-opt %s | filecheck %s`, MLIR style."""

import os
import shutil
import sys

import lit.formats

config.name = "mlc"
# lit's internal shell: lit >= 23 rejects ShTest(True) (the external bash), and the internal one
# implements pipes, redirections, `not` and `%t` the same on every platform.
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["lit.cfg.py", "Inputs"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
# Keep lit's Output/ folders (%t files) out of the source tree.
_repo_root = os.path.dirname(os.path.dirname(config.test_source_root))
config.test_exec_root = os.path.join(_repo_root, "build", "lit")

# The interpreter running lit is the venv's, whose bin/ holds mlc-opt, filecheck and the peers
# (iree-opt, xdsl-opt); put it first so RUN lines never pick up another installation.
_bin_dir = os.path.dirname(sys.executable)
_path = os.pathsep.join([_bin_dir, config.environment.get("PATH", os.environ.get("PATH", ""))])
config.environment["PATH"] = _path
for _var in ("HOME", "TMPDIR", "CI"):
    if _var in os.environ:
        config.environment[_var] = os.environ[_var]

config.substitutions.append(("%python", sys.executable))

# Optional peers: `// REQUIRES: iree` / `// REQUIRES: xdsl` in interop tests.
if shutil.which("iree-opt", path=_path):
    config.available_features.add("iree")
if shutil.which("xdsl-opt", path=_path):
    config.available_features.add("xdsl")
