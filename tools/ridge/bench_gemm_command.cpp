// `ridge bench gemm`: GFLOP/s of ridge's GEMM over a shape sweep, as a fraction of the measured
// FMA peak, alternating each timed run with the peer libraries named by --vs; for bf16 and int8
// operands against the peers' bf16 and int8 GEMM and ridge's own sgemm.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "bench_common.hpp"
#include "commands.hpp"
#include "onednn_matmul.hpp"
#include "peer_library.hpp"
#include "ridge/probe.hpp"
#include "ridge/ridge.h"
#include "ridge/ridge.hpp"
#include "timing.hpp"

namespace ridge::cli {
namespace {

struct Shape {
  std::int64_t m, n, k;
};

// The default sweep: squares, LLM decoding (M = 1..32 against 4096 x 4096), an MLP
// projection, a short-K update and two awkward sizes.
const std::vector<Shape> kDefaultShapes = {
    {16, 16, 16},     {32, 32, 32},     {64, 64, 64},       {128, 128, 128},    {256, 256, 256},
    {512, 512, 512},  {1024, 1024, 1024}, {2048, 2048, 2048}, {4096, 4096, 4096},
    {1, 4096, 4096},  {8, 4096, 4096},  {32, 4096, 4096},   {128, 4096, 4096},  {512, 4096, 11008},
    {4096, 4096, 128}, {1000, 1000, 1000}, {1023, 1025, 1027}};

std::vector<Shape> shapes_from(const std::string& text) {
  if (text.empty()) return kDefaultShapes;
  std::vector<Shape> shapes;
  for (const auto& e : parse_shapes(text, "MxNxK")) shapes.push_back({e[0], e[1], e[2]});
  return shapes;
}

struct Options {
  std::string shapes;
  std::string dtype = "f32";
  std::string op = "nn";  // op(A), op(B): n or t each
  std::vector<std::string> epilogue;  // operation names, in order
  std::string c_dtype;  // C stored as: f32 or bf16; empty: the dtype's own (int8: int32)
  std::vector<std::string> variants;  // --vs unfused, plain, sgemm, unpacked: ridge otherwise
  bool packed = false;                // ridge's B packed once beforehand (PackedMatrix)
  int threads = 0;
  int runs = 7;
  PeerOptions peers;
};

// The operands an epilogue reads: a bias of N values and an M x N residual, row-major.
struct EpilogueInputs {
  std::vector<float> bias, residual;
};

// The epilogue named by `names` (bias, relu, gelu_tanh, gelu_erf, silu, residual), one operation
// each in order, on C of n columns.
Epilogue make_epilogue(const std::vector<std::string>& names, const EpilogueInputs& in,
                       std::int64_t n) {
  Epilogue e;
  for (const std::string& name : names) {
    if (name == "bias") {
      e.add_per_column(in.bias.data());
    } else if (name == "residual") {
      e.add_matrix(in.residual.data(), std::max<std::int64_t>(1, n));
    } else if (name == "relu") {
      e.activation(Activation::relu);
    } else if (name == "gelu_tanh") {
      e.activation(Activation::gelu_tanh);
    } else if (name == "gelu_erf") {
      e.activation(Activation::gelu_erf);
    } else {
      e.activation(Activation::silu);
    }
  }
  return e;
}

// The unfused sequence's element-wise passes over C (m x n, row-major): each operation of the
// epilogue on its own, as ridge::gemm with K = 0 (C = C, then the one operation), which splits a
// large C between the threads.
void run_passes(const std::vector<Epilogue>& passes, float* c, std::int64_t m, std::int64_t n) {
  for (const Epilogue& pass : passes)
    gemm(1.0f, row_major<const float>(nullptr, m, 0), row_major<const float>(nullptr, 0, n), 1.0f,
         row_major(c, m, n), pass);
}

// body(begin, end) over [0, count), split between `threads` threads once the range is large
// enough to repay starting them: the unfused sequence's own element-wise passes, threaded as a
// framework would thread them.
void split(std::int64_t count, int threads,
           const std::function<void(std::int64_t, std::int64_t)>& body) {
  constexpr std::int64_t kMinPerThread = 64 * 1024;
  const int used = static_cast<int>(std::clamp<std::int64_t>(count / kMinPerThread, 1, threads));
  std::vector<std::thread> team;
  const std::int64_t part = (count + used - 1) / used;
  for (int t = 1; t < used; ++t) team.emplace_back(body, t * part, std::min(count, (t + 1) * part));
  body(0, std::min(count, part));
  for (std::thread& thread : team) thread.join();
}

// The unfused sequence's rounding of a float C into a bf16 one.
void round_pass(const float* c, bf16* out, std::int64_t count, int threads) {
  split(count, threads, [=](std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) out[i] = to_bf16(c[i]);
  });
}

// The heading line saying what the timed calls do after the product, if anything.
void print_packed_heading(const Options& o) {
  if (o.packed)
    std::printf(
        "ridge's B packed once per shape, untimed (ridge::PackedMatrix); unpacked: "
        "ridge's call on B as stored\n");
}

// A oneDNN peer's matmul primitive with the epilogue as post-ops, in a column of its own beside
// the peer's GEMM and passes.
struct MatmulColumn {
  const PeerLibrary* peer;
  std::string name;     // "NAME matmul"
  std::string kernels;  // oneDNN's implementation, such as brg:avx512_core
};

void print_epilogue_heading(const Options& o, bool dequantised,
                            const std::vector<MatmulColumn>& matmul_columns = {}) {
  if (o.epilogue.empty() && o.c_dtype != "bf16" && !dequantised) return;
  std::printf("after the product:");
  if (dequantised) std::printf(" dequantise");
  for (const std::string& name : o.epilogue) std::printf(" %s", name.c_str());
  if (o.c_dtype == "bf16") std::printf(" round-to-bf16");
  std::printf(" (ridge fused; ");
  for (const MatmulColumn& column : matmul_columns)
    std::printf("%s (%s)%s", column.name.c_str(), column.kernels.c_str(),
                &column == &matmul_columns.back() ? ": " : ", ");
  if (!matmul_columns.empty())
    std::printf("oneDNN's matmul primitive with them as post-ops, created once per shape; other ");
  std::printf(
      "peer columns and unfused: their GEMM, then one pass over C per step; plain: ridge's "
      "GEMM alone)\n");
}

// The matmul columns of the oneDNN peers: f32 into an f32 C (the bench's beta is 0), where the
// library can create the primitive; the kernels it chose on a small shape. Says on stderr why a
// oneDNN peer has none.
std::vector<MatmulColumn> matmul_columns(const Options& o,
                                         const std::vector<std::unique_ptr<PeerLibrary>>& peers) {
  std::vector<MatmulColumn> columns;
  if (o.dtype != "f32" || o.epilogue.empty()) return columns;
  for (const auto& peer : peers) {
    if (!OnednnMatmul::is_onednn(*peer)) continue;
    try {
      if (o.c_dtype == "bf16") throw std::runtime_error("its C would be f32, not bf16");
      // Bound to nothing: created only, never run.
      const OnednnMatmul small(*peer, {16, 16, 16, o.op[0] == 't', o.op[1] == 't'}, o.epilogue);
      columns.push_back({peer.get(), peer->name() + " matmul", small.implementation()});
    } catch (const std::runtime_error& e) {
      std::fprintf(stderr, "no %s matmul column: %s\n", peer->name().c_str(), e.what());
    }
  }
  return columns;
}

// The per-tensor scale the dequantised int8 products apply (any value: it costs the same).
constexpr float kDequantScale = 1.0f / 4096;

template <class T>
void bench(const Options& o, const std::vector<std::unique_ptr<PeerLibrary>>& peers) {
  const bool f32 = sizeof(T) == 4;
  const std::vector<Shape> shapes = shapes_from(o.shapes);
  const double peak = probe::fma_peak_gflops(f32 ? probe::FmaType::f32 : probe::FmaType::f64,
                                             o.threads, active_isa());
  const bool trans_a = o.op[0] == 't', trans_b = o.op[1] == 't';
  std::printf("ridge bench gemm: %s, row-major %c%c, %d thread%s, isa %s, median of %d runs\n",
              o.dtype.c_str(), trans_a ? 'T' : 'N', trans_b ? 'T' : 'N', o.threads,
              o.threads == 1 ? "" : "s", isa_name(active_isa()), o.runs);
  const std::vector<MatmulColumn> matmuls = matmul_columns(o, peers);
  print_epilogue_heading(o, false, matmuls);
  print_packed_heading(o);
  std::printf("measured %s FMA peak on %d thread%s: %.1f GFLOP/s\n", o.dtype.c_str(), o.threads,
              o.threads == 1 ? "" : "s", peak);
  std::printf("%-18s %9s %7s %6s", "M x N x K", "ridge", "spread", "%peak");
  std::vector<std::string> matmul_names;
  for (const MatmulColumn& matmul : matmuls) matmul_names.push_back(matmul.name);
  PeerColumns columns(peers, matmul_names, o.variants);
  columns.print_heading();
  std::printf("\n");

  std::mt19937 rng(42);
  for (const Shape& s : shapes) {
    std::vector<T> a(static_cast<std::size_t>(std::max<std::int64_t>(1, s.m * s.k)));
    std::vector<T> b(static_cast<std::size_t>(std::max<std::int64_t>(1, s.k * s.n)));
    std::vector<T> c(static_cast<std::size_t>(std::max<std::int64_t>(1, s.m * s.n)));
    fill_random(a, rng);
    fill_random(b, rng);
    // Stored row-major: A is m x k (k x m when transposed), B k x n (n x k when transposed).
    const std::int64_t lda = std::max<std::int64_t>(1, trans_a ? s.m : s.k),
                       ldb = std::max<std::int64_t>(1, trans_b ? s.k : s.n),
                       ldc = std::max<std::int64_t>(1, s.n);
    MatrixView<const T> a_view =
        row_major<const T>(a.data(), trans_a ? s.k : s.m, trans_a ? s.m : s.k, lda);
    MatrixView<const T> b_view =
        row_major<const T>(b.data(), trans_b ? s.n : s.k, trans_b ? s.k : s.n, ldb);
    if (trans_a) a_view = a_view.transposed();
    if (trans_b) b_view = b_view.transposed();
    // With an epilogue (f32): ridge applies it fused, and oneDNN's matmul primitive as its
    // post-ops; every other contender as passes after.
    EpilogueInputs inputs;
    Epilogue fused;
    std::vector<Epilogue> passes;
    if constexpr (sizeof(T) == 4) {
      if (!o.epilogue.empty()) {
        inputs.bias.resize(static_cast<std::size_t>(std::max<std::int64_t>(1, s.n)));
        inputs.residual.resize(c.size());
        fill_random(inputs.bias, rng);
        fill_random(inputs.residual, rng);
        fused = make_epilogue(o.epilogue, inputs, s.n);
        for (const std::string& name : o.epilogue)
          passes.push_back(make_epilogue({name}, inputs, s.n));
      }
    }
    std::unique_ptr<PackedMatrix> packed_b;
    if constexpr (sizeof(T) == 4) {
      if (o.packed) packed_b = std::make_unique<PackedMatrix>(b_view);
    }
    // A bf16 C (f32): ridge rounds each tile as it stores it, the others round C in a pass after.
    std::vector<bf16> c16(o.c_dtype == "bf16" ? c.size() : 0);
    const auto finish_unfused = [&] {
      if constexpr (sizeof(T) == 4) {
        run_passes(passes, c.data(), s.m, s.n);
        if (!c16.empty()) round_pass(c.data(), c16.data(), s.m * s.n, o.threads);
      }
    };
    std::vector<Contender> contenders;
    contenders.push_back({"ridge", [&] {
                            const MatrixView<T> c_view = row_major<T>(c.data(), s.m, s.n, ldc);
                            if constexpr (sizeof(T) == 4) {
                              if (!c16.empty()) {
                                gemm(1.0f, a_view, b_view, row_major(c16.data(), s.m, s.n, ldc),
                                     fused);
                              } else if (packed_b) {
                                gemm(T(1), a_view, *packed_b, T(0), c_view, fused);
                              } else {
                                gemm(T(1), a_view, b_view, T(0), c_view, fused);
                              }
                            } else {
                              gemm(T(1), a_view, b_view, T(0), c_view);
                            }
                          }, {}});
    for (const auto& p : peers) {
      PeerLibrary* peer = p.get();
      if (f32 ? !peer->has_sgemm() : !peer->has_dgemm()) {
        contenders.push_back({peer->name(), nullptr, {}});
        continue;
      }
      contenders.push_back({peer->name(), [&, peer] {
                              if constexpr (sizeof(T) == 4) {
                                peer->sgemm(trans_a, trans_b, s.m, s.n, s.k, a.data(), lda,
                                            b.data(), ldb, 0.0f, c.data(), ldc);
                                finish_unfused();
                              } else {
                                peer->dgemm(trans_a, trans_b, s.m, s.n, s.k, a.data(), lda,
                                            b.data(), ldb, 0.0, c.data(), ldc);
                              }
                            }, {}});
    }
    char shape[64];
    std::snprintf(shape, sizeof(shape), "%lldx%lldx%lld", static_cast<long long>(s.m),
                  static_cast<long long>(s.n), static_cast<long long>(s.k));
    std::vector<std::unique_ptr<OnednnMatmul>> primitives;  // created per shape, untimed
    if constexpr (sizeof(T) == 4) {
      for (const MatmulColumn& column : matmuls) {
        std::function<void()> call;
        try {
          const auto& primitive = primitives.emplace_back(std::make_unique<OnednnMatmul>(
              *column.peer,
              OnednnMatmul::Operands{s.m, s.n, s.k, trans_a, trans_b, a.data(), b.data(),
                                     inputs.bias.data(), inputs.residual.data(), c.data()},
              o.epilogue));
          if (primitive->implementation() != column.kernels)
            std::fprintf(stderr, "%s, %s: runs %s, not %s\n", column.name.c_str(), shape,
                         primitive->implementation().c_str(), column.kernels.c_str());
          call = [p = primitive.get()] { p->run(); };
        } catch (const std::runtime_error& e) {
          std::fprintf(stderr, "%s, %s: %s\n", column.name.c_str(), shape, e.what());
        }
        contenders.push_back({column.name, call, {}});
      }
      for (const std::string& variant : o.variants)
        contenders.push_back(
            {variant,
             [&, unfused = variant == "unfused", unpacked = variant == "unpacked"] {
               const MatrixView<float> c_view = row_major<float>(c.data(), s.m, s.n, ldc);
               if (unpacked) {
                 gemm(1.0f, a_view, b_view, 0.0f, c_view, fused);
                 return;
               }
               gemm(1.0f, a_view, b_view, 0.0f, c_view);
               if (unfused) finish_unfused();
             },
             {}});
    }
    const double flop = 2.0 * s.m * s.n * s.k;
    time_alternately(contenders, flop, o.runs);

    const Summary mine = summarize(contenders[0].rates);
    std::printf("%-18s %9.1f %6.1f%% %5.1f%%", shape, mine.median, 100 * mine.spread(),
                100 * mine.median / peak);
    const double best_peer = columns.print_row(contenders);
    if (s.m == 1 && mine.median > 0) {
      // M = 1 streams B once: report the bandwidth it reached.
      const double seconds = flop / (mine.median * 1e9);
      std::printf("  B read at %.1f GB/s",
                  static_cast<double>(s.k * s.n * sizeof(T)) / seconds * 1e-9);
    }
    columns.print_vs_best(mine.median, best_peer);
    std::printf("\n");
    std::fflush(stdout);
  }
  columns.print_means();
}

// Narrow operands: int8 (A uint8 or int8, B int8, C int32; no zero points or offsets) against
// the peers' int8 GEMM (oneDNN's dnnl_gemm_u8s8s32 / s8s8s32, which may saturate where the CPU
// lacks VNNI), or bf16 (C float) against their bf16 GEMM (PeerLibrary::has_sbgemm); and, as --vs
// sgemm, ridge's own sgemm on the same values in float. With an epilogue or a float or bf16 C,
// int8 is dequantised (ridge::gemm on int8 views, C = epilogue(scale x the int32 product)),
// which the others do as passes after their int32 GEMM.
template <class SourceA>
void bench_narrow(const Options& o, const std::vector<std::unique_ptr<PeerLibrary>>& peers) {
  constexpr bool kBf16 = std::is_same_v<SourceA, bf16>;
  using SourceB = std::conditional_t<kBf16, bf16, std::int8_t>;
  using C = std::conditional_t<kBf16, float, std::int32_t>;
  const std::vector<Shape> shapes = shapes_from(o.shapes);
  const bool trans_a = o.op[0] == 't', trans_b = o.op[1] == 't';
  const bool dequantised = !kBf16 && (!o.epilogue.empty() || !o.c_dtype.empty());
  const bool bf16_c = o.c_dtype == "bf16";
  std::printf(
      "ridge bench gemm: %s (C %s), row-major %c%c, %d thread%s, isa %s, median of %d "
      "runs, %s (2 M N K a call)\n",
      o.dtype.c_str(),
      bf16_c                 ? "bf16"
      : kBf16 || dequantised ? "float"
                             : "int32",
      trans_a ? 'T' : 'N', trans_b ? 'T' : 'N', o.threads, o.threads == 1 ? "" : "s",
      isa_name(active_isa()), o.runs, kBf16 ? "GFLOP/s" : "GOP/s");
  print_epilogue_heading(o, dequantised);
  print_packed_heading(o);
  std::printf("%-18s %9s %7s", "M x N x K", "ridge", "spread");
  PeerColumns columns(peers, {}, o.variants);
  columns.print_heading();
  std::printf("\n");

  std::mt19937 rng(42);
  const auto widened = []<class S>(const std::vector<S>& v) {
    std::vector<float> f(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
      if constexpr (std::is_same_v<S, bf16>) {
        f[i] = to_float(v[i]);
      } else {
        f[i] = static_cast<float>(v[i]);
      }
    }
    return f;
  };
  const auto bits = [](const std::vector<bf16>& v) {
    return reinterpret_cast<const std::uint16_t*>(v.data());
  };
  for (const Shape& s : shapes) {
    const auto count = [](std::int64_t n) {
      return static_cast<std::size_t>(std::max<std::int64_t>(1, n));
    };
    std::vector<SourceA> a(count(s.m * s.k));
    std::vector<SourceB> b(count(s.k * s.n));
    fill_random(a, rng);
    fill_random(b, rng);
    std::vector<C> c(count(s.m * s.n));
    const std::int64_t lda = std::max<std::int64_t>(1, trans_a ? s.m : s.k),
                       ldb = std::max<std::int64_t>(1, trans_b ? s.k : s.n),
                       ldc = std::max<std::int64_t>(1, s.n);
    // op(X) of row-major storage of X's element type.
    const auto views = [&]<class SA, class SB>(const SA* a_data, const SB* b_data) {
      MatrixView<const SA> av =
          row_major<const SA>(a_data, trans_a ? s.k : s.m, trans_a ? s.m : s.k, lda);
      MatrixView<const SB> bv =
          row_major<const SB>(b_data, trans_b ? s.n : s.k, trans_b ? s.k : s.n, ldb);
      return std::pair{trans_a ? av.transposed() : av, trans_b ? bv.transposed() : bv};
    };
    const char ta = trans_a ? 'T' : 'N', tb = trans_b ? 'T' : 'N';
    // The float result (int8 dequantised: `c` holds the int32 product first), the bf16 C, and
    // the epilogue: fused by ridge, passes after the GEMM for the others.
    std::vector<float> dequant(dequantised ? c.size() : 0);
    float* result = nullptr;
    if constexpr (kBf16) {
      result = c.data();
    } else {
      result = dequant.data();
    }
    std::vector<bf16> c16(bf16_c ? c.size() : 0);
    EpilogueInputs inputs;
    if (!o.epilogue.empty()) {
      inputs.bias.resize(count(s.n));
      inputs.residual.resize(c.size());
      fill_random(inputs.bias, rng);
      fill_random(inputs.residual, rng);
    }
    const Epilogue fused = make_epilogue(o.epilogue, inputs, s.n);
    std::vector<Epilogue> passes;
    for (const std::string& name : o.epilogue) passes.push_back(make_epilogue({name}, inputs, s.n));
    const auto finish_unfused = [&] {
      if constexpr (!kBf16) {
        if (dequantised) {
          split(s.m * s.n, o.threads, [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t i = begin; i < end; ++i)
              dequant[i] = static_cast<float>(c[i]) * kDequantScale;
          });
        }
      }
      if (result != nullptr) run_passes(passes, result, s.m, s.n);
      if (bf16_c) round_pass(result, c16.data(), s.m * s.n, o.threads);
    };
    const bool converts = dequantised || bf16_c || !o.epilogue.empty();
    // --packed: ridge's B packed once per shape beforehand, untimed (for int8 into an int32 C,
    // through the C API's handle).
    std::unique_ptr<PackedMatrix> packed_b;
    std::unique_ptr<ridge_packed_matrix, void (*)(ridge_packed_matrix*)> packed_handle(
        nullptr, &ridge_packed_matrix_destroy);
    if (o.packed) {
      const auto [av, bv] = views(a.data(), b.data());
      if constexpr (kBf16) {
        packed_b = std::make_unique<PackedMatrix>(bv);
      } else if (converts) {
        packed_b = std::make_unique<PackedMatrix>(bv, std::int8_t{0});
      } else {
        ridge_packed_matrix* handle = nullptr;
        if (ridge_gemm_s8_pack_b(tb, s.k, s.n, b.data(), ldb, 0, &handle) != 0)
          throw std::runtime_error("ridge_gemm_s8_pack_b failed");
        packed_handle.reset(handle);
      }
    }
    // ridge's GEMM alone (as the unfused sequence starts), on B as stored or packed.
    const auto plain = [&](bool packed) {
      const std::int32_t no_offset = 0;
      int status = 0;
      if constexpr (kBf16) {
        const auto [av, bv] = views(a.data(), b.data());
        const MatrixView<float> into = row_major<float>(c.data(), s.m, s.n, ldc);
        packed ? gemm(1.0f, av, *packed_b, 0.0f, into) : gemm(1.0f, av, bv, 0.0f, into);
      } else if constexpr (std::is_same_v<SourceA, std::uint8_t>) {
        status = packed ? ridge_gemm_u8s8s32_packed(ta, 'F', s.m, s.n, s.k, 1.0f, a.data(), lda,
                                                    0, packed_handle.get(), 0.0f, c.data(), ldc,
                                                    &no_offset)
                        : ridge_gemm_u8s8s32(ta, tb, 'F', s.m, s.n, s.k, 1.0f, a.data(), lda, 0,
                                             b.data(), ldb, 0, 0.0f, c.data(), ldc, &no_offset);
      } else {
        status = packed ? ridge_gemm_s8s8s32_packed(ta, 'F', s.m, s.n, s.k, 1.0f, a.data(), lda,
                                                    0, packed_handle.get(), 0.0f, c.data(), ldc,
                                                    &no_offset)
                        : ridge_gemm_s8s8s32(ta, tb, 'F', s.m, s.n, s.k, 1.0f, a.data(), lda, 0,
                                             b.data(), ldb, 0, 0.0f, c.data(), ldc, &no_offset);
      }
      if (status != 0) throw std::runtime_error("ridge's int8 GEMM failed");
    };
    // ridge's call, fused with what it converts, on B as stored or packed.
    const auto ridge_call = [&](bool packed) {
      if (!converts) {
        plain(packed);
        return;
      }
      const auto [av, bv] = views(a.data(), b.data());
      const float scale = kBf16 ? 1.0f : kDequantScale;
      const MatrixView<float> into = row_major(result, s.m, s.n, ldc);
      if (bf16_c) {
        if constexpr (kBf16) {
          gemm(scale, av, bv, row_major(c16.data(), s.m, s.n, ldc), fused);
        } else {
          gemm(scale, av, SourceA{0}, bv, std::int8_t{0}, row_major(c16.data(), s.m, s.n, ldc),
               fused);
        }
      } else if constexpr (kBf16) {
        packed ? gemm(scale, av, *packed_b, 0.0f, into, fused)
               : gemm(scale, av, bv, 0.0f, into, fused);
      } else {
        packed ? gemm(scale, av, SourceA{0}, *packed_b, into, fused)
               : gemm(scale, av, SourceA{0}, bv, std::int8_t{0}, into, fused);
      }
    };
    std::vector<Contender> contenders;
    contenders.push_back({"ridge", [&] { ridge_call(o.packed); }, {}});
    for (const auto& p : peers) {
      PeerLibrary* peer = p.get();
      const bool has = kBf16                                   ? peer->has_sbgemm()
                       : std::is_same_v<SourceA, std::uint8_t> ? peer->has_gemm_u8s8s32()
                                                               : peer->has_gemm_s8s8s32();
      if (!has) {
        contenders.push_back({peer->name(), nullptr, {}});
        continue;
      }
      contenders.push_back({peer->name(),
                            [&, peer] {
                              if constexpr (kBf16) {
                                peer->sbgemm(trans_a, trans_b, s.m, s.n, s.k, bits(a), lda, bits(b),
                                             ldb, c.data(), ldc);
                              } else {
                                peer->gemm_int8(trans_a, trans_b, s.m, s.n, s.k, a.data(), lda,
                                                b.data(), ldb, c.data(), ldc);
                              }
                              finish_unfused();
                            },
                            {}});
    }
    std::vector<float> af, bf, cf;
    for (const std::string& variant : o.variants) {
      if (variant == "sgemm") {  // the same values in float
        af = widened(a);
        bf = widened(b);
        cf.resize(c.size());
        contenders.push_back({"sgemm",
                              [&, v = views(af.data(), bf.data())] {
                                gemm(1.0f, v.first, v.second, 0.0f,
                                     row_major<float>(cf.data(), s.m, s.n, ldc));
                              },
                              {}});
      } else {
        contenders.push_back({variant,
                              [&, unfused = variant == "unfused",
                               unpacked = variant == "unpacked"] {
                                if (unpacked) {
                                  ridge_call(false);
                                  return;
                                }
                                plain(false);
                                if (unfused) finish_unfused();
                              },
                              {}});
      }
    }
    time_alternately(contenders, 2.0 * s.m * s.n * s.k, o.runs);

    const Summary mine = summarize(contenders[0].rates);
    char shape[64];
    std::snprintf(shape, sizeof(shape), "%lldx%lldx%lld", static_cast<long long>(s.m),
                  static_cast<long long>(s.n), static_cast<long long>(s.k));
    std::printf("%-18s %9.1f %6.1f%%", shape, mine.median, 100 * mine.spread());
    const double best_peer = columns.print_row(contenders);
    columns.print_vs_best(mine.median, best_peer);
    std::printf("\n");
    std::fflush(stdout);
  }
  columns.print_means();
}

}  // namespace

