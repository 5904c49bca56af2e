// Per-thread scratch storage.
#include "runtime/aligned_buffer.hpp"

namespace ridge::detail {

AlignedBuffer& thread_scratch(ScratchSlot slot) {
  thread_local AlignedBuffer buffers[static_cast<int>(ScratchSlot::count)];
  return buffers[static_cast<int>(slot)];
}

}  // namespace ridge::detail
