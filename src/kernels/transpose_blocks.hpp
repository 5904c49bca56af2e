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
  // Each group of four lines through a block of slots (two cache lines of each), then the next
  // group, block by block: for A's rows, MR of which may lie a page apart (all in one L1 set).
  // The block's part of the panel (MR x 32 words: 4 KiB) stays in L1 while every group writes
  // its 16 bytes of each of its lines; a group going through all its slots at once wrote 16
  // bytes a line over the whole panel (512 slots x 128 bytes at the usual depth, past L1) and
  // came back to each line for the next group. Measured on the 2-vCPU Xeon guest, bf16 x W^T
  // (pack_pairs_a's words) on 2 threads, against all slots at once, alternated: 32 / 128 x 4096 x
  // 4096 1.24-1.33x / 1.21-1.24x, 1024^3 1.09x, 4096^3 0.97-1.06x; u8s8 128 x 4096 x 4096
  // 1.14-1.19x, the others level; f32 128 x 4096 x 4096 1.05x. Fetching each line's next block
  // ahead ran no better.
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
    constexpr std::int64_t kBlock = 128 / sizeof(T);  // slots a block: two lines of each line
    for (std::int64_t s0 = 0; s0 < slots; s0 += kBlock) {
      const std::int64_t s_end = s0 + kBlock < slots ? s0 + kBlock : slots;
      for (std::int64_t l = 0; l < lines; l += 4)
        for (std::int64_t s = s0; s < s_end; s += 4)
          V::transpose_4x4(src + l * stride + s, stride, dst + s * dst_stride + l, dst_stride);
    }
  } else {
    for (std::int64_t s = 0; s < slots; s += 4)
      for (std::int64_t l = 0; l < lines; l += 4)
        V::transpose_4x4(src + l * stride + s, stride, dst + s * dst_stride + l, dst_stride);
  }
}

}  // namespace ridge::kernels
