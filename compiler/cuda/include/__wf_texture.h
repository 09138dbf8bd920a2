// Warpforge CUDA headers: texture and surface object fetches for clang's CUDA mode. Each fetch is
// one PTX tex / tld4 / suld.b / sust.b instruction (inline asm), which Warpforge's compiler turns
// into TEX / SULD / SUST. Written for Warpforge.
#pragma once

typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;

#ifndef __WF_HAVE_SURFACE_BOUNDARY_MODE
#define __WF_HAVE_SURFACE_BOUNDARY_MODE
enum cudaSurfaceBoundaryMode {
  cudaBoundaryModeZero = 0,
  cudaBoundaryModeClamp = 1,
  cudaBoundaryModeTrap = 2
};
#endif

#if defined(__CUDA__)

// --- texture fetches --------------------------------------------------------------------------

// The four result registers of tex/tld4, by PTX result type.
struct __wf_tex_f { float x, y, z, w; };
struct __wf_tex_s { int x, y, z, w; };
struct __wf_tex_u { unsigned int x, y, z, w; };

// Every form takes the same arguments (layer, float coordinates, integer coordinate) and names
// the ones its PTX coordinate vector uses.
#define __WF_TEX_IN [t] "l"(__t), [l] "r"(__l), [x] "f"(__x), [y] "f"(__y), [z] "f"(__z), [i] "r"(__i)
#define __WF_TEX_FN(NAME, R, RT, RC, OP, CT, COORDS)                                               \
  static __device__ __forceinline__ R NAME(R, cudaTextureObject_t __t, int __l, float __x,        \
                                           float __y, float __z, int __i) {                        \
    R __r;                                                                                         \
    asm volatile(OP ".v4." RT "." CT " {%[r0], %[r1], %[r2], %[r3]}, [%[t], {" COORDS "}];"       \
                 : [r0] "=" RC(__r.x), [r1] "=" RC(__r.y), [r2] "=" RC(__r.z), [r3] "=" RC(__r.w)  \
                 : __WF_TEX_IN);                                                                   \
    return __r;                                                                                    \
  }
#define __WF_TEX_ALL(R, RT, RC)                                                                    \
  __WF_TEX_FN(__wf_tex1Dfetch, R, RT, RC, "tex.1d", "s32", "%[i]")                                \
  __WF_TEX_FN(__wf_tex1D, R, RT, RC, "tex.1d", "f32", "%[x]")                                     \
  __WF_TEX_FN(__wf_tex2D, R, RT, RC, "tex.2d", "f32", "%[x], %[y]")                               \
  __WF_TEX_FN(__wf_tex3D, R, RT, RC, "tex.3d", "f32", "%[x], %[y], %[z], %[z]")                   \
  __WF_TEX_FN(__wf_tex1DLayered, R, RT, RC, "tex.a1d", "f32", "%[l], %[x]")                       \
  __WF_TEX_FN(__wf_tex2DLayered, R, RT, RC, "tex.a2d", "f32", "%[l], %[x], %[y], %[y]")           \
  __WF_TEX_FN(__wf_tld4r, R, RT, RC, "tld4.r.2d", "f32", "%[x], %[y]")                            \
  __WF_TEX_FN(__wf_tld4g, R, RT, RC, "tld4.g.2d", "f32", "%[x], %[y]")                            \
  __WF_TEX_FN(__wf_tld4b, R, RT, RC, "tld4.b.2d", "f32", "%[x], %[y]")                            \
  __WF_TEX_FN(__wf_tld4a, R, RT, RC, "tld4.a.2d", "f32", "%[x], %[y]")
__WF_TEX_ALL(__wf_tex_f, "f32", "f")
__WF_TEX_ALL(__wf_tex_s, "s32", "r")
__WF_TEX_ALL(__wf_tex_u, "u32", "r")
#undef __WF_TEX_ALL
#undef __WF_TEX_FN
#undef __WF_TEX_IN

// What a fetch of type T returns in PTX (f32, s32 or u32) and how its value is built.
template <class T> struct __wf_tex_traits;
#define __WF_TEX_TRAITS(T, R, BODY)                                                                \
  template <> struct __wf_tex_traits<T> {                                                          \
    typedef R raw;                                                                                 \
    static __device__ __forceinline__ T make(R __v) { BODY }                                       \
  };
