/* C = A * B through the CBLAS interface, checked against the textbook triple loop. */
#include <stdio.h>

#include <ridge/ridge.h>

enum { M = 3, N = 4, K = 5 };

int main(void) {
  float a[M * K], b[K * N], c[M * N];
  for (int i = 0; i < M * K; ++i) a[i] = (float)(i % 7);
  for (int i = 0; i < K * N; ++i) b[i] = (float)(i % 5) - 1.0f;

  /* Row-major, no transposition: lda = K, ldb = N, ldc = N. */
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0f, a, K, b, N, 0.0f, c, N);

  /* Small integers: every product and sum is exact in float, so the results must match exactly. */
  int wrong = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float expected = 0.0f;
      for (int p = 0; p < K; ++p) expected += a[i * K + p] * b[p * N + j];
      if (c[i * N + j] != expected) ++wrong;
    }
  printf("C[0][0] = %g, C[%d][%d] = %g, %d of %d wrong\n", c[0], M - 1, N - 1, c[M * N - 1],
         wrong, M * N);
  return wrong == 0 ? 0 : 1;
}
