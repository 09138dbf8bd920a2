// WF-CHAPTER: runtime
// WF-FEATURES: rt.printf.formats, rt.printf.flush_on_sync
// WF-DESCRIPTION: device printf from a single thread (guide B.17): integer, unsigned, hex, octal, char, string, fixed/exponent/general float formats, widths, precisions, flags, length modifiers, %%; output is flushed at synchronisation and interleaves with host output in order
// WF-EXPECTED-OUTPUT: printf_formats.expected
#include "../common/check.h"

__global__ void fmt(int i, double d, const char* unused) {
  (void)unused;
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  printf("int %d %i neg %d\n", i, i + 1, -i);
  printf("unsigned %u hex %x HEX %X octal %o\n", 4000000000u, 0xbeefu, 0xbeefu, 8u);
  printf("long long %lld unsigned long long %llu hex %llx\n", -1234567890123LL, 18000000000000000000ull, 0xfedcba9876ull);
  printf("short %hd char %c%c%c string [%s]\n", (short)-12, 'W', 'F', '!', "warpforge");
  printf("width [%5d] [%-5d] [%05d] [%+d]\n", 42, 42, 42, 42);
  printf("fixed %f %.2f %10.3f %-10.1f|\n", d, d, -d, d);
  printf("exp %e %.3E general %g %G\n", d * 1e10, d / 1e10, d, 1e-10);
  printf("special %f %f\n", 1.0 / 0.0, -1.0 / 0.0);
  printf("percent %% done, float arg promoted %.1f\n", 2.5f);
  printf("many args %d %d %d %d %d %d %d %d %d %d\n", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
}

int main() {
  printf("host before\n");
  fflush(stdout);
  fmt<<<2, 64>>>(123, 3.14159265358979, nullptr);
  CHECK_KERNEL();
  printf("host after\n");
  fflush(stdout);
  return wf::finish();
}