#define __WF_TEX_FAMILY(V, E, R)                                                                   \
  __WF_TEX_TRAITS(E, R, return (E)__v.x;)                                                          \
  __WF_TEX_TRAITS(V##1, R, V##1 __o; __o.x = (E)__v.x; return __o;)                                \
  __WF_TEX_TRAITS(V##2, R, V##2 __o; __o.x = (E)__v.x; __o.y = (E)__v.y; return __o;)              \
  __WF_TEX_TRAITS(V##4, R, V##4 __o; __o.x = (E)__v.x; __o.y = (E)__v.y; __o.z = (E)__v.z;        \
                  __o.w = (E)__v.w; return __o;)
__WF_TEX_TRAITS(char, __wf_tex_s, return (char)__v.x;)
__WF_TEX_FAMILY(char, signed char, __wf_tex_s)
__WF_TEX_FAMILY(uchar, unsigned char, __wf_tex_u)
__WF_TEX_FAMILY(short, short, __wf_tex_s)
__WF_TEX_FAMILY(ushort, unsigned short, __wf_tex_u)
__WF_TEX_FAMILY(int, int, __wf_tex_s)
__WF_TEX_FAMILY(uint, unsigned int, __wf_tex_u)
__WF_TEX_FAMILY(float, float, __wf_tex_f)
#undef __WF_TEX_FAMILY
#undef __WF_TEX_TRAITS

#define __WF_TEX_CALL(FN, ...)                                                                     \
  typedef __wf_tex_traits<T> __tr;                                                                 \
  return __tr::make(FN(typename __tr::raw(), __VA_ARGS__))

template <class T> static __device__ __forceinline__ T tex1Dfetch(cudaTextureObject_t t, int x) {
  __WF_TEX_CALL(__wf_tex1Dfetch, t, 0, 0.0f, 0.0f, 0.0f, x);
}
template <class T> static __device__ __forceinline__ T tex1D(cudaTextureObject_t t, float x) {
  __WF_TEX_CALL(__wf_tex1D, t, 0, x, 0.0f, 0.0f, 0);
}
template <class T>
static __device__ __forceinline__ T tex2D(cudaTextureObject_t t, float x, float y) {
  __WF_TEX_CALL(__wf_tex2D, t, 0, x, y, 0.0f, 0);
}
template <class T>
static __device__ __forceinline__ T tex3D(cudaTextureObject_t t, float x, float y, float z) {
  __WF_TEX_CALL(__wf_tex3D, t, 0, x, y, z, 0);
}
template <class T>
static __device__ __forceinline__ T tex1DLayered(cudaTextureObject_t t, float x, int layer) {
  __WF_TEX_CALL(__wf_tex1DLayered, t, layer, x, 0.0f, 0.0f, 0);
}
template <class T>
static __device__ __forceinline__ T tex2DLayered(cudaTextureObject_t t, float x, float y,
                                                 int layer) {
  __WF_TEX_CALL(__wf_tex2DLayered, t, layer, x, y, 0.0f, 0);
}
template <class T>
static __device__ __forceinline__ T tex2Dgather(cudaTextureObject_t t, float x, float y,
                                                int comp = 0) {
  switch (comp) {
  case 1: {
    __WF_TEX_CALL(__wf_tld4g, t, 0, x, y, 0.0f, 0);
  }
  case 2: {
    __WF_TEX_CALL(__wf_tld4b, t, 0, x, y, 0.0f, 0);
  }
  case 3: {
    __WF_TEX_CALL(__wf_tld4a, t, 0, x, y, 0.0f, 0);
  }
  default: {
    __WF_TEX_CALL(__wf_tld4r, t, 0, x, y, 0.0f, 0);
  }
  }
}
#undef __WF_TEX_CALL

// --- surfaces ---------------------------------------------------------------------------------
// Unformatted access by the size of T: 1, 2, 4, 8 or 16 bytes as b8, b16, b32, v2.b32, v4.b32.

struct __wf_surf_bits { unsigned int w[4]; };
enum { __wf_s1d, __wf_s2d, __wf_s3d, __wf_sa1d, __wf_sa2d };

#define __WF_SURF_IN [s] "l"(__s), [x] "r"(__x), [y] "r"(__y), [z] "r"(__z), [l] "r"(__l)
#define __WF_SULD(GEOM, MODE, C)                                                                   \
  switch (__size) {                                                                                \
  case 1:                                                                                          \
  case 2: {                                                                                        \
    unsigned short __h;                                                                            \
    if (__size == 1)                                                                               \
      asm volatile("suld.b." GEOM ".b8." MODE " {%[d]}, [%[s], {" C "}];"                         \
                   : [d] "=h"(__h) : __WF_SURF_IN);                                                \
    else                                                                                           \
      asm volatile("suld.b." GEOM ".b16." MODE " {%[d]}, [%[s], {" C "}];"                        \
                   : [d] "=h"(__h) : __WF_SURF_IN);                                                \
    __b.w[0] = __size == 1 ? (__h & 0xffu) : __h;                                                  \
    break;                                                                                         \
  }                                                                                                \
  case 4:                                                                                          \
    asm volatile("suld.b." GEOM ".b32." MODE " {%[d]}, [%[s], {" C "}];"                          \
                 : [d] "=r"(__b.w[0]) : __WF_SURF_IN);                                             \
    break;                                                                                         \
  case 8:                                                                                          \
    asm volatile("suld.b." GEOM ".v2.b32." MODE " {%[d0], %[d1]}, [%[s], {" C "}];"               \
                 : [d0] "=r"(__b.w[0]), [d1] "=r"(__b.w[1]) : __WF_SURF_IN);                       \
    break;                                                                                         \
  default:                                                                                         \
    asm volatile("suld.b." GEOM ".v4.b32." MODE " {%[d0], %[d1], %[d2], %[d3]}, [%[s], {" C "}];" \
                 : [d0] "=r"(__b.w[0]), [d1] "=r"(__b.w[1]), [d2] "=r"(__b.w[2]),                  \
                   [d3] "=r"(__b.w[3])                                                             \
                 : __WF_SURF_IN);                                                                  \
    break;                                                                                         \
  }
#define __WF_SUST(GEOM, MODE, C)                                                                   \
  switch (__size) {                                                                                \
  case 1:                                                                                          \
    asm volatile("sust.b." GEOM ".b8." MODE " [%[s], {" C "}], {%[d]};" ::__WF_SURF_IN,           \
                 [d] "h"((unsigned short)__b.w[0])                                                 \
                 : "memory");                                                                      \
    break;                                                                                         \
  case 2:                                                                                          \
    asm volatile("sust.b." GEOM ".b16." MODE " [%[s], {" C "}], {%[d]};" ::__WF_SURF_IN,          \
                 [d] "h"((unsigned short)__b.w[0])                                                 \
                 : "memory");                                                                      \
    break;                                                                                         \
  case 4:                                                                                          \
    asm volatile("sust.b." GEOM ".b32." MODE " [%[s], {" C "}], {%[d]};" ::__WF_SURF_IN,          \
                 [d] "r"(__b.w[0])                                                                 \
                 : "memory");                                                                      \
    break;                                                                                         \
  case 8:                                                                                          \
    asm volatile("sust.b." GEOM ".v2.b32." MODE " [%[s], {" C "}], {%[d0], %[d1]};" ::__WF_SURF_IN, \
                 [d0] "r"(__b.w[0]), [d1] "r"(__b.w[1])                                            \
                 : "memory");                                                                      \
    break;                                                                                         \
  default:                                                                                         \
    asm volatile("sust.b." GEOM ".v4.b32." MODE                                                    \
                 " [%[s], {" C "}], {%[d0], %[d1], %[d2], %[d3]};" ::__WF_SURF_IN,                 \
                 [d0] "r"(__b.w[0]), [d1] "r"(__b.w[1]), [d2] "r"(__b.w[2]), [d3] "r"(__b.w[3])   \
                 : "memory");                                                                      \
    break;                                                                                         \
  }
#define __WF_SURF_MODES(OP, GEOM, C)                                                               \
  if (__mode == cudaBoundaryModeZero) {                                                            \
    OP(GEOM, "zero", C)                                                                            \
  } else if (__mode == cudaBoundaryModeClamp) {                                                    \
    OP(GEOM, "clamp", C)                                                                           \
  } else {                                                                                         \
    OP(GEOM, "trap", C)                                                                            \
  }
#define __WF_SURF_GEOMS(OP)                                                                        \
  switch (__geom) {                                                                                \
  case __wf_s1d:                                                                                   \
    __WF_SURF_MODES(OP, "1d", "%[x]")                                                              \
    break;                                                                                         \
  case __wf_s2d:                                                                                   \
    __WF_SURF_MODES(OP, "2d", "%[x], %[y]")                                                        \
    break;                                                                                         \
  case __wf_s3d:                                                                                   \
    __WF_SURF_MODES(OP, "3d", "%[x], %[y], %[z], %[z]")                                            \
    break;                                                                                         \
  case __wf_sa1d:                                                                                  \
    __WF_SURF_MODES(OP, "a1d", "%[l], %[x]")                                                       \
    break;                                                                                         \
  default:                                                                                         \
    __WF_SURF_MODES(OP, "a2d", "%[l], %[x], %[y], %[y]")                                           \
    break;                                                                                         \
  }

static __device__ __forceinline__ void __wf_suld(__wf_surf_bits &__b, unsigned __size, int __geom,
                                                 int __mode, cudaSurfaceObject_t __s, int __x,
                                                 int __y, int __z, int __l) {
  __WF_SURF_GEOMS(__WF_SULD)
}
static __device__ __forceinline__ void __wf_sust(const __wf_surf_bits &__b, unsigned __size,
                                                 int __geom, int __mode, cudaSurfaceObject_t __s,
                                                 int __x, int __y, int __z, int __l) {
  __WF_SURF_GEOMS(__WF_SUST)
}
#undef __WF_SURF_GEOMS
#undef __WF_SURF_MODES
#undef __WF_SUST
#undef __WF_SULD
#undef __WF_SURF_IN

template <class T>
static __device__ __forceinline__ T __wf_surf_read(int geom, cudaSurfaceObject_t s, int x, int y,
                                                   int z, int l, cudaSurfaceBoundaryMode mode) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 ||
                    sizeof(T) == 16,
                "surface elements are 1, 2, 4, 8 or 16 bytes");
  __wf_surf_bits b;
  __wf_suld(b, sizeof(T), geom, mode, s, x, y, z, l);
  T v;
  __builtin_memcpy(&v, b.w, sizeof(T));
  return v;
}
template <class T>
static __device__ __forceinline__ void __wf_surf_write(T v, int geom, cudaSurfaceObject_t s, int x,
                                                       int y, int z, int l,
                                                       cudaSurfaceBoundaryMode mode) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 ||
                    sizeof(T) == 16,
                "surface elements are 1, 2, 4, 8 or 16 bytes");
  __wf_surf_bits b = {{0, 0, 0, 0}};
  __builtin_memcpy(b.w, &v, sizeof(T));
  __wf_sust(b, sizeof(T), geom, mode, s, x, y, z, l);
}

