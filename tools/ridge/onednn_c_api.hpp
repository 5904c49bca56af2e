// The few parts of oneDNN 2.x's C API that the bench's matmul peer calls, declared here because
// oneDNN is loaded at run time (PeerLibrary) and building ridge must not need its headers.
// Every value and size below was checked against oneDNN's own headers, which give the same from
// 2.0 to 2.7; 3.x changed the descriptors, so the caller checks the library's major version.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ridge::cli::onednn {

// Every call returns a status; the ones worth telling apart in a message.
using Status = int;
constexpr Status kSuccess = 0, kOutOfMemory = 1, kInvalidArguments = 2, kUnimplemented = 3,
                 kRuntimeError = 5;

// Handles to the library's objects, opaque here.
using Engine = struct EngineObject*;
using Stream = struct StreamObject*;
using Memory = struct MemoryObject*;
using PrimitiveDesc = struct PrimitiveDescObject*;
using Primitive = struct PrimitiveObject*;
using PrimitiveAttr = struct PrimitiveAttrObject*;
using PostOps = struct PostOpsObject*;

// The descriptors are plain structs the caller provides and the library fills in; only their
// size and alignment matter here (a memory descriptor holds 12-dimension shapes, strides and
// blocking; the matmul one holds four memory descriptors).
struct alignas(8) MemoryDesc {
  unsigned char bytes[696];
};
struct alignas(8) MatmulDesc {
  unsigned char bytes[2800];
};

// dnnl_dims_t: up to 12 extents.
constexpr int kMaxDims = 12;
using Dim = std::int64_t;

constexpr int kF32 = 3;                 // dnnl_data_type_t
constexpr int kTagAb = 3, kTagBa = 22;  // dnnl_format_tag_t: row-major 2-D, transposed
constexpr int kCpuEngine = 1;           // dnnl_engine_kind_t
constexpr unsigned kInOrderStream = 1;  // dnnl_stream_flags_t
constexpr int kImplementationName = 8;  // dnnl_query_t: a const char* naming the kernels
constexpr int kEltwiseRelu = 0x1f, kEltwiseGeluTanh = 0xcf, kEltwiseGeluErf = 0x30,
              kEltwiseSwish = 0xdf;  // dnnl_alg_kind_t
constexpr int kBinaryAdd = 0x1fff0;  // dnnl_alg_kind_t

// Execution argument ids; the post-op operand's is its index's id or'ed with the binary
// operation's second source.
constexpr int kArgSrc = 1, kArgSrc1 = 2, kArgDst = 17, kArgWeights = 33, kArgBias = 41;
constexpr int post_op_src1_arg(int index) { return 16384 * (index + 1) | kArgSrc1; }

struct ExecArg {
  int arg;
  Memory memory;
};

// The leading fields of dnnl_version_t.
struct Version {
  int major, minor, patch;
};

using MemoryDescInitByTag = Status (*)(MemoryDesc*, int ndims, const Dim* dims, int data_type,
                                       int tag);
using MatmulDescInit = Status (*)(MatmulDesc*, const MemoryDesc* src, const MemoryDesc* weights,
                                  const MemoryDesc* bias, const MemoryDesc* dst);
using PrimitiveDescCreate = Status (*)(PrimitiveDesc*, const void* op_desc, PrimitiveAttr, Engine,
                                       PrimitiveDesc hint);
using PrimitiveDescQuery = Status (*)(PrimitiveDesc, int what, int index, void* result);
using PrimitiveDescDestroy = Status (*)(PrimitiveDesc);
using PrimitiveCreate = Status (*)(Primitive*, PrimitiveDesc);
using PrimitiveExecute = Status (*)(Primitive, Stream, int nargs, const ExecArg* args);
using PrimitiveDestroy = Status (*)(Primitive);
using PrimitiveAttrCreate = Status (*)(PrimitiveAttr*);
using PrimitiveAttrSetPostOps = Status (*)(PrimitiveAttr, PostOps);
using PrimitiveAttrDestroy = Status (*)(PrimitiveAttr);
using PostOpsCreate = Status (*)(PostOps*);
using PostOpsAppendEltwise = Status (*)(PostOps, float scale, int alg, float alpha, float beta);
using PostOpsAppendBinary = Status (*)(PostOps, int alg, const MemoryDesc* src1);
using PostOpsDestroy = Status (*)(PostOps);
using EngineCreate = Status (*)(Engine*, int kind, std::size_t index);
using EngineDestroy = Status (*)(Engine);
using StreamCreate = Status (*)(Stream*, Engine, unsigned flags);
using StreamWait = Status (*)(Stream);
using StreamDestroy = Status (*)(Stream);
using MemoryCreate = Status (*)(Memory*, const MemoryDesc*, Engine, void* handle);
using MemoryDestroy = Status (*)(Memory);
using GetVersion = const Version* (*)();

}  // namespace ridge::cli::onednn
