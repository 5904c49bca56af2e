// Coherence costs between pinned threads. Every shared variable sits alone in a 128-byte slot:
// the adjacent-line prefetcher of x86 cores pulls lines in 128-byte pairs, so 64-byte padding
// alone still lets neighbours interfere.
#include "probe/coherence.hpp"

#include <atomic>
#include <cstdint>

#include "probe/pinned_team.hpp"
#include "ridge/machine.hpp"

namespace ridge::probe::detail {
namespace {

constexpr std::size_t kSlot = 128;

struct alignas(kSlot) PaddedCounter {
  std::atomic<std::uint64_t> value{0};
};

// Round trips of one line between the two members: member 0 turns 2r into 2r+1 and member 1
// turns 2r+1 into 2r+2, each by compare-exchange, so every step moves the line across.
double round_trip_ns(PinnedTeam& pair, std::int64_t trips) {
  PaddedCounter line;
  const double seconds = pair.run([&](int member) {
    for (std::int64_t r = 0; r < trips; ++r) {
      const auto from = static_cast<std::uint64_t>(2 * r + member);
      std::uint64_t expected = from;
      while (!line.value.compare_exchange_weak(expected, from + 1, std::memory_order_acq_rel,
                                               std::memory_order_relaxed))
        expected = from;
    }
  });
  return seconds / static_cast<double>(trips) * 1e9;
}

// ns per operation, each member doing `ops` of them at once.
Figure per_op_ns(PinnedTeam& team, const std::function<void(int member, std::int64_t ops)>& body,
                 const SamplingPolicy& policy, double sample_s) {
  auto seconds_for = [&](std::int64_t ops) { return team.run([&](int m) { body(m, ops); }); };
  const std::int64_t ops = calibrate(seconds_for, sample_s, 1000);
  return measure([&] { return seconds_for(ops) / static_cast<double>(ops) * 1e9; }, policy);
}

// Counters the false-sharing test updates: all in one line, or one per slot.
struct alignas(kSlot) SharedLine {
  std::atomic<std::uint64_t> counters[8];
};

// A plain increment (load, add, store; no locked instruction), so the cost measured is the
// line moving between cores, not the atomic.
void increment(std::atomic<std::uint64_t>& c, std::int64_t ops) {
  for (std::int64_t i = 0; i < ops; ++i) c.store(c.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

}  // namespace

CoherenceResult measure_coherence(const SamplingPolicy& policy, double sample_s) {
  CoherenceResult r;
  r.cpus = Machine::current().cpu_ids;
  const std::size_t n = r.cpus.size();
  r.core_to_core_ns.assign(n, std::vector<Figure>(n));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      PinnedTeam pair({r.cpus[i], r.cpus[j]});
      const std::int64_t trips = calibrate(
          [&](std::int64_t t) { return round_trip_ns(pair, t) * static_cast<double>(t) * 1e-9; },
          sample_s, 100);
      r.core_to_core_ns[i][j] = measure([&] { return round_trip_ns(pair, trips); }, policy);
      r.core_to_core_ns[j][i] = r.core_to_core_ns[i][j];
    }

  const std::vector<int> all = first_cpus(static_cast<int>(n));
  if (all.size() > 1) {
    PinnedTeam team(all);
    r.false_sharing_threads = team.size();
    SharedLine same;
    std::vector<PaddedCounter> padded(all.size());
    r.same_line_ns = per_op_ns(team, [&](int m, std::int64_t ops) { increment(same.counters[m % 8], ops); },
                               policy, sample_s);
    r.padded_ns = per_op_ns(team, [&](int m, std::int64_t ops) { increment(padded[static_cast<std::size_t>(m)].value, ops); },
                            policy, sample_s);
  }

  struct Operation {
    const char* name;
    void (*run)(std::atomic<std::uint64_t>&, std::int64_t);
  };
  const Operation operations[] = {
      {"fetch_add relaxed",
       [](std::atomic<std::uint64_t>& c, std::int64_t ops) {
         for (std::int64_t i = 0; i < ops; ++i) c.fetch_add(1, std::memory_order_relaxed);
       }},
      {"fetch_add seq_cst",
       [](std::atomic<std::uint64_t>& c, std::int64_t ops) {
         for (std::int64_t i = 0; i < ops; ++i) c.fetch_add(1, std::memory_order_seq_cst);
       }},
      {"fence seq_cst",
       [](std::atomic<std::uint64_t>&, std::int64_t ops) {
         for (std::int64_t i = 0; i < ops; ++i) std::atomic_thread_fence(std::memory_order_seq_cst);
       }},
  };
  PaddedCounter counter;
  for (const Operation& op : operations) {
    AtomicCost cost;
    cost.operation = op.name;
    {
      PinnedTeam one(first_cpus(1));
      cost.uncontended_ns = per_op_ns(one, [&](int, std::int64_t ops) { op.run(counter.value, ops); },
                                      policy, sample_s);
    }
    if (all.size() > 1) {
      PinnedTeam team(all);
      cost.contended_ns = per_op_ns(team, [&](int, std::int64_t ops) { op.run(counter.value, ops); },
                                    policy, sample_s);
    }
    r.atomics.push_back(cost);
  }
  return r;
}

}  // namespace ridge::probe::detail