// x is in bytes, as in CUDA.
template <class T>
static __device__ __forceinline__ T surf1Dread(cudaSurfaceObject_t s, int x,
                                               cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
  return __wf_surf_read<T>(__wf_s1d, s, x, 0, 0, 0, m);
}
template <class T>
static __device__ __forceinline__ T surf2Dread(cudaSurfaceObject_t s, int x, int y,
                                               cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
  return __wf_surf_read<T>(__wf_s2d, s, x, y, 0, 0, m);
}
template <class T>
static __device__ __forceinline__ T surf3Dread(cudaSurfaceObject_t s, int x, int y, int z,
                                               cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
  return __wf_surf_read<T>(__wf_s3d, s, x, y, z, 0, m);
}
template <class T>
static __device__ __forceinline__ T
surf1DLayeredread(cudaSurfaceObject_t s, int x, int layer,
                  cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
  return __wf_surf_read<T>(__wf_sa1d, s, x, 0, 0, layer, m);
}
template <class T>
static __device__ __forceinline__ T
surf2DLayeredread(cudaSurfaceObject_t s, int x, int y, int layer,
                  cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
  return __wf_surf_read<T>(__wf_sa2d, s, x, y, 0, layer, m);
}
template <class T>
static __device__ __forceinline__ void surf1Dwrite(T v, cudaSurfaceObject_t s, int x,
                                                   cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
  __wf_surf_write<T>(v, __wf_s1d, s, x, 0, 0, 0, m);
}
template <class T>
static __device__ __forceinline__ void surf2Dwrite(T v, cudaSurfaceObject_t s, int x, int y,
                                                   cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
  __wf_surf_write<T>(v, __wf_s2d, s, x, y, 0, 0, m);
}
template <class T>
static __device__ __forceinline__ void surf3Dwrite(T v, cudaSurfaceObject_t s, int x, int y, int z,
                                                   cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
  __wf_surf_write<T>(v, __wf_s3d, s, x, y, z, 0, m);
}
template <class T>
static __device__ __forceinline__ void
surf1DLayeredwrite(T v, cudaSurfaceObject_t s, int x, int layer,
                   cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
  __wf_surf_write<T>(v, __wf_sa1d, s, x, 0, 0, layer, m);
}
template <class T>
static __device__ __forceinline__ void
surf2DLayeredwrite(T v, cudaSurfaceObject_t s, int x, int y, int layer,
                   cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
  __wf_surf_write<T>(v, __wf_sa2d, s, x, y, 0, layer, m);
}

#endif // __CUDA__
