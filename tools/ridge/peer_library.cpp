// Peer BLAS libraries through dlopen. RTLD_DEEPBIND keeps each peer's internal calls inside the
// peer (a CBLAS wrapper calling sgemm_ must not land in another library that exports it too).
#include "peer_library.hpp"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "ridge/machine.hpp"
#include "runtime/settings.hpp"

namespace ridge::cli {
namespace {

struct KnownPeer {
  const char* name;
  const char* path;
  const char* kernels_variable;  // read when the library loads: which kernels to run
  const char* avx2_kernels;      // its value for --isa-cap avx2; null: the library can't be told
  // Its value for --isa-cap avx2 where ridge's AVX2 path runs AVX-VNNI (avx2_uses_vnni); null:
  // avx2_kernels.
  const char* avx2_vnni_kernels;
};

// Debian 12's packages: libopenblas0-pthread, libblis4-openmp, libdnnl2. BLIS 0.9 takes an
// architecture id, but Debian's build aborts on every value tried on a Xeon guest (0, 3, 6); it
// picks its AVX2 "haswell" or "zen3" kernels by itself on the hosts seen so far.
constexpr KnownPeer kKnownPeers[] = {
    {"openblas", "/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0", "OPENBLAS_CORETYPE",
     "Haswell", nullptr},
    {"blis", "/usr/lib/x86_64-linux-gnu/blis-openmp/libblis.so.4", "BLIS_ARCH_TYPE", nullptr,
     nullptr},
    {"onednn", "libdnnl.so.2", "ONEDNN_MAX_CPU_ISA", "AVX2", "AVX2_VNNI"},
};

// Whether ridge's AVX2 path runs its int8 GEMM on AVX-VNNI here (gemm/dispatch.cpp). The AVX2
// cap then leaves the peers their AVX-VNNI too, as a CPU with AVX2 and AVX-VNNI but no AVX-512
// (Intel's since Alder Lake) would.
bool avx2_uses_vnni() { return Machine::current().isa.avx_vnni && runtime::avx_vnni_allowed(); }

constexpr int kRowMajor = 101, kNoTrans = 111, kTrans = 112;

}  // namespace

std::unique_ptr<PeerLibrary> PeerLibrary::load(const std::string& spec, int threads,
                                               const std::string& isa_cap) {
  const std::size_t colon = spec.find(':');
  const std::string library = spec.substr(0, colon);
  const std::string kernels = colon == std::string::npos ? "" : spec.substr(colon + 1);
  std::string path = library;
  for (const KnownPeer& known : kKnownPeers) {
    if (library != known.name) continue;
    path = known.path;
    const char* capped = avx2_uses_vnni() && known.avx2_vnni_kernels != nullptr
                             ? known.avx2_vnni_kernels
                             : known.avx2_kernels;
    const char* chosen = !kernels.empty() ? kernels.c_str() : isa_cap == "avx2" ? capped : nullptr;
    if (chosen != nullptr) setenv(known.kernels_variable, chosen, 1);
  }
  const std::string count = std::to_string(threads);
  // Each library reads its own variable when it starts its threads (at load or first call).
  setenv("OPENBLAS_NUM_THREADS", count.c_str(), 1);
  setenv("BLIS_NUM_THREADS", count.c_str(), 1);
  setenv("OMP_NUM_THREADS", count.c_str(), 1);
  // OpenBLAS's idle threads busy-wait 2^28 cycles (~75 ms) after each call, stealing cores from
  // whatever is timed next; 2^20 cycles (~0.3 ms) still bridges back-to-back calls within a
  // timed sample, so its own figures are unchanged, and lets it go quiet between contenders.
  setenv("OPENBLAS_THREAD_TIMEOUT", "20", 0);
  // Likewise libgomp (under oneDNN and BLIS) spins idle threads for 300000 pauses; in this KVM
  // guest that lasts over half a second (measured: ridge's 128^3 sgemm on 2 threads ran at
  // 1-thread speed 500 ms after oneDNN's last 64^3 call, and at full speed with this bound).
  // 100000 pauses still bridge back-to-back calls: oneDNN's figures stayed within the run-to-run
  // noise at 64^3-1024^3. libgomp reads it when it loads, with the peer.
  setenv("GOMP_SPINCOUNT", "100000", 0);

  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
  if (handle == nullptr)
    throw std::runtime_error("cannot load peer library '" + spec + "': " + dlerror());
  std::unique_ptr<PeerLibrary> peer(new PeerLibrary());
  peer->name_ = spec;
  peer->handle_ = handle;
  peer->sgemm_ = reinterpret_cast<CblasSgemm>(dlsym(handle, "cblas_sgemm"));
  peer->dgemm_ = reinterpret_cast<CblasDgemm>(dlsym(handle, "cblas_dgemm"));
  peer->sgemv_ = reinterpret_cast<CblasSgemv>(dlsym(handle, "cblas_sgemv"));
  peer->dgemv_ = reinterpret_cast<CblasDgemv>(dlsym(handle, "cblas_dgemv"));
  peer->is_ridge_ = dlsym(handle, "ridge_version") != nullptr;
  peer->sbgemm_ = reinterpret_cast<CblasSbgemm>(dlsym(handle, "cblas_sbgemm"));
  if (peer->sbgemm_ == nullptr) {
    const auto bf16 = reinterpret_cast<DnnlBf16>(dlsym(handle, "dnnl_gemm_bf16bf16f32"));
    const std::uint16_t one = 0x3f80;
    float c = 0;
    if (bf16 != nullptr && bf16('N', 'N', 1, 1, 1, 1.0f, &one, 1, &one, 1, 0.0f, &c, 1) == 0)
      peer->dnnl_bf16_ = bf16;
  }
  const char* prefix = peer->is_ridge_ ? "ridge_gemm_" : "dnnl_gemm_";
  peer->gemm_u8s8s32_ = reinterpret_cast<GemmInt8<std::uint8_t>>(
      dlsym(handle, (std::string(prefix) + "u8s8s32").c_str()));
  peer->gemm_s8s8s32_ = reinterpret_cast<GemmInt8<std::int8_t>>(
      dlsym(handle, (std::string(prefix) + "s8s8s32").c_str()));
  if (peer->sgemm_ == nullptr)
    peer->dnnl_sgemm_ = reinterpret_cast<DnnlSgemm>(dlsym(handle, "dnnl_sgemm"));
  if (!peer->has_sgemm() && !peer->has_dgemm())
    throw std::runtime_error("peer library '" + spec + "' exports no cblas_sgemm/dnnl_sgemm");

  // Explicit setters where the library has them (the environment may have been read already).
  if (auto set = reinterpret_cast<void (*)(int)>(dlsym(handle, "openblas_set_num_threads")))
    set(threads);
  if (auto set = reinterpret_cast<void (*)(std::int64_t)>(dlsym(handle, "bli_thread_set_num_threads")))
    set(threads);
  if (auto set = reinterpret_cast<void (*)(int)>(dlsym(handle, "omp_set_num_threads"))) set(threads);
  return peer;
}

std::string PeerLibrary::kernel_choice() const {
  if (auto isa = reinterpret_cast<const char* (*)()>(dlsym(handle_, "ridge_get_isa")))
    return std::string("ridge ") + isa();
  if (auto corename = reinterpret_cast<char* (*)()>(dlsym(handle_, "openblas_get_corename")))
    return corename();
  const auto arch_id = reinterpret_cast<int (*)()>(dlsym(handle_, "bli_arch_query_id"));
  const auto arch_name = reinterpret_cast<const char* (*)(int)>(dlsym(handle_, "bli_arch_string"));
  if (arch_id != nullptr && arch_name != nullptr) return arch_name(arch_id());
  if (auto isa = reinterpret_cast<unsigned (*)()>(dlsym(handle_, "dnnl_get_effective_cpu_isa"))) {
    // dnnl_cpu_isa_t (dnnl_types.h, oneDNN 2.x): each ISA's bits include those it extends.
    struct Named {
      unsigned bits;
      const char* name;
    };
    constexpr Named kIsas[] = {{0x3e7, "avx512_core_amx"}, {0xe7, "avx512_core_bf16"},
                               {0x67, "avx512_core_vnni"}, {0x27, "avx512_core"},
                               {0x407, "avx2_vnni"},       {0x7, "avx2"},
                               {0x3, "avx"},               {0x1, "sse41"}};
    const unsigned bits = isa();
    for (const Named& n : kIsas)
      if (bits == n.bits) return n.name;
    char text[32];
    std::snprintf(text, sizeof(text), "isa 0x%x", bits);
    return text;
  }
  return "?";
}

void* PeerLibrary::symbol(const char* name) const { return dlsym(handle_, name); }

PeerLibrary::~PeerLibrary() {
  // Not dlclose'd: OpenMP runtimes and OpenBLAS threads do not unload cleanly.
}

void PeerLibrary::sgemm(bool trans_a, bool trans_b, std::int64_t m, std::int64_t n,
                        std::int64_t k, const float* a, std::int64_t lda, const float* b,
                        std::int64_t ldb, float beta, float* c, std::int64_t ldc) const {
  if (sgemm_ != nullptr) {
    sgemm_(kRowMajor, trans_a ? kTrans : kNoTrans, trans_b ? kTrans : kNoTrans,
           static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), 1.0f, a,
           static_cast<int>(lda), b, static_cast<int>(ldb), beta, c, static_cast<int>(ldc));
  } else {
    dnnl_sgemm_(trans_a ? 'T' : 'N', trans_b ? 'T' : 'N', m, n, k, 1.0f, a, lda, b, ldb, beta, c,
                ldc);
  }
}

