// ridge::attention: validates the tensors, picks the active ISA's tile kernel and hands the
// tiles (batch x query head x the kernel's rows of queries) to the threads.
#include "ridge/attention.hpp"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <type_traits>

#include "attention/job.hpp"
#include "ridge/isa.hpp"
#include "ridge/machine.hpp"
#include "runtime/errors.hpp"
#include "runtime/active_isa.hpp"
#include "runtime/settings.hpp"
#include "runtime/thread_pool.hpp"
#include "runtime/workspace.hpp"

namespace ridge {
namespace attention_detail {
namespace {

[[noreturn]] void invalid(const std::string& message) {
  runtime::invalid_argument("ridge::attention", message);
}

template <class T>
void check_tensor(const char* name, const Tensor4<T>& t) {
  const std::string n(name);
  if (t.batch < 0 || t.seq < 0 || t.heads < 0 || t.head_dim < 0)
    invalid(n + " has a negative size");
  if (t.data == nullptr && t.batch * t.seq * t.heads * t.head_dim != 0)
    invalid(n + ".data is null");
}

template <class In>
void validate(const Job<In>& job) {
  check_tensor("q", job.q);
  check_tensor("k", job.k);
  check_tensor("v", job.v);
  check_tensor("out", job.out);
  const auto& q = job.q;
  if (q.head_dim < 1 || q.head_dim > 256)
    invalid("head_dim " + std::to_string(q.head_dim) + " is outside [1, 256]");
  if (job.k.head_dim != q.head_dim || job.v.head_dim != q.head_dim ||
      job.out.head_dim != q.head_dim)
    invalid("q, k, v and out must share head_dim");
  if (job.k.batch != q.batch || job.v.batch != q.batch || job.out.batch != q.batch)
    invalid("q, k, v and out must share batch");
  if (job.v.seq != job.k.seq) invalid("k and v must have the same kv_len");
  if (job.v.heads != job.k.heads) invalid("k and v must have the same kv_heads");
  if (job.out.seq != q.seq || job.out.heads != q.heads) invalid("out must be shaped like q");
  if (job.k.heads < 1 || q.heads % job.k.heads != 0)
    invalid("q_heads (" + std::to_string(q.heads) + ") is not a multiple of kv_heads (" +
            std::to_string(job.k.heads) + ")");
}

// One ISA's factory for the input type In, of its float and bf16 ones.
template <class In>
TileKernelFactory<In> for_input(TileKernelFactory<float> f32, TileKernelFactory<bf16> bf16) {
  if constexpr (std::is_same_v<In, float>) {
    return f32;
  } else {
    return bf16;
  }
}

// The tile kernel factory of the active ISA path. bf16 inputs on AVX-512 use VDPBF16PS where
// the CPU has AVX512_BF16.
template <class In>
TileKernelFactory<In> active_kernel() {
  switch (runtime::active_isa()) {
#if defined(__x86_64__)
    case Isa::avx512:
      return for_input<In>(&avx512::attention_kernel_f32,
                           Machine::current().isa.avx512_bf16
                               ? &avx512_bf16::attention_kernel_bf16
                               : &avx512::attention_kernel_bf16);
    case Isa::avx2:
      return for_input<In>(&avx2::attention_kernel_f32, &avx2::attention_kernel_bf16);
#endif
    default:
      return for_input<In>(&generic::attention_kernel_f32, &generic::attention_kernel_bf16);
  }
}

// Key ranges of at least this many keys per thread in decoding: a range's fixed costs (gathering
// the queries, the merge) stay small next to reading its keys and values.
constexpr std::int64_t kMinDecodeKeys = 512;

// Decoding's key ranges per batch: enough for every thread to have work even for one sequence,
// none shorter than kMinDecodeKeys.
template <class In>
std::int64_t decode_ranges(const Job<In>& job, int max_threads) {
  return std::clamp<std::int64_t>((max_threads + job.q.batch - 1) / job.q.batch, 1,
                                  std::max<std::int64_t>(1, job.k.seq / kMinDecodeKeys));
}

// Whether decoding (keys and values read in place, in ranges split across threads) runs rather
// than the prefill tiles (K and V packed per key/value head and thread, MR rows of one query
// head a tile). It needs head_dim contiguous in K and V. Measured (2 threads, 32 query and 8
// key/value heads of 128, f32, GFLOP/s decoding against tiles):
// - a key/value head's query rows (q_len x group) fit one tile: decoding, whatever the keys; the
//   tiles would hold a few rows each (q_len 16 at 16384 keys: 141 against 27);
// - up to 4 tiles of rows, where the key ranges give every thread work: decoding (q_len 32 at
//   1024 keys: 111 against 91; q_len 100 and 128 at 16384 keys: 146 against 92 and 111), but
//   not with one range for two threads (q_len 32 at 256 keys: 51 against 77);
// - more rows: the tiles (q_len 256 at 16384 keys: 133 against 110; 32 heads of 256 rows at
//   4096 keys: 90 against 58).
// So the path, like decoding's key ranges, can depend on the thread count, and with it the
// rounding; the tiles alone give the same bits on any number of threads.
template <class In>
bool decodes(const Job<In>& job, const TileKernel<In>& kernel) {
  if (job.k.strides[3] != 1 || job.v.strides[3] != 1) return false;
  const std::int64_t rows = job.q.seq * job.group;
  if (rows <= kernel.rows) return true;
  const int threads = runtime::max_threads();
  return rows <= 4 * kernel.rows && job.q.batch * decode_ranges(job, threads) >= threads;
}

// Keys per decoding block (flash_decode.hpp): the block being computed and the next one, being
// fetched meanwhile, take half of L2; the other half keeps the queries, scores and outputs and
// the lines in flight. Measured at 8 heads of 128 in f32 (8 KiB of K and V per key, 1 MiB L2,
// 1 thread, three runs each): the two blocks in a quarter or half of L2 (16 or 32 keys) read
// 72-89% of the DRAM read bandwidth, in all of it (64 keys) 68-75%.
template <class In>
int decode_block_keys(const Job<In>& job) {
  // Machine fills a level the CPU does not describe with a stated assumption, so this is > 0.
  const std::int64_t l2 = Machine::current().data_cache(2).size_bytes;
  const std::int64_t key_bytes =
      2 * job.k.heads * job.q.head_dim * static_cast<std::int64_t>(sizeof(In));
  return static_cast<int>(std::clamp<std::int64_t>(l2 / 4 / key_bytes, 4, kMaxDecodeBlockKeys));
}

// Decoding (where decodes() says): few query rows per key/value head, many keys. Each batch's
// keys are split into decode_ranges() ranges (flash-decoding); each range's partial softmax
// (maximum, sum, weighted values) per row is merged at the end, exactly: the ranges scale to a
// common maximum. Returns the ranges' rescale count.
template <class In>
std::int64_t decode(Job<In> job, const TileKernel<In>& kernel) {
  job.decode_block_keys = decode_block_keys(job);
  const auto& q = job.q;
  const std::int64_t d = q.head_dim, kv_len = job.k.seq, q_len = q.seq;
  const std::int64_t rows = q_len * job.group, all_rows = job.k.heads * rows;
  const int max_threads = runtime::max_threads();
  const std::int64_t ranges = decode_ranges(job, max_threads);
  const std::int64_t range_keys = (kv_len + ranges - 1) / ranges;
  const std::int64_t tasks = q.batch * ranges;
  // Per task: every row's maximum, every row's sum, then every row's weighted values.
  const std::int64_t task_floats = all_rows * (2 + d);
  const int threads = static_cast<int>(std::min<std::int64_t>(max_threads, tasks));
  // The workspace: the tasks' partial results, the merge's sums, each thread's own buffers.
  const std::size_t partial_bytes = runtime::pages_for<float>(tasks * task_floats);
  const std::size_t acc_bytes = runtime::pages_for<double>(d);
  const std::size_t thread_bytes = runtime::pages_for<float>(kernel.decode_floats(job));
  std::byte* work = runtime::workspace(partial_bytes + acc_bytes + threads * thread_bytes);
  float* partials = reinterpret_cast<float*>(work);
  double* acc = reinterpret_cast<double*>(work + partial_bytes);
  std::atomic<std::int64_t> rescales{0};
  runtime::parallel_run(threads, [&](int task) {
    float* own = reinterpret_cast<float*>(work + partial_bytes + acc_bytes + task * thread_bytes);
    std::int64_t mine = 0;
    for (std::int64_t t = task; t < tasks; t += threads) {
      const std::int64_t kv0 = std::min(kv_len, t % ranges * range_keys);
      float* part = partials + t * task_floats;
      mine += kernel.decode(job, t / ranges, kv0, std::min(kv_len, kv0 + range_keys), part,
                            part + all_rows, part + 2 * all_rows, own);
    }
    rescales += mine;
  });
  for (std::int64_t b = 0; b < q.batch; ++b)
    for (std::int64_t hr = 0; hr < all_rows; ++hr) {
      const float* first = partials + b * ranges * task_floats;
      float top = -std::numeric_limits<float>::infinity();
      for (std::int64_t c = 0; c < ranges; ++c) top = std::max(top, first[c * task_floats + hr]);
      std::fill(acc, acc + d, 0.0);
      double total = 0;
      if (top != -std::numeric_limits<float>::infinity())
        for (std::int64_t c = 0; c < ranges; ++c) {
          const float* part = first + c * task_floats;
          const double weight = std::exp2(static_cast<double>(part[hr]) - top);
          total += weight * part[all_rows + hr];
          const float* o = part + 2 * all_rows + hr * d;
          for (std::int64_t x = 0; x < d; ++x) acc[x] += weight * o[x];
        }
      const std::int64_t h = hr / rows, r = hr % rows;
      float* dst = job.out.at(b, r % q_len, h * job.group + r / q_len);
      // A row that saw no key: zeros.
      for (std::int64_t x = 0; x < d; ++x)
        dst[x * job.out.strides[3]] = total > 0 ? static_cast<float>(acc[x] / total) : 0.0f;
    }
  return rescales.load();
}

}  // namespace

template <class In>
AttentionStats run_attention(const Tensor4<const In>& q, const Tensor4<const In>& k,
                             const Tensor4<const In>& v, const Tensor4<float>& out,
                             const AttentionOptions& options, TileKernelFactory<In> factory) {
  Job<In> job{q, k, v, out, 0, options.causal, 1};
  validate(job);
  job.group = k.heads > 0 ? q.heads / k.heads : 1;
  const float scale =
      options.scale > 0 ? options.scale : 1.0f / std::sqrt(static_cast<float>(q.head_dim));
  job.scale_log2 = scale * std::numbers::log2e_v<float>;

  const TileKernel<In> kernel = factory(options.exp2);
  AttentionStats stats;
  stats.decoding = decodes(job, kernel);
  stats.kernel = kernel.name;
  if (q.batch * q.seq * q.heads == 0) return stats;
  if (stats.decoding) {
    stats.rescales = decode(job, kernel);
    return stats;
  }
  // Tiles in the order (batch, key/value head, query head of its group, row tile), dealt
  // round-robin: under a causal mask later row tiles see more keys, and dealing them in turn
  // gives each thread a similar mix. A thread packs each key/value head it meets once, for all
  // the tiles of it that it runs: every thread packs every head, one pass over its keys and
  // values, small next to 4 x head_dim FLOP per query-key pair in its tiles. (Packing per tile
  // would repeat that pass for every MR query rows.)
  const std::int64_t row_tiles = (q.seq + kernel.rows - 1) / kernel.rows;
  const std::int64_t tiles_per_kv_head = job.group * row_tiles;
  const std::int64_t tiles = q.batch * k.heads * tiles_per_kv_head;
  const int threads = static_cast<int>(std::min<std::int64_t>(runtime::max_threads(), tiles));
  // Each thread's workspace: a key/value head's packed panels, then its tile's buffers.
  const std::size_t panel_bytes = runtime::pages_for<float>(kernel.panel_floats(job));
  const std::size_t thread_bytes = panel_bytes + runtime::pages_for<float>(kernel.tile_floats(job));
  std::byte* work = runtime::workspace(threads * thread_bytes);
  std::atomic<std::int64_t> rescales{0};
  runtime::parallel_run(threads, [&](int task) {
    float* packed = reinterpret_cast<float*>(work + task * thread_bytes);
    float* tile = reinterpret_cast<float*>(work + task * thread_bytes + panel_bytes);
    std::int64_t packed_unit = -1, mine = 0;
    for (std::int64_t t = task; t < tiles; t += threads) {
      const std::int64_t unit = t / tiles_per_kv_head, batch = unit / k.heads,
                         kv_head = unit % k.heads,
                         head_in_group = t % tiles_per_kv_head / row_tiles,
                         row_tile = t % row_tiles;
      if (unit != packed_unit) {
        kernel.pack(job, batch, kv_head, packed);
        packed_unit = unit;
      }
      const std::int64_t q0 = row_tile * kernel.rows;
      mine += kernel.run(job, batch, kv_head * job.group + head_in_group, q0,
                         static_cast<int>(std::min<std::int64_t>(kernel.rows, q.seq - q0)), packed,
                         tile);
    }
    rescales += mine;
  });
  stats.rescales = rescales.load();
  return stats;
}

template AttentionStats run_attention(const Tensor4<const float>&, const Tensor4<const float>&,
                                      const Tensor4<const float>&, const Tensor4<float>&,
                                      const AttentionOptions&, TileKernelFactory<float>);
template AttentionStats run_attention(const Tensor4<const bf16>&, const Tensor4<const bf16>&,
                                      const Tensor4<const bf16>&, const Tensor4<float>&,
                                      const AttentionOptions&, TileKernelFactory<bf16>);

}  // namespace attention_detail

AttentionStats attention(const Tensor4<const float>& q, const Tensor4<const float>& k,
                         const Tensor4<const float>& v, const Tensor4<float>& out,
                         const AttentionOptions& options) {
  return attention_detail::run_attention(q, k, v, out, options,
                                         attention_detail::active_kernel<float>());
}

AttentionStats attention(const Tensor4<const bf16>& q, const Tensor4<const bf16>& k,
                         const Tensor4<const bf16>& v, const Tensor4<float>& out,
                         const AttentionOptions& options) {
  return attention_detail::run_attention(q, k, v, out, options,
                                         attention_detail::active_kernel<bf16>());
}

}  // namespace ridge
