// Calls every function the installed libridge.so exports, through the installed headers
// (ridge/ridge.hpp alone), with arguments it accepts: a program that links against all of the
// public API. install_and_build.sh checks that nothing libridge.so exports is missing here.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ridge/ridge.hpp>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

int failures = 0;
void check(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAIL: %s\n", what);
    ++failures;
  }
}

}  // namespace

// The program's own BLAS error handlers (the library's are weak): they must be the ones called.
static int cblas_errors = 0, fortran_errors = 0;
extern "C" void cblas_xerbla(int, const char*, const char*, ...) { ++cblas_errors; }
extern "C" void xerbla_(const char*, const int*, size_t) { ++fortran_errors; }

int main() {
  // Version, threads, ISA: C and C++.
  check(std::strcmp(ridge_version(), RIDGE_VERSION_STRING) == 0, "ridge_version");
  ridge_set_num_threads(2);
  check(ridge_get_num_threads() == 2 && ridge::num_threads() == 2, "ridge_set_num_threads");
  ridge::set_num_threads(1);
  check(ridge_get_num_threads() == 1, "ridge::set_num_threads");
  check(ridge_set_isa("generic") == 0 && std::strcmp(ridge_get_isa(), "generic") == 0,
        "ridge_set_isa");
  check(ridge_set_isa("sse9") == RIDGE_ERROR_UNKNOWN_ISA, "ridge_set_isa refuses a name");
  const ridge::Isa best = ridge::best_isa();
  check(ridge::isa_supported(best), "ridge::isa_supported");
  ridge::set_isa(best);
  check(ridge::active_isa() == best && std::string(ridge::isa_name(best)).size() > 0,
        "ridge::set_isa");

  // The machine.
  const ridge::Machine& machine = ridge::Machine::current();
  const ridge::Machine detected = ridge::Machine::detect();
  check(detected.logical_cpus == machine.logical_cpus, "ridge::Machine::detect");
  const ridge::CacheLevel l1 = machine.data_cache(1);
  check(l1.size_bytes > 0 && l1.sets() >= 1, "ridge::Machine::data_cache, CacheLevel::sets");
  check(!ridge::describe(machine).empty() && ridge::to_json(machine).front() == '{',
        "ridge::describe, ridge::to_json");
  check(!ridge::measured_machine_path(machine).empty(), "ridge::measured_machine_path");
  const ridge::GemmTuning tuning = ridge::gemm_tuning(ridge::active_isa());
  ridge::GemmTuning deeper = tuning;
  deeper.skinny_depth = 128;
  ridge::set_gemm_tuning(ridge::active_isa(), deeper);
  check(ridge::gemm_tuning(ridge::active_isa()) == deeper &&
            ridge::tuning_text(deeper).find("skinny_depth 128") != std::string::npos,
        "ridge::set_gemm_tuning, ridge::gemm_tuning, ridge::tuning_text");
  ridge::set_gemm_tuning(ridge::active_isa(), tuning);

  // GEMM and GEMV, C++.
  std::vector<float> a(4, 1.0f), b(4, 2.0f), c(4, 0.0f), x(2, 1.0f), y(2, 0.0f);
  std::vector<double> ad(4, 1.0), bd(4, 2.0), cd(4, 0.0), xd(2, 1.0), yd(2, 0.0);
  ridge::gemm(1.0f, ridge::row_major<const float>(a.data(), 2, 2),
              ridge::row_major<const float>(b.data(), 2, 2), 0.0f, ridge::row_major(c.data(), 2, 2));
  ridge::gemm(1.0, ridge::row_major<const double>(ad.data(), 2, 2),
              ridge::row_major<const double>(bd.data(), 2, 2), 0.0,
              ridge::row_major(cd.data(), 2, 2));
  check(c[3] == 4.0f && cd[3] == 4.0, "ridge::gemm");
  const std::vector<float> halves(2, 0.5f), twos(2, 2.0f), ones(4, 1.0f), minus_ones(2, -1.0f);
  ridge::gemm(1.0f, ridge::row_major<const float>(a.data(), 2, 2),
              ridge::row_major<const float>(b.data(), 2, 2), 0.0f, ridge::row_major(c.data(), 2, 2),
              ridge::Epilogue()
                  .add_per_row(ones.data())               // 5
                  .add_per_column(minus_ones.data())      // 4
                  .scale_per_row(halves.data())           // 2
                  .scale_per_column(twos.data())          // 4
                  .activation(ridge::Activation::relu)    // 4
                  .clamp(0.0f, 3.0f)                      // 3
                  .add_matrix(ones.data(), 2));           // 4
  check(c[0] == 4.0f && c[3] == 4.0f, "ridge::gemm with an Epilogue");
  check(ridge_sgemm_fused(CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1.0f, a.data(), 2,
                          b.data(), 2, 0.0f, c.data(), 2, ones.data(), RIDGE_ACT_RELU,
                          ones.data(), 2) == 0 &&
            c[1] == 6.0f,
        "ridge_sgemm_fused");
  {
    // B packed: A all 1 times B all 2, depth 2, is 4; then + 1 by an epilogue; and through C.
    ridge::PackedMatrix packed(ridge::row_major<const float>(b.data(), 2, 2));
    ridge::PackedMatrix moved_to(std::move(packed));
    packed = std::move(moved_to);
    ridge::gemm(1.0f, ridge::row_major<const float>(a.data(), 2, 2), packed, 0.0f,
                ridge::row_major(c.data(), 2, 2));
    check(c[3] == 4.0f && packed.rows() == 2 && packed.cols() == 2, "ridge::PackedMatrix");
    ridge::gemm(1.0f, ridge::row_major<const float>(a.data(), 2, 2), packed, 0.0f,
                ridge::row_major(c.data(), 2, 2), ridge::Epilogue().add_per_row(ones.data()));
    check(c[2] == 5.0f, "ridge::gemm on a PackedMatrix with an Epilogue");
    ridge_packed_matrix* handle = nullptr;
    check(ridge_sgemm_pack_b(CblasNoTrans, 2, 2, b.data(), 2, &handle) == 0 &&
              ridge_sgemm_packed(CblasNoTrans, 2, 2, 2, 0.5f, a.data(), 2, handle, 0.0f, c.data(),
                                 2) == 0 &&
              c[1] == 2.0f,
          "ridge_sgemm_pack_b, ridge_sgemm_packed");
    ridge_packed_matrix_destroy(handle);
  }
  {
    // bf16: 1.5 x 2 + 0.5 x -1, depth 2, and C + that with an epilogue adding 1.
    const std::uint16_t a16[4] = {0x3fc0, 0x3f00, 0x3fc0, 0x3f00};  // 1.5, 0.5
    const std::uint16_t b16[4] = {0x4000, 0x4000, 0xbf80, 0xbf80};  // 2, 2; -1, -1
    float c16[4] = {};
    cblas_sbgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1.0f, a16, 2, b16, 2, 0.0f,
                 c16, 2);
    check(c16[3] == 2.5f, "cblas_sbgemm");
    const auto bf = [](const std::uint16_t* bits) {
      return reinterpret_cast<const ridge::bf16*>(bits);
    };
    ridge::gemm(1.0f, ridge::row_major(bf(a16), 2, 2), ridge::row_major(bf(b16), 2, 2), 1.0f,
                ridge::row_major(c16, 2, 2));
    check(c16[0] == 5.0f, "ridge::gemm on bf16");
    ridge::gemm(1.0f, ridge::row_major(bf(a16), 2, 2), ridge::row_major(bf(b16), 2, 2), 0.0f,
                ridge::row_major(c16, 2, 2), ridge::Epilogue().add_per_column(ones.data()));
    check(c16[1] == 3.5f, "ridge::gemm on bf16 with an Epilogue");
    // Into a bf16 C: 1 x 2 x 2 = 4 (0x4080), and from bf16 operands 2.5 (0x4020).
    ridge::bf16 out[4] = {};
    ridge::gemm(1.0f, ridge::row_major<const float>(a.data(), 2, 2),
                ridge::row_major<const float>(b.data(), 2, 2), ridge::row_major(out, 2, 2));
    check(out[3].bits == 0x4080, "ridge::gemm into a bf16 C");
    ridge::gemm(1.0f, ridge::row_major(bf(a16), 2, 2), ridge::row_major(bf(b16), 2, 2),
                ridge::row_major(out, 2, 2));
    check(out[3].bits == 0x4020, "ridge::gemm on bf16 into a bf16 C");
    // B packed for bf16, from bf16 and from float (b all 2: 1.5 x 2 + 0.5 x 2 = 4).
    const ridge::PackedMatrix packed(ridge::row_major(bf(b16), 2, 2));
    ridge::gemm(1.0f, ridge::row_major(bf(a16), 2, 2), packed, 0.0f, ridge::row_major(c16, 2, 2));
    check(c16[3] == 2.5f && packed.element() == ridge::PackedMatrix::Element::bf16,
          "ridge::PackedMatrix for bf16");
    const ridge::PackedMatrix rounded(ridge::row_major<const float>(b.data(), 2, 2),
                                      ridge::PackedMatrix::Element::bf16);
    ridge::gemm(1.0f, ridge::row_major(bf(a16), 2, 2), rounded, 0.0f, ridge::row_major(c16, 2, 2));
    check(c16[0] == 4.0f, "ridge::PackedMatrix for bf16 from float");
    ridge_packed_matrix *handle = nullptr, *from_float = nullptr;
    check(ridge_sbgemm_pack_b(CblasNoTrans, 2, 2, b16, 2, &handle) == 0 &&
              ridge_sbgemm_pack_b_f32(CblasNoTrans, 2, 2, b.data(), 2, &from_float) == 0 &&
              ridge_sbgemm_packed(CblasNoTrans, 2, 2, 2, 1.0f, a16, 2, handle, 0.0f, c16, 2) == 0 &&
              c16[1] == 2.5f &&
              ridge_sbgemm_packed(CblasNoTrans, 2, 2, 2, 1.0f, a16, 2, from_float, 0.0f, c16, 2) ==
                  0 &&
              c16[1] == 4.0f,
          "ridge_sbgemm_pack_b, ridge_sbgemm_pack_b_f32, ridge_sbgemm_packed");
    ridge_packed_matrix_destroy(handle);
    ridge_packed_matrix_destroy(from_float);
  }
  {
    // (A - 1)(B - 2) + 5 with A all 3 and B all 4, depth 2: 2 x 2 x 2 + 5 = 13.
    const std::uint8_t au[4] = {3, 3, 3, 3};
    const std::int8_t as[4] = {3, 3, 3, 3}, bs[4] = {4, 4, 4, 4};
    const std::int32_t offset = 5;
    std::int32_t ci[4] = {};
    check(ridge_gemm_u8s8s32('N', 'N', 'F', 2, 2, 2, 1.0f, au, 2, 1, bs, 2, 2, 0.0f, ci, 2,
                             &offset) == 0 &&
              ci[3] == 13,
          "ridge_gemm_u8s8s32");
    check(ridge_gemm_s8s8s32('T', 'N', 'F', 2, 2, 2, 1.0f, as, 2, 1, bs, 2, 2, 1.0f, ci, 2,
                             &offset) == 0 &&
              ci[0] == 26,
          "ridge_gemm_s8s8s32");
    // Dequantised: 0.5 (A - 1)(B - 2) = 4, into float and bf16 C, A unsigned and signed.
    float cf[4] = {};
    ridge::bf16 c16[4] = {};
    const auto a_u = ridge::row_major(au, 2, 2);
    const auto a_s = ridge::row_major(as, 2, 2);
    const auto b_s = ridge::row_major(bs, 2, 2);
    ridge::gemm(0.5f, a_u, std::uint8_t{1}, b_s, std::int8_t{2}, ridge::row_major(cf, 2, 2));
    ridge::gemm(0.5f, a_u, std::uint8_t{1}, b_s, std::int8_t{2}, ridge::row_major(c16, 2, 2));
    check(cf[3] == 4.0f && c16[3].bits == 0x4080, "ridge::gemm on uint8 x int8");
    ridge::gemm(0.5f, a_s, std::int8_t{1}, b_s, std::int8_t{2}, ridge::row_major(cf, 2, 2),
                ridge::Epilogue().add_per_row(ones.data()));
    ridge::gemm(0.5f, a_s, std::int8_t{1}, b_s, std::int8_t{2}, ridge::row_major(c16, 2, 2));
    check(cf[0] == 5.0f && c16[0].bits == 0x4080, "ridge::gemm on int8 x int8");
    // The same with B packed for int8, its zero point with it; and through C.
    const ridge::PackedMatrix packed(b_s, std::int8_t{2});
    ridge::gemm(0.5f, a_u, std::uint8_t{1}, packed, ridge::row_major(cf, 2, 2));
    ridge::gemm(0.5f, a_s, std::int8_t{1}, packed, ridge::row_major(c16, 2, 2));
    check(cf[1] == 4.0f && c16[1].bits == 0x4080, "ridge::PackedMatrix for int8");
    ridge::gemm(0.5f, a_s, std::int8_t{1}, packed, ridge::row_major(cf, 2, 2),
                ridge::Epilogue().add_per_row(ones.data()));
    ridge::gemm(0.5f, a_u, std::uint8_t{1}, packed, ridge::row_major(c16, 2, 2));
    check(cf[2] == 5.0f && c16[2].bits == 0x4080, "ridge::gemm on a PackedMatrix for int8");
    ridge_packed_matrix* handle = nullptr;
    check(ridge_gemm_s8_pack_b('N', 2, 2, bs, 2, 2, &handle) == 0 &&
              ridge_gemm_u8s8s32_packed('N', 'F', 2, 2, 2, 1.0f, au, 2, 1, handle, 0.0f, ci, 2,
                                        &offset) == 0 &&
              ci[3] == 13 &&
              ridge_gemm_s8s8s32_packed('N', 'F', 2, 2, 2, 1.0f, as, 2, 1, handle, 1.0f, ci, 2,
                                        &offset) == 0 &&
              ci[3] == 26,
          "ridge_gemm_s8_pack_b, ridge_gemm_u8s8s32_packed, ridge_gemm_s8s8s32_packed");
    ridge_packed_matrix_destroy(handle);
  }
  ridge::gemv(1.0f, ridge::row_major<const float>(a.data(), 2, 2),
              ridge::vector<const float>(x.data(), 2), 0.0f, ridge::vector(y.data(), 2));
  ridge::gemv(1.0, ridge::row_major<const double>(ad.data(), 2, 2),
              ridge::vector<const double>(xd.data(), 2), 0.0, ridge::vector(yd.data(), 2));
  check(y[1] == 2.0f && yd[1] == 2.0, "ridge::gemv");

  // BLAS, C and Fortran, and their error handlers.
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1, a.data(), 2, b.data(), 2, 0,
              c.data(), 2);
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1, ad.data(), 2, bd.data(), 2,
              0, cd.data(), 2);
  cblas_sgemv(CblasRowMajor, CblasNoTrans, 2, 2, 1, a.data(), 2, x.data(), 1, 0, y.data(), 1);
  cblas_dgemv(CblasColMajor, CblasTrans, 2, 2, 1, ad.data(), 2, xd.data(), 1, 0, yd.data(), 1);
  check(c[0] == 4.0f && cd[0] == 4.0 && y[0] == 2.0f && yd[0] == 2.0, "cblas_?gemm, cblas_?gemv");
  const int two = 2, one = 1;
  const float f_one = 1, f_zero = 0;
  const double d_one = 1, d_zero = 0;
  sgemm_("N", "N", &two, &two, &two, &f_one, a.data(), &two, b.data(), &two, &f_zero, c.data(),
         &two, 1, 1);
  dgemm_("T", "N", &two, &two, &two, &d_one, ad.data(), &two, bd.data(), &two, &d_zero,
         cd.data(), &two, 1, 1);
  sgemv_("N", &two, &two, &f_one, a.data(), &two, x.data(), &one, &f_zero, y.data(), &one, 1);
  dgemv_("T", &two, &two, &d_one, ad.data(), &two, xd.data(), &one, &d_zero, yd.data(), &one, 1);
  check(c[0] == 4.0f && cd[0] == 4.0 && y[0] == 2.0f && yd[0] == 2.0, "?gemm_, ?gemv_");
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, -1, 2, 2, 1, a.data(), 2, b.data(), 2,
              0, c.data(), 2);
  const int bad = -1;
  sgemv_("N", &bad, &two, &f_one, a.data(), &two, x.data(), &one, &f_zero, y.data(), &one, 1);
  check(cblas_errors == 1 && fortran_errors == 1, "cblas_xerbla, xerbla_ (the program's own)");
  check(RowMajorStrg == 0, "RowMajorStrg is 0 once a call has returned");

  // Attention, C++ (float and bf16) and C.
  std::vector<float> q(8, 0.5f), o(8, 0.0f);
  std::vector<ridge::bf16> qb(8, ridge::to_bf16(0.5f));
  ridge::attention(ridge::bshd<const float>(q.data(), 1, 2, 1, 4),
                   ridge::bshd<const float>(q.data(), 1, 2, 1, 4),
                   ridge::bshd<const float>(q.data(), 1, 2, 1, 4), ridge::bshd(o.data(), 1, 2, 1, 4));
  check(o[0] == 0.5f, "ridge::attention (float)");
  ridge::attention(ridge::bshd<const ridge::bf16>(qb.data(), 1, 2, 1, 4),
                   ridge::bshd<const ridge::bf16>(qb.data(), 1, 2, 1, 4),
                   ridge::bshd<const ridge::bf16>(qb.data(), 1, 2, 1, 4),
                   ridge::bshd(o.data(), 1, 2, 1, 4));
  check(o[7] == 0.5f, "ridge::attention (bf16)");
  check(ridge_attention_f32(q.data(), q.data(), q.data(), o.data(), 1, 2, 2, 1, 1, 4, 0, 1) == 0,
        "ridge_attention_f32");

  // The probe, its parts switched off where they take seconds.
  ridge::probe::Options options;
  options.quick = true;
  options.bandwidth = options.latency = options.coherence = false;
  const ridge::probe::Report report = ridge::probe::run(options);
  check(ridge::probe::best_peak(report, "f32", false) > 0, "ridge::probe::run, best_peak");
  check(ridge::probe::to_json(report).front() == '{', "ridge::probe::to_json");
  check(!ridge::probe::save(report).empty(), "ridge::probe::save");
  check(ridge::probe::fma_peak_gflops(ridge::probe::FmaType::f64, 1, best) > 0,
        "ridge::probe::fma_peak_gflops");
  check(ridge::probe::read_bandwidth(1, 1 << 20).median > 0, "ridge::probe::read_bandwidth");

  std::printf("every public function called: %s\n", failures == 0 ? "all as documented" : "FAILED");
  return failures == 0 ? 0 : 1;
}
