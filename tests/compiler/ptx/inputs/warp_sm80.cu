// Warp match and reduce (sm_70+ / sm_80+).
#include "compat.h"

#if defined(__NVCC__) || defined(__WARPFORGE__)
#define WF_MATCH_ANY(v) __match_any_sync(0xffffffffu, (v))
#define WF_MATCH_ALL(v, p) __match_all_sync(0xffffffffu, (v), (p))
#define WF_REDUCE_ADD(v) __reduce_add_sync(0xffffffffu, (v))
#define WF_REDUCE_MAX(v) __reduce_max_sync(0xffffffffu, (v))
#define WF_REDUCE_OR(v) __reduce_or_sync(0xffffffffu, (v))
#else
#define WF_MATCH_ANY(v) __nvvm_match_any_sync_i32(0xffffffffu, (v))
#define WF_MATCH_ALL(v, p) __nvvm_match_all_sync_i32p(0xffffffffu, (v), (p))
#define WF_REDUCE_ADD(v) __nvvm_redux_sync_add((v), 0xffffffffu)
#define WF_REDUCE_MAX(v) __nvvm_redux_sync_max((v), 0xffffffffu)
#define WF_REDUCE_OR(v) __nvvm_redux_sync_or((v), 0xffffffffu)
#endif

extern "C" __global__ void matchReduce(const int *in, int *out) {
  int v = in[WF_TID_X()];
  unsigned same = WF_MATCH_ANY(v);
  int pred = 0;
  unsigned all = WF_MATCH_ALL(v & 1, &pred);
  int sum = WF_REDUCE_ADD(v);
  int mx = WF_REDUCE_MAX(v);
  unsigned o = WF_REDUCE_OR((unsigned)v);
  out[WF_TID_X()] = (int)(same + all) + pred + sum + mx + (int)o;
}