void PeerLibrary::dgemm(bool trans_a, bool trans_b, std::int64_t m, std::int64_t n,
                        std::int64_t k, const double* a, std::int64_t lda, const double* b,
                        std::int64_t ldb, double beta, double* c, std::int64_t ldc) const {
  dgemm_(kRowMajor, trans_a ? kTrans : kNoTrans, trans_b ? kTrans : kNoTrans,
         static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), 1.0, a,
         static_cast<int>(lda), b, static_cast<int>(ldb), beta, c, static_cast<int>(ldc));
}

void PeerLibrary::sgemv(bool trans, std::int64_t m, std::int64_t n, const float* a,
                        std::int64_t lda, const float* x, float beta, float* y) const {
  sgemv_(kRowMajor, trans ? kTrans : kNoTrans, static_cast<int>(m), static_cast<int>(n), 1.0f, a,
         static_cast<int>(lda), x, 1, beta, y, 1);
}

void PeerLibrary::dgemv(bool trans, std::int64_t m, std::int64_t n, const double* a,
                        std::int64_t lda, const double* x, double beta, double* y) const {
  dgemv_(kRowMajor, trans ? kTrans : kNoTrans, static_cast<int>(m), static_cast<int>(n), 1.0, a,
         static_cast<int>(lda), x, 1, beta, y, 1);
}

