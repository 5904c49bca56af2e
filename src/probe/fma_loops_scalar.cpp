// Multiply-add throughput of plain scalar code (one lane). Compiled with -fno-tree-vectorize
// (src/CMakeLists.txt): otherwise GCC packs independent chains into SSE vectors, which is not
// what scalar code gets. The baseline ISA has no fused multiply-add (fma_loop.hpp: unfused_chains).
#include "probe/fma_loop.hpp"

namespace ridge::probe {
namespace {

template <class T>
struct Scalar {
  using scalar = T;
  using reg = T;
  static constexpr int width = 1;
  static reg set1(T x) { return x; }
  static reg mul(reg a, reg b) { return a * b; }
  static reg add(reg a, reg b) { return a + b; }
  static T reduce_add(reg a) { return a; }
};

}  // namespace

FmaLoops scalar_fma_loops() { return make_fma_loops<Scalar<float>, Scalar<double>, kUnfusedChains, kMoreUnfusedChains, false>(); }

}  // namespace ridge::probe