void add_bench_gemm_command(CLI::App& bench_app) {
  CLI::App* cmd = bench_app.add_subcommand("gemm", "GEMM GFLOP/s over a shape sweep");
  static Options o;
  cmd->add_option("--shapes", o.shapes, "Comma-separated MxNxK list (default: the standard sweep of 17 shapes)");
  cmd->add_option("--dtype", o.dtype,
                  "f32, f64, bf16 (C float), or int8 with C in int32: u8s8 (A uint8, B int8) "
                  "or s8s8")
      ->check(CLI::IsMember({"f32", "f64", "bf16", "u8s8", "s8s8"}));
  cmd->add_option("--op", o.op, "Transpositions of A and B (row-major storage): nn, nt, tn or tt")
      ->check(CLI::IsMember({"nn", "nt", "tn", "tt"}));
  cmd->add_option("--epilogue", o.epilogue,
                  "Operations ridge applies to C before it is stored, in order "
                  "(comma-separated: bias, relu, gelu_tanh, gelu_erf, silu, residual); the "
                  "peers and --vs unfused run them as passes over C after their GEMM, --vs plain "
                  "runs ridge's GEMM alone; with f32 into an f32 C, oneDNN 2.x also applies "
                  "them as its matmul primitive's post-ops, in a column \"onednn matmul\"")
      ->delimiter(',')
      ->check(CLI::IsMember({"bias", "relu", "gelu_tanh", "gelu_erf", "silu", "residual"}));
  cmd->add_option("--c-dtype", o.c_dtype,
                  "C stored as f32 or bf16 (rounded as each tile is stored; the others round C "
                  "in a pass after); int8 with f32, bf16 or an --epilogue: dequantised, C = "
                  "epilogue(scale x the int32 product), the others dequantising in a pass")
      ->check(CLI::IsMember({"f32", "bf16"}));
  cmd->add_flag("--packed", o.packed,
                "f32, bf16, u8s8, s8s8: ridge's B packed once per shape beforehand "
                "(ridge::PackedMatrix; int8 into int32, the C API's handle), untimed; --vs "
                "unpacked runs ridge's call on B as stored");
  add_threads_and_runs(*cmd, o.threads, o.runs);
  add_peer_libraries(*cmd, o.peers);
  cmd->callback([] {
    // "--vs unfused", "--vs plain", "--vs sgemm" and "--vs unpacked" are ridge itself run
    // otherwise, no library to load.
    const bool narrow = o.dtype == "u8s8" || o.dtype == "s8s8" || o.dtype == "bf16";
    for (const char* variant : {"unfused", "plain", "sgemm", "unpacked"}) {
      const auto spec = std::find(o.peers.specs.begin(), o.peers.specs.end(), variant);
      if (spec == o.peers.specs.end()) continue;
      o.peers.specs.erase(spec);
      o.variants.push_back(variant);
      if (variant == std::string("sgemm") && !narrow)
        throw CLI::ValidationError("--vs sgemm", "is for --dtype bf16, u8s8 or s8s8");
      if (variant == std::string("unpacked") && !o.packed)
        throw CLI::ValidationError("--vs unpacked", "needs --packed");
      if ((variant == std::string("unfused") || variant == std::string("plain")) &&
          o.epilogue.empty() && o.c_dtype.empty())
        throw CLI::ValidationError(std::string("--vs ") + variant,
                                   "needs an --epilogue or a --c-dtype");
    }
    if (o.packed && (o.dtype == "f64" || o.c_dtype == "bf16"))
      throw CLI::ValidationError("--packed", "packed B is for --dtype f32, bf16 or int8 products "
                                             "into a float (int8: or int32) C");
    if (o.dtype == "f64" && (!o.epilogue.empty() || !o.c_dtype.empty()))
      throw CLI::ValidationError("--epilogue", "epilogues and --c-dtype are not for f64");
    const std::vector<std::unique_ptr<PeerLibrary>> peers =
        set_up_threads_and_peers(o.threads, o.peers);
    if (o.dtype == "u8s8") {
      bench_narrow<std::uint8_t>(o, peers);
    } else if (o.dtype == "s8s8") {
      bench_narrow<std::int8_t>(o, peers);
    } else if (o.dtype == "bf16") {
      bench_narrow<bf16>(o, peers);
    } else {
      with_dtype(o.dtype, [&]<class T>() { bench<T>(o, peers); });
    }
  });
}

}  // namespace ridge::cli
