// `ridge bench attention`: GFLOP/s of the fused attention forward pass, as a fraction of ridge's
// own sgemm at 2048^3 on the same threads, with the exp2 variant and the rescale count, and
// --vs naive: the unfused reference (scores materialised, softmax, then a GEMM), alternated
// with it in the same run; the path that ran (the ISA's, or avx512_bf16 for bf16 products on
// VDPBF16PS). Decoding also shows the rate K and V were read at against the DRAM read bandwidth.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "bench_common.hpp"
#include "commands.hpp"
#include "ridge/ridge.hpp"
#include "timing.hpp"

namespace ridge::cli {
namespace {

struct Options {
  // The attention issue's bar: prefill of one sequence, 16 heads of 128.
  std::int64_t batch = 1, q_heads = 16, kv_heads = 16, q_len = 2048, kv_len = 2048, head_dim = 128;
  bool causal = false;
  std::string exp2 = "accurate";
  std::string dtype = "f32";  // of Q, K and V: f32 or bf16 (out is f32)
  int threads = 0;
  int runs = 7;
  std::vector<std::string> peers;  // "naive" only
};

// Query-key pairs a query sees: all under no mask, below the bottom-right diagonal under a
// causal one. FLOP = 4 x pairs x head_dim x heads x batch (Q K^T and P V, 2 each).
double seen_pairs(const Options& o) {
  if (!o.causal) return static_cast<double>(o.q_len) * o.kv_len;
  double pairs = 0;
  for (std::int64_t i = 0; i < o.q_len; ++i)
    pairs += static_cast<double>(std::clamp<std::int64_t>(i + o.kv_len - o.q_len + 1, 0, o.kv_len));
  return pairs;
}

// The unfused reference: per batch and query head, S = scale Q K^T in full (ridge::gemm), a
// row-wise softmax with std::exp, then O = P V (ridge::gemm).
class NaiveAttention {
 public:
  NaiveAttention(const Options& o, const float* q, const float* k, const float* v, float* out)
      : o_(o),
        q_(q),
        k_(k),
        v_(v),
        out_(out),
        scores_(static_cast<std::size_t>(o.q_len * o.kv_len)) {}

  void operator()() {
    const std::int64_t d = o_.head_dim, group = o_.q_heads / o_.kv_heads;
    const float scale = 1.0f / std::sqrt(static_cast<float>(d));
    const auto s = row_major(scores_.data(), o_.q_len, o_.kv_len);
    for (std::int64_t b = 0; b < o_.batch; ++b)
      for (std::int64_t h = 0; h < o_.q_heads; ++h) {
        const std::int64_t kvh = h / group;
        const float* qh = q_ + (b * o_.q_len * o_.q_heads + h) * d;
        const float* kh = k_ + (b * o_.kv_len * o_.kv_heads + kvh) * d;
        const float* vh = v_ + (b * o_.kv_len * o_.kv_heads + kvh) * d;
        float* oh = out_ + (b * o_.q_len * o_.q_heads + h) * d;
        gemm(scale, row_major(qh, o_.q_len, d, o_.q_heads * d),
             row_major(kh, o_.kv_len, d, o_.kv_heads * d).transposed(), 0.0f, s);
        softmax_rows();
        gemm(1.0f, row_major<const float>(scores_.data(), o_.q_len, o_.kv_len),
             row_major(vh, o_.kv_len, d, o_.kv_heads * d), 0.0f,
             row_major(oh, o_.q_len, d, o_.q_heads * d));
      }
  }

 private:
  void softmax_rows() {
    for (std::int64_t i = 0; i < o_.q_len; ++i) {
      float* row = scores_.data() + i * o_.kv_len;
      const std::int64_t seen =
          o_.causal ? std::clamp<std::int64_t>(i + o_.kv_len - o_.q_len + 1, 0, o_.kv_len)
                    : o_.kv_len;
      const float max = seen > 0 ? *std::max_element(row, row + seen) : 0.0f;
      float sum = 0;
      for (std::int64_t j = 0; j < seen; ++j) sum += row[j] = std::exp(row[j] - max);
      for (std::int64_t j = 0; j < seen; ++j) row[j] /= sum;
      std::fill(row + seen, row + o_.kv_len, 0.0f);
    }
  }

