#include "warpforge/runtime/fatbin.h"

#include <cstring>
#include <zstd.h>

namespace wf::rt::fatbin {

const Entry *Parsed::bestPtx() const {
  const Entry *best = nullptr;
  for (const Entry &e : entries)
    if (e.kind == kKindPtx && (!best || e.arch > best->arch))
      best = &e;
  return best;
}

std::string Parsed::elfArchs() const {
  std::string s;
  for (const Entry &e : entries)
    if (e.kind == kKindElf)
      s += (s.empty() ? "sm_" : ", sm_") + std::to_string(e.arch);
  return s.empty() ? "none" : s;
}

static bool parseOne(const uint8_t *data, size_t limit, Parsed &out, std::string &error,
                     size_t &consumed) {
  Header h;
  if (limit && limit < sizeof h) {
    error = "fatbinary truncated (header)";
    return false;
  }
  std::memcpy(&h, data, sizeof h);
  if (h.magic != kFatbinMagic) {
    error = "not a fatbinary (bad magic)";
    return false;
  }
  if (h.headerSize < sizeof h) {
    error = "fatbinary header too small";
    return false;
  }
  uint64_t total = uint64_t(h.headerSize) + h.fatSize;
  if (limit && total > limit) {
    error = "fatbinary truncated (entries)";
    return false;
  }
  uint64_t off = h.headerSize;
  while (off < total) {
    EntryHeader e;
    if (total - off < sizeof e) {
      error = "fatbinary entry header truncated";
      return false;
    }
    std::memcpy(&e, data + off, sizeof e);
    if (e.headerSize < sizeof e || total - off - e.headerSize < e.payloadSize) {
      error = "fatbinary entry sizes out of range";
      return false;
    }
    const uint8_t *payload = data + off + e.headerSize;
    Entry entry;
    entry.kind = e.kind;
    entry.arch = e.arch;
    entry.flags = e.flags;
    if (e.flags & kFlagCompressedZstd) {
      entry.compressed = true;
      uint64_t csize = e.compressedSize ? e.compressedSize : e.payloadSize;
      if (csize > e.payloadSize) {
        error = "fatbinary compressed size out of range";
        return false;
      }
      entry.payload.resize(e.uncompressedSize);
      size_t n = ZSTD_decompress(entry.payload.data(), entry.payload.size(), payload, csize);
      if (ZSTD_isError(n)) {
        error = std::string("zstd decompression of a fatbinary entry failed: ") +
                ZSTD_getErrorName(n);
        return false;
      }
      entry.payload.resize(n);
    } else if (e.flags & kFlagCompressedLz) {
      entry.compressed = true;
      if (e.kind == kKindPtx) {
        error = "fatbinary PTX entry uses the older LZ compression, which Warpforge does not "
                "read; rebuild with nvcc 12.8 or newer, or with -Xfatbin=-compress=false";
        return false;
      }
    } else {
      entry.payload.assign(payload, payload + e.payloadSize);
    }
    if (entry.kind == kKindPtx)
      while (!entry.payload.empty() && entry.payload.back() == 0)
        entry.payload.pop_back();
    out.entries.push_back(std::move(entry));
    off += e.headerSize + e.payloadSize;
  }
  consumed = total;
  return true;
}

bool parse(const uint8_t *data, size_t limit, Parsed &out, std::string &error) {
  size_t consumed = 0;
  if (!parseOne(data, limit, out, error, consumed))
    return false;
  while (limit && limit - consumed >= sizeof(Header)) {
    uint32_t magic;
    std::memcpy(&magic, data + consumed, 4);
    if (magic != kFatbinMagic)
      break;
    size_t next = 0;
    if (!parseOne(data + consumed, limit - consumed, out, error, next))
      return false;
    consumed += next;
  }
  return true;
}

bool parseWrapper(const void *wrapper, Parsed &out, std::string &error) {
  if (!wrapper) {
    error = "null fatbinary";
    return false;
  }
  Wrapper w;
  std::memcpy(&w, wrapper, sizeof w);
  if (w.magic != kWrapperMagic) {
    // Some callers pass the fatbinary itself.
    uint32_t magic;
    std::memcpy(&magic, wrapper, 4);
    if (magic == kFatbinMagic)
      return parse(static_cast<const uint8_t *>(wrapper), 0, out, error);
    error = "unknown fatbinary wrapper magic";
    return false;
  }
  return parse(static_cast<const uint8_t *>(w.data), 0, out, error);
}

std::vector<uint8_t> build(const std::vector<Entry> &entries, bool compress) {
  std::vector<uint8_t> body;
  for (const Entry &entry : entries) {
    EntryHeader e{};
    e.kind = entry.kind;
    e.version = 0x0101;
    e.headerSize = sizeof e;
    e.arch = entry.arch;
    e.flags = kFlag64Bit | 0x10 | (entry.flags & ~(kFlagCompressedZstd | kFlagCompressedLz));
    std::vector<uint8_t> payload = entry.payload;
    if (entry.kind == kKindPtx)
      payload.push_back(0);
    if (compress && entry.kind == kKindPtx) {
      std::vector<uint8_t> c(ZSTD_compressBound(payload.size()));
      size_t n = ZSTD_compress(c.data(), c.size(), payload.data(), payload.size(), 3);
      c.resize(n);
      e.flags |= kFlagCompressedZstd;
      e.compressedSize = uint32_t(n);
      e.uncompressedSize = payload.size();
      payload = std::move(c);
    }
    while (payload.size() % 8)
      payload.push_back(0);
    e.payloadSize = payload.size();
    const uint8_t *p = reinterpret_cast<const uint8_t *>(&e);
    body.insert(body.end(), p, p + sizeof e);
    body.insert(body.end(), payload.begin(), payload.end());
  }
  Header h{kFatbinMagic, 1, sizeof(Header), body.size()};
  std::vector<uint8_t> out(reinterpret_cast<const uint8_t *>(&h),
                           reinterpret_cast<const uint8_t *>(&h) + sizeof h);
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

} // namespace wf::rt::fatbin
