/* An ordinary BLAS program, built against Debian's reference BLAS (libblas-dev) and knowing
 * nothing of ridge: it calls the eight routines ridge implements, through CBLAS and through the
 * Fortran symbols, and checks each result against a plain double-precision loop. Exit status 0
 * when every result is within rounding of the loop. preload_test.sh runs it with libridge.so
 * preloaded and without. */
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The Fortran BLAS, as C programs declare it (no hidden string lengths). */
void sgemm_(const char*, const char*, const int*, const int*, const int*, const float*,
            const float*, const int*, const float*, const int*, const float*, float*, const int*);
void dgemm_(const char*, const char*, const int*, const int*, const int*, const double*,
            const double*, const int*, const double*, const int*, const double*, double*,
            const int*);
void sgemv_(const char*, const int*, const int*, const float*, const float*, const int*,
            const float*, const int*, const float*, float*, const int*);
void dgemv_(const char*, const int*, const int*, const double*, const double*, const int*,
            const double*, const int*, const double*, double*, const int*);

static int failures = 0;

static double random_value(void) { return (double)rand() / RAND_MAX * 2.0 - 1.0; }

/* Reports one routine's largest error relative to the bound k * eps * sum |terms|. */
static void report(const char* routine, double worst) {
  printf("%-12s worst error / bound = %.3f\n", routine, worst);
  if (!(worst <= 1.0)) ++failures;
}

/* Column-major C (m x n) = op(A) op(B) with op(A)(i, p) = a[ta ? p + i * lda : i + p * lda]:
 * the largest |got - exact| / bound over C. */
static double gemm_error(int ta, int tb, int m, int n, int k, const double* a, int lda,
                         const double* b, int ldb, const double* got, int ldc, double eps) {
  double worst = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double sum = 0, magnitude = 0;
      for (int p = 0; p < k; ++p) {
        const double term = (ta ? a[p + i * lda] : a[i + p * lda]) *
                            (tb ? b[j + p * ldb] : b[p + j * ldb]);
        sum += term;
        magnitude += fabs(term);
      }
      const double error = fabs(got[i + j * ldc] - sum) / ((k + 2) * eps * magnitude + 1e-300);
      if (!(error <= worst)) worst = error;
    }
  return worst;
}

static void check_gemm(void) {
  enum { M = 301, N = 203, K = 257 };  /* large enough that ridge runs it on several threads */
  static float af[M * K], bf[K * N], cf[M * N];
  static double ad[M * K], bd[K * N], cd[M * N], a[M * K], b[K * N], c[M * N];
  for (int i = 0; i < M * K; ++i) af[i] = (float)(ad[i] = random_value());
  for (int i = 0; i < K * N; ++i) bf[i] = (float)(bd[i] = random_value());
  for (int i = 0; i < M * K; ++i) a[i] = af[i];
  for (int i = 0; i < K * N; ++i) b[i] = bf[i];
  const float one_f = 1, zero_f = 0;
  const double one = 1, zero = 0;
  const int m = M, n = N, k = K;

  /* Row-major C = A B is column-major C^T = B^T A^T: the error check reads it that way. */
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1, af, K, bf, N, 0, cf, N);
  for (int i = 0; i < M * N; ++i) c[i] = cf[i];
  report("cblas_sgemm", gemm_error(0, 0, N, M, K, b, N, a, K, c, N, 0x1p-24));
  cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, M, N, K, 1, ad, K, bd, K, 0, cd, M);
  report("cblas_dgemm", gemm_error(1, 0, M, N, K, ad, K, bd, K, cd, M, 0x1p-53));
  sgemm_("N", "T", &m, &n, &k, &one_f, af, &m, bf, &n, &zero_f, cf, &m);
  for (int i = 0; i < M * N; ++i) c[i] = cf[i];
  report("sgemm_", gemm_error(0, 1, M, N, K, a, M, b, N, c, M, 0x1p-24));
  dgemm_("N", "N", &m, &n, &k, &one, ad, &m, bd, &k, &zero, cd, &m);
  report("dgemm_", gemm_error(0, 0, M, N, K, ad, M, bd, K, cd, M, 0x1p-53));
}

/* y = op(A) x, A column-major m x n, as an m' x 1 GEMM product for the error check. */
static void check_gemv(void) {
  enum { M = 1000, N = 700 };  /* 2.7 MiB of float A */
  static float af[M * N], xf[M], yf[M];
  static double ad[M * N], xd[M], yd[M], a[M * N], x[M], y[M];
  for (int i = 0; i < M * N; ++i) af[i] = (float)(ad[i] = random_value());
  for (int i = 0; i < M; ++i) xf[i] = (float)(xd[i] = random_value());
  for (int i = 0; i < M * N; ++i) a[i] = af[i];
  for (int i = 0; i < M; ++i) x[i] = xf[i];
  const float one_f = 1, zero_f = 0;
  const double one = 1, zero = 0;
  const int m = M, n = N, inc = 1, minus_one = -1;

  /* Row-major y (M) = A x: column-major A^T (N x M), transposed. */
  cblas_sgemv(CblasRowMajor, CblasNoTrans, M, N, 1, af, N, xf, 1, 0, yf, 1);
  for (int i = 0; i < M; ++i) y[i] = yf[i];
  report("cblas_sgemv", gemm_error(1, 0, M, 1, N, a, N, x, N, y, M, 0x1p-24));
  cblas_dgemv(CblasColMajor, CblasNoTrans, M, N, 1, ad, M, xd, 1, 0, yd, 1);
  report("cblas_dgemv", gemm_error(0, 0, M, 1, N, ad, M, xd, N, yd, M, 0x1p-53));
  /* y (N) = A^T x with x walked backwards (increment -1): x reversed for the check. */
  sgemv_("T", &m, &n, &one_f, af, &m, xf, &minus_one, &zero_f, yf, &inc);
  double reversed[M];
  for (int i = 0; i < M; ++i) reversed[i] = x[M - 1 - i];
  for (int i = 0; i < N; ++i) y[i] = yf[i];
  report("sgemv_", gemm_error(1, 0, N, 1, M, a, M, reversed, M, y, N, 0x1p-24));
  dgemv_("N", &m, &n, &one, ad, &m, xd, &inc, &zero, yd, &inc);
  report("dgemv_", gemm_error(0, 0, M, 1, N, ad, M, xd, N, yd, M, 0x1p-53));
}

int main(void) {
  srand(7);
  check_gemm();
  check_gemv();
  printf("%s\n", failures == 0 ? "all results within rounding" : "FAILED");
  return failures == 0 ? 0 : 1;
}