  const Options& o_;
  const float *q_, *k_, *v_;
  float* out_;
  std::vector<float> scores_;
};

double sgemm_2048_gflops(int runs) {
  constexpr std::int64_t n = 2048;
  std::vector<float> a(n * n), b(n * n), c(n * n);
  std::mt19937 rng(1);
  fill_random(a, rng);
  fill_random(b, rng);
  std::vector<Contender> contenders{{"sgemm",
                                     [&] {
                                       gemm(1.0f, row_major<const float>(a.data(), n, n),
                                            row_major<const float>(b.data(), n, n), 0.0f,
                                            row_major(c.data(), n, n));
                                     },
                                     {}}};
  time_alternately(contenders, 2.0 * n * n * n, runs);
  return summarize(contenders[0].rates).median;
}

void bench(const Options& o) {
  const char* plural = o.threads == 1 ? "" : "s";
  AttentionOptions options;
  options.causal = o.causal;
  options.exp2 = o.exp2 == "cubic" ? Exp2::cubic : Exp2::accurate;
  std::printf(
      "ridge bench attention: batch %lld, q_len %lld, kv_len %lld, %lld query / %lld "
      "key-value heads, head_dim %lld, %s inputs, %s, exp2 %s, %d thread%s, isa %s, median "
      "of %d runs\n",
      static_cast<long long>(o.batch), static_cast<long long>(o.q_len),
      static_cast<long long>(o.kv_len), static_cast<long long>(o.q_heads),
      static_cast<long long>(o.kv_heads), static_cast<long long>(o.head_dim), o.dtype.c_str(),
      o.causal ? "causal" : "no mask", o.exp2.c_str(), o.threads, plural, isa_name(active_isa()),
      o.runs);
  const double flop = 4.0 * seen_pairs(o) * o.head_dim * o.q_heads * o.batch;
  std::printf("GFLOP/s count 4 x head_dim FLOP per query-key pair a query sees: %.2f GFLOP\n",
              flop * 1e-9);
  const double sgemm = sgemm_2048_gflops(o.runs);
  std::printf("ridge sgemm 2048^3 on %d thread%s: %.1f GFLOP/s\n", o.threads, plural, sgemm);
  std::fflush(stdout);

  std::vector<float> q(o.batch * o.q_len * o.q_heads * o.head_dim);
  std::vector<float> k(o.batch * o.kv_len * o.kv_heads * o.head_dim), v(k.size());
  std::vector<float> out(q.size()), naive_out(q.size());
  std::mt19937 rng(7);
  fill_random(q, rng);
  fill_random(k, rng);
  fill_random(v, rng);
  const auto qt = bshd<const float>(q.data(), o.batch, o.q_len, o.q_heads, o.head_dim);
  const auto kt = bshd<const float>(k.data(), o.batch, o.kv_len, o.kv_heads, o.head_dim);
  const auto vt = bshd<const float>(v.data(), o.batch, o.kv_len, o.kv_heads, o.head_dim);
  const auto ot = bshd(out.data(), o.batch, o.q_len, o.q_heads, o.head_dim);
  // bf16 inputs: the same values rounded to bf16 (the naive reference keeps the float ones).
  const bool bf16_inputs = o.dtype == "bf16";
  std::vector<bf16> q16, k16, v16;
  if (bf16_inputs)
    for (auto [from, to] : {std::pair{&q, &q16}, {&k, &k16}, {&v, &v16}})
      for (float x : *from) to->push_back(to_bf16(x));
  const auto run = [&] {
    if (!bf16_inputs) return attention(qt, kt, vt, ot, options);
    return attention(bshd<const bf16>(q16.data(), o.batch, o.q_len, o.q_heads, o.head_dim),
                     bshd<const bf16>(k16.data(), o.batch, o.kv_len, o.kv_heads, o.head_dim),
                     bshd<const bf16>(v16.data(), o.batch, o.kv_len, o.kv_heads, o.head_dim), ot,
                     options);
  };
  const AttentionStats stats = run();
  std::printf("path: %s%s\n", stats.kernel, stats.decoding ? ", decoding" : "");

  std::vector<Contender> contenders{{"ridge", [&] { run(); }, {}}};
  NaiveAttention naive(o, q.data(), k.data(), v.data(), naive_out.data());
  const bool vs_naive = std::find(o.peers.begin(), o.peers.end(), "naive") != o.peers.end();
  if (vs_naive) contenders.push_back({"naive", [&] { naive(); }, {}});
  time_alternately(contenders, flop, o.runs);

  const Summary mine = summarize(contenders[0].rates);
  std::printf("%9s %7s %7s %9s", "ridge", "spread", "%sgemm", "rescales");
  if (vs_naive) std::printf(" %9s %7s %6s", "naive", "spread", "ratio");
  std::printf("\n%9.1f %6.1f%% %6.1f%% %9lld", mine.median, 100 * mine.spread(),
              100 * mine.median / sgemm, static_cast<long long>(stats.rescales));
  if (vs_naive) {
    const Summary theirs = summarize(contenders[1].rates);
    std::printf(" %9.1f %6.1f%% %5.2fx", theirs.median, 100 * theirs.spread(),
                mine.median / theirs.median);
  }
  std::printf("\n");
  // Decoding reads all of K and V for few FLOP: the rate it reads them at is its measure.
  if (!stats.decoding) return;
  const double kv_bytes = 2.0 * k.size() * (bf16_inputs ? sizeof(bf16) : sizeof(float));
  const probe::Figure read_bw = dram_read_bandwidth(o.threads);
  const double kv_gbs = kv_bytes / (flop / (mine.median * 1e9)) * 1e-9;
  std::printf(
      "K and V read at %.1f GB/s; measured DRAM read bandwidth on %d thread%s: %.1f GB/s "
      "(%.1f%%)\n",
      kv_gbs, o.threads, plural, read_bw.median, 100 * kv_gbs / read_bw.median);
}

}  // namespace

void add_bench_attention_command(CLI::App& bench_app) {
  CLI::App* cmd = bench_app.add_subcommand("attention", "Fused attention GFLOP/s");
  static Options o;
  cmd->add_option("--batch", o.batch)->capture_default_str()->check(CLI::PositiveNumber);
  cmd->add_option("--q-heads", o.q_heads)->capture_default_str()->check(CLI::PositiveNumber);
  cmd->add_option("--kv-heads", o.kv_heads)->capture_default_str()->check(CLI::PositiveNumber);
  cmd->add_option("--q-len", o.q_len)->capture_default_str()->check(CLI::PositiveNumber);
  cmd->add_option("--kv-len", o.kv_len)->capture_default_str()->check(CLI::PositiveNumber);
  cmd->add_option("--head-dim", o.head_dim)->capture_default_str()->check(CLI::Range(1, 256));
  cmd->add_flag("--causal", o.causal, "Causal mask, aligned bottom-right");
  cmd->add_option("--dtype", o.dtype, "Q, K and V: f32 or bf16")
      ->check(CLI::IsMember({"f32", "bf16"}));
  cmd->add_option("--exp2", o.exp2, "accurate or cubic")
      ->check(CLI::IsMember({"accurate", "cubic"}));
  add_threads_and_runs(*cmd, o.threads, o.runs);
  cmd->add_option("--vs", o.peers, "naive: the unfused reference")->check(CLI::IsMember({"naive"}));
  cmd->callback([] {
    if (o.q_heads % o.kv_heads != 0)
      throw CLI::ValidationError("--q-heads must be a multiple of --kv-heads");
    set_up_threads_and_peers(o.threads, {});
    bench(o);
  });
}

}  // namespace ridge::cli
