// The transposition at the heart of packing an operand whose slots lie contiguous along the
// other dimension than the panel's (a row-contiguous A, a column-contiguous B): slots of floats
// or doubles, or 32-bit words of two bf16 or four int8 values as they lie (moved as floats), four
// lines by four slots at a time with V's vector shuffles (V::transpose_4x4, through unaligned
// loads: such words may lie off their 4 bytes).
#pragma once

#include <cstdint>

namespace ridge::kernels {

// Which dimension the loops walk outermost.
enum class TransposeOrder {
  // Each group of four lines through all its slots: four streams at a time, for A's rows, MR of
  // which may lie a page apart (all in one L1 set).
  lines_outer,
  // All lines a step of four slots at a time: every line one stream, for a B strip's NR
  // columns (packing 596 x 1080 of a cold 4096-row matrix: 15 GB/s, against 9 reading four
  // columns through the whole depth before the next four).
  slots_outer,
};

// dst[s * dst_stride + l] = src[l * stride + s] for lines [0, lines) and slots [0, slots), both
// multiples of 4.
template <class V, TransposeOrder Order, class T>
void transpose_blocks(const T* src, std::int64_t stride, std::int64_t lines, std::int64_t slots,
                      T* dst, std::int64_t dst_stride) {
  if constexpr (Order == TransposeOrder::lines_outer) {
    for (std::int64_t l = 0; l < lines; l += 4)
      for (std::int64_t s = 0; s < slots; s += 4)
        V::transpose_4x4(src + l * stride + s, stride, dst + s * dst_stride + l, dst_stride);
  } else {
    for (std::int64_t s = 0; s < slots; s += 4)
      for (std::int64_t l = 0; l < lines; l += 4)
        V::transpose_4x4(src + l * stride + s, stride, dst + s * dst_stride + l, dst_stride);
  }
}

}  // namespace ridge::kernels