namespace {

template <class A>
void call_gemm_int8(const char* library, PeerLibrary::GemmInt8<A> f, bool trans_a, bool trans_b,
                    std::int64_t m, std::int64_t n, std::int64_t k, const A* a, std::int64_t lda,
                    const std::int8_t* b, std::int64_t ldb, std::int32_t* c, std::int64_t ldc) {
  const std::int32_t no_offset = 0;
  if (f(trans_a ? 'T' : 'N', trans_b ? 'T' : 'N', 'F', m, n, k, 1.0f, a, lda, 0, b, ldb, 0, 0.0f, c,
        ldc, &no_offset) != 0)
    throw std::runtime_error(std::string(library) + ": int8 GEMM failed");
}

}  // namespace

void PeerLibrary::sbgemm(bool trans_a, bool trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
                         const std::uint16_t* a, std::int64_t lda, const std::uint16_t* b,
                         std::int64_t ldb, float* c, std::int64_t ldc) const {
  if (sbgemm_ != nullptr) {
    sbgemm_(kRowMajor, trans_a ? kTrans : kNoTrans, trans_b ? kTrans : kNoTrans,
            static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), 1.0f, a,
            static_cast<int>(lda), b, static_cast<int>(ldb), 0.0f, c, static_cast<int>(ldc));
  } else if (dnnl_bf16_(trans_a ? 'T' : 'N', trans_b ? 'T' : 'N', m, n, k, 1.0f, a, lda, b, ldb,
                        0.0f, c, ldc) != 0) {
    throw std::runtime_error(name_ + ": bf16 GEMM failed");
  }
}

void PeerLibrary::gemm_int8(bool trans_a, bool trans_b, std::int64_t m, std::int64_t n,
                            std::int64_t k, const std::uint8_t* a, std::int64_t lda,
                            const std::int8_t* b, std::int64_t ldb, std::int32_t* c,
                            std::int64_t ldc) const {
  call_gemm_int8(name_.c_str(), gemm_u8s8s32_, trans_a, trans_b, m, n, k, a, lda, b, ldb, c, ldc);
}

void PeerLibrary::gemm_int8(bool trans_a, bool trans_b, std::int64_t m, std::int64_t n,
                            std::int64_t k, const std::int8_t* a, std::int64_t lda,
                            const std::int8_t* b, std::int64_t ldb, std::int32_t* c,
                            std::int64_t ldc) const {
  call_gemm_int8(name_.c_str(), gemm_s8s8s32_, trans_a, trans_b, m, n, k, a, lda, b, ldb, c, ldc);
}

}  // namespace ridge::cli
