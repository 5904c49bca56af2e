/* A program with its own BLAS error handlers, linked against libridge.so: ridge's weak handlers
 * must give way to these, for errors found in the library itself. Exit status 0 when both
 * handlers received the reference parameter numbers. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <ridge/ridge.h>

static int cblas_parameter = 0, fortran_parameter = 0;
static char fortran_routine[8];

void cblas_xerbla(int parameter, const char* routine, const char* message, ...) {
  (void)routine;
  (void)message;
  cblas_parameter = parameter;
}

void xerbla_(const char* routine, const int* parameter, size_t length) {
  fortran_parameter = *parameter;
  memcpy(fortran_routine, routine, length < 7 ? length : 7);
}

int main(void) {
  float a[4] = {0}, b[4] = {0}, c[4] = {0};
  const int m = 2, n = 2, k = 2, bad_lda = 1;
  const float one = 1;
  cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1, a, 1, b, 2, 0, c, 2);
  sgemm_("N", "N", &m, &n, &k, &one, a, &bad_lda, b, &n, &one, c, &m, 1, 1);
  printf("cblas_xerbla got %d, xerbla_ got %d from %.6s\n", cblas_parameter, fortran_parameter,
         fortran_routine);
  return cblas_parameter == 9 && fortran_parameter == 8 && strncmp(fortran_routine, "SGEMM", 5) == 0
             ? 0
             : 1;
}
