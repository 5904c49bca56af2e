// ridge::attention: validates the tensors, picks the active ISA's tile kernel and hands the
// tiles (batch x query head x kTileRows query rows) to the threads.
#include "ridge/attention.hpp"

#include <atomic>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "attention/job.hpp"
#include "ridge/isa.hpp"
#include "runtime/settings.hpp"
#include "runtime/thread_pool.hpp"

namespace ridge {
namespace attention_detail {
namespace {

[[noreturn]] void invalid(const std::string& message) {
  throw std::invalid_argument("ridge::attention: " + message);
}

template <class T>
void check_tensor(const char* name, const Tensor4<T>& t) {
  const std::string n(name);
  if (t.batch < 0 || t.seq < 0 || t.heads < 0 || t.head_dim < 0)
    invalid(n + " has a negative size");
  if (t.data == nullptr && t.batch * t.seq * t.heads * t.head_dim != 0)
    invalid(n + ".data is null");
}

void validate(const Job& job) {
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

TileKernel active_kernel(Exp2 variant) {
  switch (active_isa()) {
#if defined(__x86_64__)
    case Isa::avx512:
      return avx512_tile_kernel(variant);
    case Isa::avx2:
      return avx2_tile_kernel(variant);
#endif
    default:
      return generic_tile_kernel(variant);
  }
}

}  // namespace
}  // namespace attention_detail

AttentionStats attention(const Tensor4<const float>& q, const Tensor4<const float>& k,
                         const Tensor4<const float>& v, const Tensor4<float>& out,
                         const AttentionOptions& options) {
  using namespace attention_detail;
  Job job{q, k, v, out, 0, options.causal, 1};
  validate(job);
  job.group = k.heads > 0 ? q.heads / k.heads : 1;
  const float scale =
      options.scale > 0 ? options.scale : 1.0f / std::sqrt(static_cast<float>(q.head_dim));
  job.scale_log2 = scale * std::numbers::log2e_v<float>;

  const TileKernel kernel = active_kernel(options.exp2);
  const std::int64_t row_tiles = (q.seq + kTileRows - 1) / kTileRows;
  const std::int64_t tiles = q.batch * q.heads * row_tiles;
  const int threads = static_cast<int>(std::min<std::int64_t>(detail::max_threads(), tiles));
  std::atomic<std::int64_t> rescales{0};
  if (tiles == 0) return {};
  // Tiles dealt round-robin: under a causal mask later row tiles see more keys, and dealing
  // them in turn gives each thread a similar mix.
  detail::parallel_run(threads, [&](int task) {
    std::int64_t mine = 0;
    for (std::int64_t t = task; t < tiles; t += threads) {
      const std::int64_t row_tile = t % row_tiles, head = t / row_tiles % q.heads,
                         batch = t / row_tiles / q.heads;
      const std::int64_t q0 = row_tile * kTileRows;
      mine += kernel(job, batch, head, q0,
                     static_cast<int>(std::min<std::int64_t>(kTileRows, q.seq - q0)));
    }
    rescales += mine;
  });
  return {rescales.load()};
}

}  // namespace ridge
