#!/usr/bin/env bash
# Regenerate the reference prints of every input in mlir_generic/ (see README): MLIR's (iree-opt)
# into mlir_generic/, xDSL's (xdsl-opt) generic print of MLIR's generic print into xdsl/.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here/mlir_generic"
rm -f ./*.generic.mlir ./*.custom.mlir ./*.debuginfo.mlir ./*.local.mlir
opt=(iree-opt --allow-unregistered-dialect)
for f in *.mlir; do
  x="${f%.mlir}"
  "${opt[@]}" --mlir-print-op-generic "$f" > "$x.generic.mlir"
  "${opt[@]}" --mlir-print-op-generic --mlir-print-local-scope "$f" > "$x.generic.local.mlir"
  "${opt[@]}" "$f" > "$x.custom.mlir"
  if [ "$x" = locations ]; then
    "${opt[@]}" --mlir-print-debuginfo --mlir-print-op-generic "$f" > "$x.debuginfo.mlir"
    "${opt[@]}" --mlir-print-debuginfo --mlir-print-op-generic --mlir-print-local-scope "$f" \
      > "$x.debuginfo.local.mlir"
    "${opt[@]}" --mlir-print-debuginfo "$f" > "$x.custom.debuginfo.mlir"
  fi
done

mkdir -p "$here/xdsl"
rm -f "$here"/xdsl/*.mlir
: > "$here/xdsl/FAILURES.txt"
for f in *.generic.mlir; do
  x="${f%.generic.mlir}"
  if xdsl-opt --allow-unregistered-dialect --print-op-generic "$f" > "$here/xdsl/$x.generic.mlir" \
      2> "$here/xdsl/err.tmp"; then
    :
  else
    rm -f "$here/xdsl/$x.generic.mlir"
    reason="$(grep -E 'Exception: |Error: ' "$here/xdsl/err.tmp" | tail -n 1 | sed 's/^ *//')"
    [ -n "$reason" ] || reason="$(grep -vE '^[[:space:]^]*$' "$here/xdsl/err.tmp" | tail -n 1)"
    echo "mlir_generic/$f: $reason" >> "$here/xdsl/FAILURES.txt"
  fi
done
rm -f "$here/xdsl/err.tmp"
