// Warpforge CUDA headers: dim3 and the CUDA vector types with their make_* functions.
#pragma once
#include "__wf_host_defines.h"

struct __align__(1) char1 { char x; };
typedef struct char1 char1;
__WF_HD char1 make_char1(char x) { char1 t; t.x = x; return t; }
struct __align__(2) char2 { char x, y; };
typedef struct char2 char2;
__WF_HD char2 make_char2(char x, char y) { char2 t; t.x = x; t.y = y; return t; }
struct __align__(1) char3 { char x, y, z; };
typedef struct char3 char3;
__WF_HD char3 make_char3(char x, char y, char z) { char3 t; t.x = x; t.y = y; t.z = z; return t; }
struct __align__(4) char4 { char x, y, z, w; };
typedef struct char4 char4;
__WF_HD char4 make_char4(char x, char y, char z, char w) { char4 t; t.x = x; t.y = y; t.z = z; t.w = w; return t; }
struct __align__(1) uchar1 { unsigned char x; };
typedef struct uchar1 uchar1;
__WF_HD uchar1 make_uchar1(unsigned char x) { uchar1 t; t.x = x; return t; }
struct __align__(2) uchar2 { unsigned char x, y; };
typedef struct uchar2 uchar2;
__WF_HD uchar2 make_uchar2(unsigned char x, unsigned char y) { uchar2 t; t.x = x; t.y = y; return t; }
struct __align__(1) uchar3 { unsigned char x, y, z; };
typedef struct uchar3 uchar3;
__WF_HD uchar3 make_uchar3(unsigned char x, unsigned char y, unsigned char z) { uchar3 t; t.x = x; t.y = y; t.z = z; return t; }
struct __align__(4) uchar4 { unsigned char x, y, z, w; };
typedef struct uchar4 uchar4;
__WF_HD uchar4 make_uchar4(unsigned char x, unsigned char y, unsigned char z, unsigned char w) { uchar4 t; t.x = x; t.y = y; t.z = z; t.w = w; return t; }
struct __align__(2) short1 { short x; };
typedef struct short1 short1;
__WF_HD short1 make_short1(short x) { short1 t; t.x = x; return t; }
struct __align__(4) short2 { short x, y; };
typedef struct short2 short2;
__WF_HD short2 make_short2(short x, short y) { short2 t; t.x = x; t.y = y; return t; }
struct __align__(2) short3 { short x, y, z; };
typedef struct short3 short3;
__WF_HD short3 make_short3(short x, short y, short z) { short3 t; t.x = x; t.y = y; t.z = z; return t; }
struct __align__(8) short4 { short x, y, z, w; };
typedef struct short4 short4;
__WF_HD short4 make_short4(short x, short y, short z, short w) { short4 t; t.x = x; t.y = y; t.z = z; t.w = w; return t; }
struct __align__(2) ushort1 { unsigned short x; };
typedef struct ushort1 ushort1;
__WF_HD ushort1 make_ushort1(unsigned short x) { ushort1 t; t.x = x; return t; }
struct __align__(4) ushort2 { unsigned short x, y; };
typedef struct ushort2 ushort2;
__WF_HD ushort2 make_ushort2(unsigned short x, unsigned short y) { ushort2 t; t.x = x; t.y = y; return t; }
struct __align__(2) ushort3 { unsigned short x, y, z; };
typedef struct ushort3 ushort3;
__WF_HD ushort3 make_ushort3(unsigned short x, unsigned short y, unsigned short z) { ushort3 t; t.x = x; t.y = y; t.z = z; return t; }
struct __align__(8) ushort4 { unsigned short x, y, z, w; };
typedef struct ushort4 ushort4;
__WF_HD ushort4 make_ushort4(unsigned short x, unsigned short y, unsigned short z, unsigned short w) { ushort4 t; t.x = x; t.y = y; t.z = z; t.w = w; return t; }
struct __align__(4) int1 { int x; };
typedef struct int1 int1;
__WF_HD int1 make_int1(int x) { int1 t; t.x = x; return t; }
struct __align__(8) int2 { int x, y; };
typedef struct int2 int2;
__WF_HD int2 make_int2(int x, int y) { int2 t; t.x = x; t.y = y; return t; }
struct __align__(4) int3 { int x, y, z; };
typedef struct int3 int3;
__WF_HD int3 make_int3(int x, int y, int z) { int3 t; t.x = x; t.y = y; t.z = z; return t; }
struct __align__(16) int4 { int x, y, z, w; };
typedef struct int4 int4;
__WF_HD int4 make_int4(int x, int y, int z, int w) { int4 t; t.x = x; t.y = y; t.z = z; t.w = w; return t; }
struct __align__(4) uint1 { unsigned int x; };
typedef struct uint1 uint1;
__WF_HD uint1 make_uint1(unsigned int x) { uint1 t; t.x = x; return t; }
struct __align__(8) uint2 { unsigned int x, y; };
typedef struct uint2 uint2;
__WF_HD uint2 make_uint2(unsigned int x, unsigned int y) { uint2 t; t.x = x; t.y = y; return t; }
struct __align__(4) uint3 { unsigned int x, y, z; };
typedef struct uint3 uint3;
__WF_HD uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) { uint3 t; t.x = x; t.y = y; t.z = z; return t; }
struct __align__(16) uint4 { unsigned int x, y, z, w; };
typedef struct uint4 uint4;
__WF_HD uint4 make_uint4(unsigned int x, unsigned int y, unsigned int z, unsigned int w) { uint4 t; t.x = x; t.y = y; t.z = z; t.w = w; return t; }
struct __align__(8) long1 { long x; };
typedef struct long1 long1;
__WF_HD long1 make_long1(long x) { long1 t; t.x = x; return t; }
struct __align__(16) long2 { long x, y; };
typedef struct long2 long2;
__WF_HD long2 make_long2(long x, long y) { long2 t; t.x = x; t.y = y; return t; }
struct __align__(8) long3 { long x, y, z; };
typedef struct long3 long3;
__WF_HD long3 make_long3(long x, long y, long z) { long3 t; t.x = x; t.y = y; t.z = z; return t; }
struct __align__(16) long4 { long x, y, z, w; };
typedef struct long4 long4;
__WF_HD long4 make_long4(long x, long y, long z, long w) { long4 t; t.x = x; t.y = y; t.z = z; t.w = w; return t; }
struct __align__(8) ulong1 { unsigned long x; };
typedef struct ulong1 ulong1;
__WF_HD ulong1 make_ulong1(unsigned long x) { ulong1 t; t.x = x; return t; }
struct __align__(16) ulong2 { unsigned long x, y; };
typedef struct ulong2 ulong2;
__WF_HD ulong2 make_ulong2(unsigned long x, unsigned long y) { ulong2 t; t.x = x; t.y = y; return t; }
struct __align__(8) ulong3 { unsigned long x, y, z; };
typedef struct ulong3 ulong3;
__WF_HD ulong3 make_ulong3(unsigned long x, unsigned long y, unsigned long z) { ulong3 t; t.x = x; t.y = y; t.z = z; return t; }
struct __align__(16) ulong4 { unsigned long x, y, z, w; };
typedef struct ulong4 ulong4;
__WF_HD ulong4 make_ulong4(unsigned long x, unsigned long y, unsigned long z, unsigned long w) { ulong4 t; t.x = x; t.y = y; t.z = z; t.w = w; return t; }
struct __align__(8) longlong1 { long long x; };
typedef struct longlong1 longlong1;
__WF_HD longlong1 make_longlong1(long long x) { longlong1 t; t.x = x; return t; }
struct __align__(16) longlong2 { long long x, y; };
typedef struct longlong2 longlong2;
__WF_HD longlong2 make_longlong2(long long x, long long y) { longlong2 t; t.x = x; t.y = y; return t; }
struct __align__(8) longlong3 { long long x, y, z; };
typedef struct longlong3 longlong3;
__WF_HD longlong3 make_longlong3(long long x, long long y, long long z) { longlong3 t; t.x = x; t.y = y; t.z = z; return t; }
struct __align__(16) longlong4 { long long x, y, z, w; };
typedef struct longlong4 longlong4;
__WF_HD longlong4 make_longlong4(long long x, long long y, long long z, long long w) { longlong4 t; t.x = x; t.y = y; t.z = z; t.w = w; return t; }
struct __align__(8) ulonglong1 { unsigned long long x; };
typedef struct ulonglong1 ulonglong1;
__WF_HD ulonglong1 make_ulonglong1(unsigned long long x) { ulonglong1 t; t.x = x; return t; }
struct __align__(16) ulonglong2 { unsigned long long x, y; };
typedef struct ulonglong2 ulonglong2;
__WF_HD ulonglong2 make_ulonglong2(unsigned long long x, unsigned long long y) { ulonglong2 t; t.x = x; t.y = y; return t; }
struct __align__(8) ulonglong3 { unsigned long long x, y, z; };
typedef struct ulonglong3 ulonglong3;
__WF_HD ulonglong3 make_ulonglong3(unsigned long long x, unsigned long long y, unsigned long long z) { ulonglong3 t; t.x = x; t.y = y; t.z = z; return t; }
struct __align__(16) ulonglong4 { unsigned long long x, y, z, w; };
typedef struct ulonglong4 ulonglong4;
__WF_HD ulonglong4 make_ulonglong4(unsigned long long x, unsigned long long y, unsigned long long z, unsigned long long w) { ulonglong4 t; t.x = x; t.y = y; t.z = z; t.w = w; return t; }
struct __align__(4) float1 { float x; };
typedef struct float1 float1;
__WF_HD float1 make_float1(float x) { float1 t; t.x = x; return t; }
struct __align__(8) float2 { float x, y; };
typedef struct float2 float2;
__WF_HD float2 make_float2(float x, float y) { float2 t; t.x = x; t.y = y; return t; }
struct __align__(4) float3 { float x, y, z; };
typedef struct float3 float3;
__WF_HD float3 make_float3(float x, float y, float z) { float3 t; t.x = x; t.y = y; t.z = z; return t; }
struct __align__(16) float4 { float x, y, z, w; };
typedef struct float4 float4;
__WF_HD float4 make_float4(float x, float y, float z, float w) { float4 t; t.x = x; t.y = y; t.z = z; t.w = w; return t; }
struct __align__(8) double1 { double x; };
typedef struct double1 double1;
__WF_HD double1 make_double1(double x) { double1 t; t.x = x; return t; }
struct __align__(16) double2 { double x, y; };
typedef struct double2 double2;
__WF_HD double2 make_double2(double x, double y) { double2 t; t.x = x; t.y = y; return t; }
struct __align__(8) double3 { double x, y, z; };
typedef struct double3 double3;
__WF_HD double3 make_double3(double x, double y, double z) { double3 t; t.x = x; t.y = y; t.z = z; return t; }
struct __align__(16) double4 { double x, y, z, w; };
typedef struct double4 double4;
__WF_HD double4 make_double4(double x, double y, double z, double w) { double4 t; t.x = x; t.y = y; t.z = z; t.w = w; return t; }

struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const { return uint3{x, y, z}; }
};
typedef struct dim3 dim3;
#define __WF_DIM3_DEFINED 1 // cuda_types.h then keeps its plain dim3 out

