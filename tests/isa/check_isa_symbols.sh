#!/usr/bin/env bash
# check_isa_symbols.sh BASE_OBJECTS [ISA ISA_OBJECTS]...: proves from the built objects that
# nothing compiled with one ISA's flags can be shared with another path (src/simd/isa_unit.hpp).
# Object lists are ':'-separated. Fails unless
#  - every symbol an ISA's objects define with external linkage is an entry point in that ISA's
#    namespace (ridge::<isa>::...), so the linker has nothing of theirs to merge with another
#    unit's copy (DW.ref.__gxx_personality_v0, a pointer to the C++ runtime's exception
#    personality routine that every unit with exception tables carries, is data, not code);
#  - every ISA has such entry points (the check cannot pass on empty objects);
#  - no other object defines a symbol in an ISA's namespace.
set -euo pipefail

base=$1
shift
status=0
isas=()
# Defined symbols with external linkage (nm: upper-case types, and u for unique globals).
external() { nm --defined-only "$@" | awk 'NF == 3 && $2 ~ /^([A-TV-Z]|u)$/ {print $3}'; }

while (($# >= 2)); do
  isa=$1 objects=$2
  shift 2
  isas+=("$isa")
  IFS=: read -r -a files <<<"$objects"
  entries=0 shared=0
  while IFS= read -r symbol; do
    [[ $symbol == DW.ref.__gxx_personality_v0 ]] && continue
    demangled=$(c++filt "$symbol")
    if [[ $demangled == "ridge::$isa::"* ]]; then
      entries=$((entries + 1))
    else
      echo "$isa: $demangled has external linkage: the linker may merge it with another path's copy"
      shared=$((shared + 1))
    fi
  done < <(external "${files[@]}")
  if ((entries == 0)); then
    echo "$isa: no entry points found in ${#files[@]} object(s)"
    status=1
  elif ((shared > 0)); then
    status=1
  else
    echo "$isa: ${#files[@]} objects, $entries entry points, nothing else external"
  fi
done

IFS=: read -r -a files <<<"$base"
pattern=$(printf '|ridge::%s::' "${isas[@]}")
pattern=${pattern:1}
while IFS= read -r symbol; do
  demangled=$(c++filt "$symbol")
  if [[ $demangled =~ ^($pattern) ]]; then
    echo "$demangled is defined outside its ISA's units"
    status=1
  fi
done < <(external "${files[@]}")
exit $status
