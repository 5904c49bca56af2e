/* A program with its own BLAS error handlers, linked against libridge.so: ridge's weak handlers
 * must give way to these, for errors found in the library itself, and the CBLAS one must see
 * ridge's reports under the reference protocol through RowMajorStrg, the library's flag that the
 * program shares. Exit status 0 when both handlers received the reference parameter numbers. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <ridge/ridge.h>

struct cblas_report {
  int parameter, row_major;
};
static struct cblas_report cblas_last;
static int fortran_parameter = 0;
static char fortran_routine[8];

void cblas_xerbla(int parameter, const char* routine, const char* message, ...) {
  (void)routine;
  (void)message;
  cblas_last.parameter = parameter;
  cblas_last.row_major = RowMajorStrg;
}

void xerbla_(const char* routine, const int* parameter, size_t length) {
  fortran_parameter = *parameter;
  memcpy(fortran_routine, routine, length < 7 ? length : 7);
}

/* The bad lda of a column-major call is parameter 9; the bad ldb of a row-major call is the
 * user's parameter 11, reported as 9 (lda in the transposed call) with RowMajorStrg set. */
int main(void) {
  float a[4] = {0}, b[4] = {0}, c[4] = {0};
  const int m = 2, n = 2, k = 2, bad_lda = 1;
  const float one = 1;
  cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1, a, 1, b, 2, 0, c, 2);
  const struct cblas_report column_major = cblas_last;
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1, a, 2, b, 1, 0, c, 2);
  const struct cblas_report row_major = cblas_last;
  sgemm_("N", "N", &m, &n, &k, &one, a, &bad_lda, b, &n, &one, c, &m, 1, 1);
  printf("cblas_xerbla got %d, RowMajorStrg %d\n", column_major.parameter, column_major.row_major);
  printf("cblas_xerbla got %d, RowMajorStrg %d\n", row_major.parameter, row_major.row_major);
  printf("RowMajorStrg %d after; xerbla_ got %d from %.6s\n", RowMajorStrg, fortran_parameter,
         fortran_routine);
  return column_major.parameter == 9 && column_major.row_major == 0 && row_major.parameter == 9 &&
                 row_major.row_major == 1 && RowMajorStrg == 0 && fortran_parameter == 8 &&
                 strncmp(fortran_routine, "SGEMM", 5) == 0
             ? 0
             : 1;
}
