// GEMM and threads: bit-identical results for any thread count, concurrent callers, nested
// calls from inside pool tasks, and a multithreaded call in a fork()ed child.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <thread>

#include "gemm/reference.hpp"
#include "ridge/ridge.hpp"
#include "runtime/thread_pool.hpp"
#include "support/line_offset.hpp"

namespace ridge::test {
namespace {

template <class T>
std::vector<T> product(std::int64_t m, std::int64_t n, std::int64_t k, int threads,
                       unsigned seed = 3) {
  std::mt19937 rng(seed);
  Matrix<T> a(m, k, Layout::row_major), b(k, n, Layout::row_major), c(m, n, Layout::row_major);
  a.fill_random(rng);
  b.fill_random(rng);
  c.fill_random(rng);
  set_num_threads(threads);
  gemm(T(0.75), a.view(), b.view(), T(-0.5), c.view());
  set_num_threads(0);
  return c.storage;
}

TEST(GemmThreads, ResultsAreBitIdenticalForAnyThreadCount) {
  // Shapes on the packed path (400 x 1000 x 700: the internal B, op(A) of the row-major call,
  // is 280K elements, past any L2; the other shapes' internal B fits L2), the direct path, the
  // skinny paths, with edges in both dimensions; 48 rows against a 1500 x 700 weight, whose
  // threads split the weight's columns (the packing cost in choose_grid).
  for (auto [m, n, k] : {std::tuple{400, 1000, 700},
                         {100, 701, 600},
                         {333, 257, 300},
                         {8, 700, 400},
                         {700, 8, 400},
                         {97, 1000, 64},
                         {48, 1500, 700}}) {
    const std::vector<float> one = product<float>(m, n, k, 1);
    for (int threads : {2, 3, 4}) {
      const std::vector<float> many = product<float>(m, n, k, threads);
      ASSERT_EQ(0, std::memcmp(one.data(), many.data(), one.size() * sizeof(float)))
          << m << "x" << n << "x" << k << " with " << threads << " threads";
    }
    const std::vector<double> one_d = product<double>(m, n, k, 1);
    const std::vector<double> two_d = product<double>(m, n, k, 2);
    ASSERT_EQ(0, std::memcmp(one_d.data(), two_d.data(), one_d.size() * sizeof(double)));
  }
}

// The low-precision GEMMs too, on shapes whose depth slices follow the product's width (the
// AMX tiles' deeper slices from 2048 columns of the internal C, the rows of a row-major C) and
// with alpha and beta that make each slice round on its own.
TEST(GemmThreads, LowPrecisionResultsAreBitIdenticalForAnyThreadCount) {
  for (auto [m, n, k] :
       {std::tuple{2100, 40, 1500}, {2048, 96, 2100}, {300, 200, 1300}, {48, 2100, 1500}}) {
    std::mt19937 rng(5);
    Matrix<float> a(m, k, Layout::row_major), b(k, n, Layout::row_major);
    a.fill_random(rng);
    b.fill_random(rng);
    std::vector<bf16> a16(a.storage.size()), b16(b.storage.size());
    for (std::size_t i = 0; i < a16.size(); ++i)
      a.storage[i] = to_float(a16[i] = to_bf16(a.storage[i]));
    for (std::size_t i = 0; i < b16.size(); ++i)
      b.storage[i] = to_float(b16[i] = to_bf16(b.storage[i]));
    Matrix<float> c0(m, n, Layout::row_major);
    c0.fill_random(rng);
    const Reference<float> want =
        reference_gemm(0.75f, a, Transpose::none, b, Transpose::none, -0.5f, c0);
    std::vector<float> one;
    for (int threads : {1, 2, 3}) {
      Matrix<float> c = c0;
      set_num_threads(threads);
      gemm(0.75f, MatrixView<const bf16>{a16.data(), m, k, a.ld, Layout::row_major},
           MatrixView<const bf16>{b16.data(), k, n, b.ld, Layout::row_major}, -0.5f, c.view());
      set_num_threads(0);
      if (threads == 1) {
        ASSERT_EQ(compare(c, want), "") << m << "x" << n << "x" << k;
        one = c.storage;
        continue;
      }
      ASSERT_EQ(0, std::memcmp(one.data(), c.storage.data(), one.size() * sizeof(float)))
          << m << "x" << n << "x" << k << " with " << threads << " threads";
    }
  }
}

// The threads' blocks of C depend on where C starts (blocks of rows that would meet inside a
// cache line split by columns instead): the results must not.
TEST(GemmThreads, ResultsAreBitIdenticalWhereverCStarts) {
  constexpr std::int64_t kM = 128, kN = 128, kK = 96;
  std::mt19937 rng(11);
  Matrix<float> a(kM, kK, Layout::col_major), b(kK, kN, Layout::col_major);
  a.fill_random(rng);
  b.fill_random(rng);
  // Room for C at every element offset within a 64-byte line.
  std::vector<float> storage(kM * kN + 64);
  for (std::size_t offset : {0, 1, 4, 15}) {
    float* c = past_line_start(storage, offset);
    std::vector<float> results[2];
    for (int threads : {1, 2}) {
      std::fill(storage.begin(), storage.end(), 0.5f);
      set_num_threads(threads);
      gemm(1.0f, a.view(), b.view(), 0.0f,
           MatrixView<float>{c, kM, kN, kM, Layout::col_major, Transpose::none});
      set_num_threads(0);
      results[threads - 1].assign(c, c + kM * kN);
      const std::size_t begin = static_cast<std::size_t>(c - storage.data());
      for (std::size_t i = 0; i < storage.size(); ++i) {
        if (i >= begin && i < begin + kM * kN) continue;
        ASSERT_EQ(storage[i], 0.5f) << "written at " << i;
      }
    }
    ASSERT_EQ(0, std::memcmp(results[0].data(), results[1].data(), kM * kN * sizeof(float)))
        << "C " << offset << " elements past a line start";
  }
}

// LLM decoding on weights starting off a line, as a heap block does, their rows a page or more
// apart: the direct path's rows of tiles then start with the rows up to the weights' first line
// boundary, whose tiles' edges move with the threads' blocks. The results must not, and must match
// the reference. Weights 64 deep stay in cache; 1100 deep they pass what the caches keep (without
// a probe file, half of the reported L3; 18 MiB here).
TEST(GemmThreads, DecodingOnWeightsOffALineIsBitIdenticalForAnyThreadCount) {
  constexpr std::int64_t kM = 12, kN = 4096;
  for (const std::int64_t k : {64, 1100}) {
    std::mt19937 rng(13);
    Matrix<float> x(kM, k, Layout::row_major), w(k, kN, Layout::row_major);
    x.fill_random(rng);
    w.fill_random(rng);
    std::vector<float> storage(k * kN + 64);
    float* weights = past_line_start(storage, 4);  // 16 bytes past, as malloc leaves a large block
    std::copy(w.storage.begin(), w.storage.end(), weights);
    const MatrixView<const float> w_view{weights, k, kN, kN, Layout::row_major, Transpose::none};
    Matrix<float> want_c(kM, kN, Layout::row_major);
    const Reference<float> want =
        reference_gemm(1.0f, x, Transpose::none, w, Transpose::none, 0.0f, want_c);
    std::vector<float> results[3];
    for (int threads : {1, 2, 3}) {
      Matrix<float> c(kM, kN, Layout::row_major);
      set_num_threads(threads);
      gemm(1.0f, x.view(), w_view, 0.0f, c.view());
      set_num_threads(0);
      ASSERT_EQ(compare(c, want), "") << threads << " threads, depth " << k;
      results[threads - 1] = c.storage;
    }
    for (int t : {1, 2})
      ASSERT_EQ(0, std::memcmp(results[0].data(), results[t].data(), kM * kN * sizeof(float)))
          << t + 1 << " threads, depth " << k;
  }
}

TEST(GemmThreads, ConcurrentCallersGetCorrectResults) {
  constexpr int kCallers = 4;
  std::vector<std::string> failures(kCallers);
  std::vector<std::thread> callers;
  for (int t = 0; t < kCallers; ++t)
    callers.emplace_back([t, &failures] {
      for (int iteration = 0; iteration < 5; ++iteration) {
        const std::int64_t size = 90 + 37 * t + iteration;
        std::mt19937 rng(static_cast<unsigned>(t * 100 + iteration));
        Matrix<float> a(size, size, Layout::row_major), b(size, size, Layout::row_major),
            c(size, size, Layout::row_major);
        a.fill_random(rng);
        b.fill_random(rng);
        c.fill_random(rng);
        const Reference<float> want =
            reference_gemm(1.0f, a, Transpose::none, b, Transpose::none, 0.0f, c);
        gemm(1.0f, a.view(), b.view(), 0.0f, c.view());
        const std::string miss = compare(c, want);
        if (!miss.empty()) failures[t] = miss;
      }
    });
  for (std::thread& c : callers) c.join();
  for (const std::string& f : failures) EXPECT_EQ(f, "");
}

TEST(GemmThreads, GemmInsidePoolTasksNeitherDeadlocksNorOversubscribes) {
  std::vector<std::string> failures(2);
  runtime::parallel_run(2, [&](int task) {
    EXPECT_TRUE(runtime::inside_pool_task());
    std::mt19937 rng(static_cast<unsigned>(task));
    Matrix<double> a(200, 150, Layout::col_major), b(150, 170, Layout::col_major),
        c(200, 170, Layout::col_major);
    a.fill_random(rng);
    b.fill_random(rng);
    const Reference<double> want =
        reference_gemm(1.0, a, Transpose::none, b, Transpose::none, 0.0, c);
    gemm(1.0, a.view(), b.view(), 0.0, c.view());
    failures[task] = compare(c, want);
  });
  EXPECT_EQ(failures[0], "");
  EXPECT_EQ(failures[1], "");
}

TEST(GemmThreads, WorksInAForkedChild) {
  // Start the pool in the parent first, so the child inherits a pool whose workers are gone.
  (void)product<float>(300, 300, 300, 2);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::mt19937 rng(5);
    Matrix<float> a(256, 256, Layout::row_major), b(256, 256, Layout::row_major),
        c(256, 256, Layout::row_major);
    a.fill_random(rng);
    b.fill_random(rng);
    const Reference<float> want =
        reference_gemm(1.0f, a, Transpose::none, b, Transpose::none, 0.0f, c);
    set_num_threads(2);
    gemm(1.0f, a.view(), b.view(), 0.0f, c.view());
    _exit(compare(c, want).empty() ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace ridge::test
