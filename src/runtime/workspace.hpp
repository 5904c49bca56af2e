// The memory a call needs beyond its operands (packed panels, staged vectors, partial results),
// reserved by the driver before the call writes anything. An allocation failure then throws on
// the calling thread with every output untouched, and no pool task ever allocates: the kernels
// only receive their part. The calling thread keeps its workspace between calls, so a call
// allocates only when it needs more than any call before it on that thread.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ridge::runtime {

// Parts of a workspace start on their own 4 KiB page: packed panels start aligned, and two
// threads' parts never share a cache line (or a page for the hardware prefetchers to cross).
inline constexpr std::size_t kWorkspacePage = 4096;

constexpr std::size_t page_round(std::size_t bytes) {
  return (bytes + kWorkspacePage - 1) / kWorkspacePage * kWorkspacePage;
}

// Bytes of `count` elements of T, rounded up to whole pages.
template <class T>
constexpr std::size_t pages_for(std::int64_t count) {
  return page_round(static_cast<std::size_t>(count > 0 ? count : 0) * sizeof(T));
}

// The calling thread's workspace, at least `bytes` long and page-aligned; its contents are not
// kept. Valid until the next call of workspace() on this thread: a call reserves once, before
// it writes any output, and hands out parts. Throws std::bad_alloc when the memory is not there.
std::byte* workspace(std::size_t bytes);

// A second such block of the calling thread, for a product's float sums where C is bf16: they
// live through the whole call, while the call's own workspace() is asked for. Kept between calls
// as the workspace is: allocated per call, the sums of a 4096 x 4096 C (64 MiB, past malloc's
// reuse) were first touched page by page on every call, and the page faults took 14% of the
// samples of a bf16 4096^3 product with an epilogue on 2 threads (perf, the Xeon guest).
std::byte* sums_workspace(std::size_t bytes);

}  // namespace ridge::runtime
