// A call that cannot get its workspace fails before writing anything: ridge::gemm, ridge::gemv
// and ridge::attention throw std::bad_alloc, the CBLAS entry point reports on stderr and returns,
// the C attention function returns RIDGE_ERROR_INTERNAL, and the output is untouched in each
// case. The test program supplies aligned_alloc (the allocator of runtime/workspace.cpp), which
// fails on a thread that asks it to; each call runs on a fresh thread, whose workspace is empty.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <functional>
#include <new>
#include <thread>
#include <vector>

#include "ridge/ridge.hpp"

namespace {

thread_local bool tls_out_of_memory = false;

}  // namespace

extern "C" void* aligned_alloc(std::size_t alignment, std::size_t size) {
  using Allocate = void* (*)(std::size_t, std::size_t);
  static const auto next = reinterpret_cast<Allocate>(dlsym(RTLD_NEXT, "aligned_alloc"));
  return tls_out_of_memory ? nullptr : next(alignment, size);
}

namespace ridge::test {
namespace {

// Runs `call` on a new thread whose aligned_alloc fails; returns what `call` returned.
bool without_memory(const std::function<bool()>& call) {
  bool ok = false;
  std::thread([&] {
    tls_out_of_memory = true;
    ok = call();
    tls_out_of_memory = false;
  }).join();
  return ok;
}

template <class T>
bool all_equal(const std::vector<T>& v, T value) {
  for (T x : v)
    if (x != value) return false;
  return true;
}

class OutOfMemory : public ::testing::Test {
 protected:
  // One thread: the pool's workers would be started by a call, and their memory is not what
  // this tests.
  void SetUp() override { set_num_threads(1); }
  void TearDown() override { set_num_threads(0); }
};

// 1000^3 runs the packed path, whose panels need workspace on any machine.
constexpr std::int64_t kSize = 1000;

TEST_F(OutOfMemory, GemmThrowsBeforeWritingC) {
  std::vector<float> a(kSize * kSize, 1.0f), c(kSize * kSize, 7.0f);
  EXPECT_TRUE(without_memory([&] {
    try {
      gemm(1.0f, row_major<const float>(a.data(), kSize, kSize),
           row_major<const float>(a.data(), kSize, kSize), 0.0f,
           row_major(c.data(), kSize, kSize));
    } catch (const std::bad_alloc&) {
      return all_equal(c, 7.0f);
    }
    return false;
  }));
  // With memory, the same call runs.
  gemm(1.0f, row_major<const float>(a.data(), kSize, kSize),
       row_major<const float>(a.data(), kSize, kSize), 0.0f, row_major(c.data(), kSize, kSize));
  EXPECT_EQ(c[0], static_cast<float>(kSize));
}

TEST_F(OutOfMemory, CblasReportsAndLeavesCUntouched) {
  std::vector<double> a(kSize * kSize, 1.0), c(kSize * kSize, 7.0);
  EXPECT_TRUE(without_memory([&] {
    const int n = static_cast<int>(kSize);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a.data(), n, a.data(),
                n, 0.5, c.data(), n);
    return all_equal(c, 7.0);
  }));
}

// A strided y is staged at unit stride in the workspace.
TEST_F(OutOfMemory, GemvThrowsBeforeWritingY) {
  constexpr std::int64_t kRows = 1000;
  std::vector<float> a(kRows * 3, 1.0f), x(3, 1.0f), y(2 * kRows, 7.0f);
  EXPECT_TRUE(without_memory([&] {
    try {
      gemv(1.0f, col_major<const float>(a.data(), kRows, 3), vector<const float>(x.data(), 3),
           0.5f, vector(y.data(), kRows, 2));
    } catch (const std::bad_alloc&) {
      return all_equal(y, 7.0f);
    }
    return false;
  }));
}

// Whichever path runs (decoding's partial results or the tiles' packed panels) needs workspace.
TEST_F(OutOfMemory, AttentionFailsBeforeWritingOut) {
  constexpr std::int64_t kKeys = 128, kHeads = 2, kDim = 32;
  for (std::int64_t queries : {1, 200}) {
    std::vector<float> q(queries * kHeads * kDim, 0.5f), kv(kKeys * kHeads * kDim, 0.25f);
    std::vector<float> out(q.size(), 7.0f);
    EXPECT_TRUE(without_memory([&] {
      try {
        attention(bshd<const float>(q.data(), 1, queries, kHeads, kDim),
                  bshd<const float>(kv.data(), 1, kKeys, kHeads, kDim),
                  bshd<const float>(kv.data(), 1, kKeys, kHeads, kDim),
                  bshd(out.data(), 1, queries, kHeads, kDim));
      } catch (const std::bad_alloc&) {
        return all_equal(out, 7.0f);
      }
      return false;
    })) << queries << " queries";
    EXPECT_TRUE(without_memory([&] {
      return ridge_attention_f32(q.data(), kv.data(), kv.data(), out.data(), 1, queries, kKeys,
                                 kHeads, kHeads, kDim, 0.0f, 0) == RIDGE_ERROR_INTERNAL &&
             all_equal(out, 7.0f);
    })) << queries << " queries";
  }
}

}  // namespace
}  // namespace ridge::test
