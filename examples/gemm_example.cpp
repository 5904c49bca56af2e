// C = A * B with ridge's C++ API, checked against the textbook triple loop.
#include <cstdio>
#include <vector>

#include <ridge/ridge.hpp>

int main() {
  const int m = 3, n = 4, k = 5;
  std::vector<float> a(m * k), b(k * n), c(m * n);
  for (int i = 0; i < m * k; ++i) a[i] = float(i % 7);
  for (int i = 0; i < k * n; ++i) b[i] = float(i % 5) - 1.0f;

  // Row-major views: A is m x k, B is k x n, C is m x n.
  ridge::gemm(1.0f, ridge::row_major<const float>(a.data(), m, k),
              ridge::row_major<const float>(b.data(), k, n), 0.0f,
              ridge::row_major(c.data(), m, n));

  // Small integers: every product and sum is exact in float, so the results must match exactly.
  int wrong = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float expected = 0.0f;
      for (int p = 0; p < k; ++p) expected += a[i * k + p] * b[p * n + j];
      if (c[i * n + j] != expected) ++wrong;
    }
  std::printf("C[0][0] = %g, C[%d][%d] = %g, %d of %d wrong\n", c[0], m - 1, n - 1,
              c[m * n - 1], wrong, m * n);
  return wrong == 0 ? 0 : 1;
}
