// oneDNN's matmul primitive with ridge's GEMM epilogue as its post-ops: the fused peer of
// `ridge bench gemm --epilogue`, so that ridge's fused GEMM meets oneDNN's fused one rather than
// only oneDNN's GEMM followed by passes over C.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "onednn_c_api.hpp"
#include "peer_library.hpp"

namespace ridge::cli {

class OnednnMatmul {
 public:
  // The bench's row-major f32 operands, stored without padding: A m x k (k x m where trans_a),
  // B k x n (n x k where trans_b), C m x n, and what the epilogue reads: a bias of n values and
  // an m x n residual. Null pointers give a primitive that can be created but not run.
  struct Operands {
    std::int64_t m, n, k;
    bool trans_a, trans_b;
    const float* a = nullptr;
    const float* b = nullptr;
    const float* bias = nullptr;
    const float* residual = nullptr;
    float* c = nullptr;
  };

  // Whether `library` is oneDNN (of any version: the constructor says which it cannot drive).
  static bool is_onednn(const PeerLibrary& library);

  // Creates the primitive for C = epilogue(op(A) op(B)) once, outside any timed call, as an
  // inference framework would, and binds it to the operands. `epilogue`: bench gemm's operation
  // names in order (bias, relu, gelu_tanh, gelu_erf, silu, residual). The primitive takes the
  // thread count and ISA cap the library was loaded with. Throws std::runtime_error naming the
  // call that failed and oneDNN's status (unimplemented, for one).
  OnednnMatmul(const PeerLibrary& library, const Operands& operands,
               const std::vector<std::string>& epilogue);

  // One product: executes the primitive and waits until C is written.
  void run() const;
  // oneDNN's name for the kernels it chose, such as "brg:avx512_core" or "ref:any".
  const std::string& implementation() const { return implementation_; }

 private:
  template <class Handle>
  using Owned = std::unique_ptr<std::remove_pointer_t<Handle>, onednn::Status (*)(Handle)>;

  onednn::PrimitiveExecute execute_ = nullptr;
  onednn::StreamWait wait_ = nullptr;
  // Destroyed in reverse: the memories and the primitive before the engine they were made on.
  Owned<onednn::Engine> engine_{nullptr, nullptr};
  Owned<onednn::Stream> stream_{nullptr, nullptr};
  std::vector<Owned<onednn::Memory>> memories_;
  Owned<onednn::Primitive> primitive_{nullptr, nullptr};
  std::vector<onednn::ExecArg> args_;
  std::string implementation_;
};

}  // namespace ridge::cli
