// The calling thread's workspace: page-aligned, grown when asked for more, kept otherwise, one
// per thread.
#include <gtest/gtest.h>

#include <cstdint>
#include <thread>

#include "runtime/workspace.hpp"

namespace ridge::test {
namespace {

TEST(Workspace, IsPageAlignedAndKeptUntilMoreIsAsked) {
  std::byte* first = runtime::workspace(100);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(first) % runtime::kWorkspacePage, 0u);
  first[99] = std::byte{7};
  EXPECT_EQ(runtime::workspace(runtime::kWorkspacePage), first);  // within the rounded capacity
  std::byte* grown = runtime::workspace(64 * runtime::kWorkspacePage + 1);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(grown) % runtime::kWorkspacePage, 0u);
  grown[64 * runtime::kWorkspacePage] = std::byte{1};  // the whole size is usable
  EXPECT_EQ(runtime::workspace(10), grown);
}

TEST(Workspace, EachThreadHasItsOwn) {
  std::byte* mine = runtime::workspace(4096);
  std::byte* theirs = nullptr;
  std::thread([&] { theirs = runtime::workspace(4096); }).join();
  EXPECT_NE(theirs, nullptr);
  EXPECT_NE(mine, theirs);
}

TEST(Workspace, PagesRoundUp) {
  EXPECT_EQ(runtime::page_round(0), 0u);
  EXPECT_EQ(runtime::page_round(1), runtime::kWorkspacePage);
  EXPECT_EQ(runtime::pages_for<double>(512), runtime::kWorkspacePage);
  EXPECT_EQ(runtime::pages_for<double>(513), 2 * runtime::kWorkspacePage);
  EXPECT_EQ(runtime::pages_for<float>(-3), 0u);
}

}  // namespace
}  // namespace ridge::test
