// The parts of `ridge bench` that every kernel's command uses (see bench_common.hpp).
#include "bench_common.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "ridge/ridge.hpp"
#include "timing.hpp"

namespace ridge::cli {
namespace {

// A column's width in a bench table: its name's, at least a rate's 9.
int width(const std::string& name) { return std::max(9, static_cast<int>(name.size())); }

// Lets the previous contender's idle threads stop spinning before the next one is timed: an
// OpenMP runtime (BLIS, oneDNN) and ridge's pool both busy-wait briefly after a call, and a
// spinning thread of one library would otherwise steal a core from the other (measured: ridge
// 1024^3 on 2 threads, 141 GFLOP/s right after oneDNN calls, 212 alone).
void quiesce() { std::this_thread::sleep_for(std::chrono::milliseconds(20)); }

// Times `repeats` calls of `call` after one untimed call (which wakes the library's threads
// after quiesce()), returns `work` x repeats / seconds x 1e-9.
double time_sample(const std::function<void()>& call, double work, int repeats) {
  call();
  const double start = now_seconds();
  for (int r = 0; r < repeats; ++r) call();
  return work * repeats / (now_seconds() - start) * 1e-9;
}

// Calls per timed sample, so that a sample lasts >= 20 ms and timer resolution and call
// overhead do not dominate small shapes. The size comes from the fastest of up to five calls
// (within 0.1 s) after a warm-up call: from a single call, one slow call (a thread still waking
// up, a noise burst) shrank every sample of the shape. Seen at 128^3 GEMM on 2 threads: a 1.4 ms
// first call left samples of 11 calls (0.35 ms), too short for the scheduler to spread two
// threads that had woken up on one CPU.
int repeats_for(const std::function<void()>& call) {
  call();
  double one = 1e30;
  const double start = now_seconds();
  for (int i = 0; i < 5 && (i == 0 || now_seconds() - start < 0.1); ++i) {
    const double t0 = now_seconds();
    call();
    one = std::min(one, now_seconds() - t0);
  }
  return std::max(1, static_cast<int>(0.02 / std::max(1e-9, one)));
}

}  // namespace

void add_threads_and_runs(CLI::App& cmd, int& threads, int& runs) {
  cmd.add_option("--threads", threads, "Threads for ridge and peers (default: all CPUs)");
  cmd.add_option("--runs", runs, "Timed runs per contender (median reported)")
      ->check(CLI::Range(1, 1000));
}

void add_blas_dtype(CLI::App& cmd, std::string& dtype) {
  cmd.add_option("--dtype", dtype, "f32 or f64")->check(CLI::IsMember({"f32", "f64"}));
}

void add_peer_libraries(CLI::App& cmd, PeerOptions& peers) {
  cmd.add_option("--vs", peers.specs,
                 "Peer library: openblas, blis, onednn or a path (repeatable); NAME:KERNELS picks "
                 "its kernels (openblas:Haswell, onednn:AVX2, blis:<arch id>)");
  cmd.add_option("--isa-cap", peers.isa_cap,
                 "Hold ridge and every peer to this ISA (avx2: RIDGE_ISA=avx2, OpenBLAS Haswell, "
                 "oneDNN AVX2, or AVX2_VNNI where the CPU has AVX-VNNI and RIDGE_AVX_VNNI is not "
                 "0)")
      ->check(CLI::IsMember({"avx2"}));
}

std::vector<std::unique_ptr<PeerLibrary>> set_up_threads_and_peers(int& threads,
                                                                   const PeerOptions& options) {
  if (threads <= 0) threads = num_threads();
  set_num_threads(threads);
  if (options.isa_cap == "avx2") {
    if (!isa_supported(Isa::avx2)) throw std::runtime_error("--isa-cap avx2: this CPU lacks AVX2");
    set_isa(Isa::avx2);
    setenv("RIDGE_ISA", "avx2", 1);  // for another ridge build loaded as a peer
  }
  std::vector<std::unique_ptr<PeerLibrary>> peers;
  for (const std::string& spec : options.specs)
    peers.push_back(PeerLibrary::load(spec, threads, options.isa_cap));
  if (!peers.empty()) {
    std::printf("peer kernels:");
    for (const auto& peer : peers)
      std::printf("%s %s %s", &peer == &peers.front() ? "" : ";", peer->name().c_str(),
                  peer->kernel_choice().c_str());
    std::printf("\n");
  }
  // Each peer's first call comes before the pinning, so that one which sizes itself from the
  // affinity mask on first use (another ridge build: its per-machine file is named after the
  // CPU count) sees the machine's CPUs, as ridge did when it started.
  for (const auto& peer : peers) {
    float a = 1, b = 1, c = 0;
    if (peer->has_sgemm()) peer->sgemm(false, false, 1, 1, 1, &a, 1, &b, 1, 0.0f, &c, 1);
  }
  if (threads == 1) pin_current_thread(Machine::current().cpu_ids.front());
  return peers;
}

std::vector<std::vector<std::int64_t>> parse_shapes(const std::string& text,
                                                    const std::string& pattern) {
  const auto extents = std::count(pattern.begin(), pattern.end(), 'x') + 1;
  std::vector<std::vector<std::int64_t>> shapes;
  std::stringstream list(text);
  std::string item;
  while (std::getline(list, item, ',')) {
    std::vector<std::int64_t> shape(static_cast<std::size_t>(extents));
    std::stringstream one(item);
    bool good = true;
    for (std::size_t i = 0; i < shape.size() && good; ++i) {
      char x = 'x';
      if (i > 0) one >> x;
      good = (one >> shape[i]) && x == 'x' && shape[i] >= 0;
    }
    good = good && (one >> std::ws).eof();  // "4096x4096x128" is no MxN
    if (!good) throw std::invalid_argument("bad shape '" + item + "' (expected " + pattern + ")");
    shapes.push_back(shape);
  }
  return shapes;
}

// All threads together read 8 x the last-level cache, twice STREAM's rule for DRAM figures
// (4 x), so that no part of the figure comes from the caches.
probe::Figure dram_read_bandwidth(int threads) {
  std::int64_t llc = 8 << 20;  // when the caches are unknown
  for (const CacheLevel& c : Machine::current().caches)
    if (c.kind != CacheKind::instruction) llc = std::max(llc, c.size_bytes);
  return probe::read_bandwidth(threads, 8 * llc / threads);
}

void time_alternately(std::vector<Contender>& contenders, double work, int runs,
                      bool reverse_odd_rounds) {
  std::vector<int> repeats;
  for (const Contender& con : contenders) repeats.push_back(con.call ? repeats_for(con.call) : 0);
  for (int run = 0; run < runs; ++run)
    for (std::size_t step = 0; step < contenders.size(); ++step) {
      const std::size_t i =
          reverse_odd_rounds && run % 2 == 1 ? contenders.size() - 1 - step : step;
      if (contenders[i].call) {
        quiesce();
        contenders[i].rates.push_back(work > 0 ? time_sample(contenders[i].call, work, repeats[i])
                                               : 0.0);
      }
    }
}

PeerColumns::PeerColumns(const std::vector<std::unique_ptr<PeerLibrary>>& peers,
                         const std::vector<std::string>& more_peers,
                         const std::vector<std::string>& variants)
    : per_peer_(peers.size() + more_peers.size() + variants.size()) {
  for (const auto& p : peers) {
    names_.push_back(p->name());
    is_ridge_.push_back(p->is_ridge());
  }
  for (const std::string& p : more_peers) {
    names_.push_back(p);
    is_ridge_.push_back(false);
  }
  for (const std::string& v : variants) {
    names_.push_back(v);
    is_ridge_.push_back(true);
  }
}

void PeerColumns::print_heading() const {
  for (const std::string& name : names_)
    std::printf(" %*s %7s %6s", width(name), name.c_str(), "spread", "ratio");
}

double PeerColumns::print_row(const std::vector<Contender>& contenders) {
  const double mine = summarize(contenders[0].rates).median;
  double best_peer = 0;
  for (std::size_t i = 1; i < contenders.size(); ++i) {
    const int w = width(names_[i - 1]);
    if (!contenders[i].call) {
      std::printf(" %*s %7s %6s", w, "-", "", "");
      continue;
    }
    const Summary theirs = summarize(contenders[i].rates);
    if (!is_ridge_[i - 1]) best_peer = std::max(best_peer, theirs.median);
    const double ratio = theirs.median > 0 ? mine / theirs.median : 0;
    if (ratio > 0) {
      per_peer_[i - 1].sum += std::log(ratio);
      ++per_peer_[i - 1].count;
    }
    std::printf(" %*.1f %6.1f%% %5.2fx", w, theirs.median, 100 * theirs.spread(), ratio);
  }
  ++rows_;
  return best_peer;
}

void PeerColumns::print_vs_best(double mine, double best_peer) {
  if (best_peer <= 0) return;
  std::printf("  vs best %.2fx", mine / best_peer);
  vs_best_.sum += std::log(mine / best_peer);
  ++vs_best_.count;
}

void PeerColumns::print_means() const {
  if (names_.empty() || rows_ == 0) return;
  // A peer that never ran (oneDNN has no dgemm, no gemv) gets "-", not a ratio of 1.
  auto mean = [](const LogRatios& r) {
    char text[32] = "-";
    if (r.count > 0) std::snprintf(text, sizeof(text), "%.3fx", std::exp(r.sum / r.count));
    return std::string(text);
  };
  std::printf("geometric mean of ratios:");
  for (std::size_t i = 0; i < names_.size(); ++i)
    std::printf(" vs %s %s;", names_[i].c_str(), mean(per_peer_[i]).c_str());
  std::printf(" vs best peer per shape %s\n", mean(vs_best_).c_str());
}

}  // namespace ridge::cli
