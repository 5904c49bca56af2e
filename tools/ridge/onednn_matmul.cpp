// oneDNN's matmul primitive through the C API declared in onednn_c_api.hpp (see
// onednn_matmul.hpp).
#include "onednn_matmul.hpp"

#include <stdexcept>

namespace ridge::cli {
namespace {

std::string status_text(onednn::Status status) {
  switch (status) {
    case onednn::kOutOfMemory:
      return "out of memory";
    case onednn::kInvalidArguments:
      return "invalid arguments";
    case onednn::kUnimplemented:
      return "unimplemented";
    case onednn::kRuntimeError:
      return "runtime error";
    default:
      return "status " + std::to_string(status);
  }
}

void check(onednn::Status status, const char* call) {
  if (status != onednn::kSuccess)
    throw std::runtime_error(std::string(call) + " returned " + status_text(status));
}

// The library's function `name` as type F.
template <class F>
F find(const PeerLibrary& library, const char* name) {
  const auto f = reinterpret_cast<F>(library.symbol(name));
  if (f == nullptr) throw std::runtime_error(std::string("no ") + name + " in the library");
  return f;
}

// A 2-D f32 descriptor of rows x columns, stored row-major or, `transposed`, column-major.
onednn::MemoryDesc matrix_desc(onednn::MemoryDescInitByTag init, std::int64_t rows,
                               std::int64_t columns, bool transposed = false) {
  onednn::MemoryDesc desc;
  const onednn::Dim dims[onednn::kMaxDims] = {rows, columns};
  check(init(&desc, 2, dims, onednn::kF32, transposed ? onednn::kTagBa : onednn::kTagAb),
        "dnnl_memory_desc_init_by_tag");
  return desc;
}

}  // namespace

bool OnednnMatmul::is_onednn(const PeerLibrary& library) {
  return library.symbol("dnnl_version") != nullptr;
}

OnednnMatmul::OnednnMatmul(const PeerLibrary& library, const Operands& x,
                           const std::vector<std::string>& epilogue) {
  const onednn::Version* version = find<onednn::GetVersion>(library, "dnnl_version")();
  if (version->major != 2)
    throw std::runtime_error("oneDNN " + std::to_string(version->major) + "." +
                             std::to_string(version->minor) +
                             ": only 2.x's C API is declared here");
  // None for an empty product: oneDNN 2.6 divides by zero (SIGFPE) creating one.
  if (x.m == 0 || x.n == 0 || x.k == 0)
    throw std::runtime_error("no primitive for an empty product");
  execute_ = find<onednn::PrimitiveExecute>(library, "dnnl_primitive_execute");
  wait_ = find<onednn::StreamWait>(library, "dnnl_stream_wait");

  onednn::Engine engine = nullptr;
  check(find<onednn::EngineCreate>(library, "dnnl_engine_create")(&engine, onednn::kCpuEngine, 0),
        "dnnl_engine_create");
  engine_ = {engine, find<onednn::EngineDestroy>(library, "dnnl_engine_destroy")};
  onednn::Stream stream = nullptr;
  check(find<onednn::StreamCreate>(library, "dnnl_stream_create")(&stream, engine,
                                                                  onednn::kInOrderStream),
        "dnnl_stream_create");
  stream_ = {stream, find<onednn::StreamDestroy>(library, "dnnl_stream_destroy")};

  const auto create_memory = find<onednn::MemoryCreate>(library, "dnnl_memory_create");
  const auto destroy_memory = find<onednn::MemoryDestroy>(library, "dnnl_memory_destroy");
  // oneDNN only reads its sources; its memory objects take a non-const pointer regardless.
  const auto bind = [&](int arg, const onednn::MemoryDesc& desc, const float* data) {
    onednn::Memory memory = nullptr;
    check(create_memory(&memory, &desc, engine, const_cast<float*>(data)), "dnnl_memory_create");
    memories_.emplace_back(memory, destroy_memory);
    args_.push_back({arg, memory});
  };

  const auto init = find<onednn::MemoryDescInitByTag>(library, "dnnl_memory_desc_init_by_tag");
  const onednn::MemoryDesc src = matrix_desc(init, x.m, x.k, x.trans_a);
  const onednn::MemoryDesc weights = matrix_desc(init, x.k, x.n, x.trans_b);
  const onednn::MemoryDesc dst = matrix_desc(init, x.m, x.n);  // also the residual's
  const onednn::MemoryDesc row = matrix_desc(init, 1, x.n);    // the bias's, broadcast down C
  bind(onednn::kArgSrc, src, x.a);
  bind(onednn::kArgWeights, weights, x.b);
  bind(onednn::kArgDst, dst, x.c);
  // The matmul's own bias term is added before any post-op: it serves a leading bias.
  const bool bias_term = !epilogue.empty() && epilogue.front() == "bias";
  if (bias_term) bind(onednn::kArgBias, row, x.bias);

  onednn::PostOps post_ops = nullptr;
  check(find<onednn::PostOpsCreate>(library, "dnnl_post_ops_create")(&post_ops),
        "dnnl_post_ops_create");
  const Owned<onednn::PostOps> owned_post_ops(
      post_ops, find<onednn::PostOpsDestroy>(library, "dnnl_post_ops_destroy"));
  const auto eltwise = find<onednn::PostOpsAppendEltwise>(library, "dnnl_post_ops_append_eltwise");
  const auto binary = find<onednn::PostOpsAppendBinary>(library, "dnnl_post_ops_append_binary");
  int index = 0;  // in the post-op chain, which the matmul's bias term is no part of
  for (std::size_t i = bias_term ? 1 : 0; i < epilogue.size(); ++i, ++index) {
    const std::string& name = epilogue[i];
    if (name == "bias" || name == "residual") {
      const onednn::MemoryDesc& desc = name == "bias" ? row : dst;
      check(binary(post_ops, onednn::kBinaryAdd, &desc), "dnnl_post_ops_append_binary");
      bind(onednn::post_op_src1_arg(index), desc, name == "bias" ? x.bias : x.residual);
      continue;
    }
    // Scale 1; alpha is relu's slope below zero (0) and swish's factor in v sigmoid(alpha v)
    // (1: SiLU); the GELUs take none.
    const int alg = name == "relu"        ? onednn::kEltwiseRelu
                    : name == "gelu_tanh" ? onednn::kEltwiseGeluTanh
                    : name == "gelu_erf"  ? onednn::kEltwiseGeluErf
                                          : onednn::kEltwiseSwish;
    check(eltwise(post_ops, 1.0f, alg, name == "silu" ? 1.0f : 0.0f, 0.0f),
          "dnnl_post_ops_append_eltwise");
  }
  onednn::PrimitiveAttr attr = nullptr;
  check(find<onednn::PrimitiveAttrCreate>(library, "dnnl_primitive_attr_create")(&attr),
        "dnnl_primitive_attr_create");
  const Owned<onednn::PrimitiveAttr> owned_attr(
      attr, find<onednn::PrimitiveAttrDestroy>(library, "dnnl_primitive_attr_destroy"));
  check(find<onednn::PrimitiveAttrSetPostOps>(library, "dnnl_primitive_attr_set_post_ops")(
            attr, post_ops),
        "dnnl_primitive_attr_set_post_ops");

  onednn::MatmulDesc matmul;
  check(find<onednn::MatmulDescInit>(library, "dnnl_matmul_desc_init")(
            &matmul, &src, &weights, bias_term ? &row : nullptr, &dst),
        "dnnl_matmul_desc_init");
  onednn::PrimitiveDesc pd = nullptr;
  check(find<onednn::PrimitiveDescCreate>(library, "dnnl_primitive_desc_create")(&pd, &matmul, attr,
                                                                                 engine, nullptr),
        "dnnl_primitive_desc_create");
  const Owned<onednn::PrimitiveDesc> owned_pd(
      pd, find<onednn::PrimitiveDescDestroy>(library, "dnnl_primitive_desc_destroy"));
  const char* chosen = nullptr;
  check(find<onednn::PrimitiveDescQuery>(library, "dnnl_primitive_desc_query")(
            pd, onednn::kImplementationName, 0, &chosen),
        "dnnl_primitive_desc_query");
  implementation_ = chosen;
  onednn::Primitive primitive = nullptr;
  check(find<onednn::PrimitiveCreate>(library, "dnnl_primitive_create")(&primitive, pd),
        "dnnl_primitive_create");
  primitive_ = {primitive, find<onednn::PrimitiveDestroy>(library, "dnnl_primitive_destroy")};
}

void OnednnMatmul::run() const {
  check(execute_(primitive_.get(), stream_.get(), static_cast<int>(args_.size()), args_.data()),
        "dnnl_primitive_execute");
  check(wait_(stream_.get()), "dnnl_stream_wait");
}

}  // namespace ridge::cli
