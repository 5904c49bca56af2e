#!/usr/bin/env bash
# check_layers.sh ROOT: checks the include graph of ROOT/src and ROOT/tools against ridge's
# layering (docs/architecture.md): machine -> runtime -> simd -> kernels -> drivers (gemm, gemv,
# attention, probe) -> blas, capi -> tools. A file may include the public headers (ridge/...),
# its own folder's headers, and those of the layers below its own; never a layer above, and
# never another folder of its own layer (two drivers share code only through the kernels
# layer). Prints every offending include and exits 1 if there is one.
set -euo pipefail

root=$1
rank() {
  case $1 in
    machine) echo 1 ;;
    runtime) echo 2 ;;
    simd) echo 3 ;;
    kernels) echo 4 ;;
    gemm | gemv | attention | probe) echo 5 ;;
    blas | capi) echo 6 ;;
    tools) echo 7 ;;
    *) echo "" ;;
  esac
}

status=0 edges=0
while IFS= read -r file; do
  relative=${file#"$root"/}
  if [[ $relative == tools/* ]]; then
    layer=tools
  else
    layer=${relative#src/}
    layer=${layer%%/*}
  fi
  from=$(rank "$layer")
  if [[ -z $from ]]; then
    echo "$relative: folder '$layer' is not a layer (add it to tests/layers/check_layers.sh)"
    status=1
    continue
  fi
  while IFS= read -r target; do
    [[ $target == */* ]] || continue  # a header beside the file
    folder=${target%%/*}
    [[ $folder == ridge || $folder == "$layer" ]] && continue
    edges=$((edges + 1))
    to=$(rank "$folder")
    if [[ -z $to ]]; then
      echo "$relative includes $target: '$folder' is not a layer"
      status=1
    elif ((to >= from)); then
      echo "$relative includes $target: $layer may not use $folder (same layer or above)"
      status=1
    fi
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$file")
done < <(find "$root/src" "$root/tools" -name '*.cpp' -o -name '*.hpp' -o -name '*.h' | sort)

((status == 0)) && echo "include graph: $edges edges between layers, all pointing down"
exit $status
