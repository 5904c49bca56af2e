// The calling thread's workspace: one page-aligned block that grows and is kept.
#include "runtime/workspace.hpp"

#include <cstdlib>
#include <memory>
#include <new>

namespace ridge::runtime {
namespace {

struct Free {
  void operator()(std::byte* p) const { std::free(p); }
};

struct Block {
  std::unique_ptr<std::byte, Free> data;
  std::size_t capacity = 0;
};

std::byte* at_least(Block& block, std::size_t bytes) {
  if (bytes > block.capacity) {
    const std::size_t rounded = page_round(bytes);
    auto* memory = static_cast<std::byte*>(std::aligned_alloc(kWorkspacePage, rounded));
    if (memory == nullptr) throw std::bad_alloc();
    block.data.reset(memory);
    block.capacity = rounded;
  }
  return block.data.get();
}

}  // namespace

std::byte* workspace(std::size_t bytes) {
  thread_local Block block;
  return at_least(block, bytes);
}

std::byte* sums_workspace(std::size_t bytes) {
  thread_local Block block;
  return at_least(block, bytes);
}

}  // namespace ridge::runtime
