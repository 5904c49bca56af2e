// Peer BLAS libraries through dlopen. RTLD_DEEPBIND keeps each peer's internal calls inside the
// peer (a CBLAS wrapper calling sgemm_ must not land in another library that exports it too).
#include "peer_library.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace ridge::cli {
namespace {

struct KnownPeer {
  const char* name;
  const char* path;
};

// Debian 12's packages (see shared/baseline.md): libopenblas0-pthread, libblis4-openmp, libdnnl2.
constexpr KnownPeer kKnownPeers[] = {
    {"openblas", "/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0"},
    {"blis", "/usr/lib/x86_64-linux-gnu/blis-openmp/libblis.so.4"},
    {"onednn", "libdnnl.so.2"},
};

constexpr int kRowMajor = 101, kNoTrans = 111, kTrans = 112;

}  // namespace

std::unique_ptr<PeerLibrary> PeerLibrary::load(const std::string& spec, int threads) {
  std::string path = spec;
  std::string name = spec;
  for (const KnownPeer& known : kKnownPeers)
    if (spec == known.name) path = known.path;
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
  peer->name_ = name;
  peer->handle_ = handle;
  peer->sgemm_ = reinterpret_cast<CblasSgemm>(dlsym(handle, "cblas_sgemm"));
  peer->dgemm_ = reinterpret_cast<CblasDgemm>(dlsym(handle, "cblas_dgemm"));
  peer->sgemv_ = reinterpret_cast<CblasSgemv>(dlsym(handle, "cblas_sgemv"));
  peer->dgemv_ = reinterpret_cast<CblasDgemv>(dlsym(handle, "cblas_dgemv"));
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

}  // namespace ridge::cli
